// The sandbox control plane is a contract that external test tools rely on (spec/sandbox.yaml): these
// properties check the parts of it the rest of the suite builds on.
import fc from "fast-check";
import { expectStatus, expectThat, sameJson } from "../driver.js";
import type { Property } from "../property.js";

interface Settings {
  processing: "automatic" | "manual";
  duplicate_rate: number;
  latency_ms: number;
  error_rate: number;
}

const settingsPartialUpdate: Property = {
  id: "control-plane.settings-partial-update",
  rows: [],
  title:
    "PUT /sandbox/v1/settings changes only the settings the body names and keeps the others; an empty body is refused with 400",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    const change = fc.record(
      {
        processing: fc.constantFrom<Settings["processing"]>("automatic", "manual"),
        duplicate_rate: fc.constantFrom(0, 0.25, 1),
        latency_ms: fc.constant(0),
        error_rate: fc.constant(0),
      },
      { requiredKeys: [] },
    );
    try {
      await context.assert(
        fc.asyncProperty(change, async (changes) => {
          const before = await session.control<Settings>("PUT", "/sandbox/v1/settings", {
            processing: "manual",
            duplicate_rate: 0.5,
            latency_ms: 0,
            error_rate: 0,
          });
          const answer = await session.sandbox("PUT", "/sandbox/v1/settings", changes);
          if (Object.keys(changes).length === 0) {
            expectStatus(answer, 400, "an empty settings change");
            return;
          }
          expectStatus(answer, 200, "a settings change");
          const want = { ...before, ...changes };
          expectThat(
            sameJson(answer.body, want),
            `settings ${answer.text} after changing ${JSON.stringify(changes)}; expected ${JSON.stringify(want)}`,
          );
          expectThat(
            sameJson(await session.control("GET", "/sandbox/v1/settings"), want),
            "GET answers other settings than the PUT did",
          );
        }),
        undefined,
        // Always among the cases: a change of one setting alone, and no change at all.
        [[{ duplicate_rate: 1 }], [{}]],
      );
    } finally {
      await session.control("PUT", "/sandbox/v1/settings", {
        processing: "manual",
        duplicate_rate: 0,
        latency_ms: 0,
        error_rate: 0,
      });
    }
  },
};

const clock: Property = {
  id: "control-plane.clock",
  rows: [],
  title:
    "the sandbox clock moves forward by the seconds asked for (zero leaves it) and can be set to an instant given in any zone",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 31_622_400 }),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        async (seconds, instant) => {
          const start = Date.parse(
            (
              await session.control<{ now: string }>("PUT", "/sandbox/v1/clock", {
                now: new Date(instant).toISOString().replace("Z", "+00:00"),
              })
            ).now,
          );
          expectThat(
            Math.abs(start - instant) < 5_000,
            `the clock was set to ${new Date(start).toISOString()}, not ${new Date(instant).toISOString()}`,
          );
          const moved = Date.parse(
            (await session.control<{ now: string }>("POST", "/sandbox/v1/clock/advance", { seconds })).now,
          );
          expectThat(
            moved - start >= seconds * 1000 && moved - start < seconds * 1000 + 5_000,
            `advancing ${seconds} s moved the clock by ${moved - start} ms`,
          );
        },
      ),
    );
    // Leave the clock at real time again, as the other properties found it.
    await session.control("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
  },
};

/** Properties of the control plane. */
export const controlPlaneProperties: Property[] = [settingsPartialUpdate, clock];
