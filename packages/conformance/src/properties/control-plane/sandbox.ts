// The sandbox control plane is a contract that external test tools rely on (spec/sandbox.yaml): these
// properties check the parts of it the rest of the suite builds on.
import fc from "fast-check";
import { componentSchema, type SpecNode } from "@lrg/spec";
import {
  advanceClock,
  errorOf,
  expectStatus,
  expectThat,
  readClock,
  sameJson,
  submission,
  submit,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Answer, ControlScope, Session } from "../../session.js";

/** The most seconds one clock advance may move (the spec's maximum of SandboxClockAdvanceRequest.seconds). */
const MAX_ADVANCE_SECONDS = Number(
  ((componentSchema("SandboxClockAdvanceRequest", "sandbox")["properties"] as Record<string, SpecNode>)["seconds"] ??
    {})["maximum"],
);

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
        fc.integer({ min: 0, max: MAX_ADVANCE_SECONDS }),
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

/** How far a clock is from real time, in milliseconds (read and compared at once, so requests hardly count). */
async function offsetOf(session: Session, as: ControlScope): Promise<number> {
  const now = (await session.control<{ now: string }>("GET", "/sandbox/v1/clock", undefined, { as })).now;
  return Date.parse(now) - Date.now();
}

/** Clocks that follow one another differ by the time requests take: far less than a minute. */
const SAME_CLOCK_MS = 60_000;

/** Asserts a refusal of a unit token: 403 with the code 403-05. */
function expectAdminOnly(answer: Answer, what: string): void {
  expectStatus(answer, 403, `${what} with a unit token`);
  expectThat(errorOf(answer).code === "403-05", `${what} with a unit token: ${answer.text}`);
}

const unitScope: Property = {
  id: "control-plane.unit-scope",
  rows: [],
  title:
    "a unit token acts on its own business unit alone: its clock and settings change while another unit's and the global ones stay, another unit's application is not found (404) to its transitions and correspondence, and creating business units or opening and closing the day list is refused (403, 403-05)",
  requires: ["control-plane"],
  runs: 5,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        // Up to the whole days one advance may move the clock.
        fc.integer({ min: 1, max: Math.floor(MAX_ADVANCE_SECONDS / 86_400) }),
        fc.constantFrom(0.25, 0.5, 1),
        fc.boolean(),
        async (days, rate, open) => {
          const mine = await session.newBusinessUnit();
          const other = await session.newBusinessUnit();
          // Read only: the global clock, settings and day list, which every run on the gateway shares.
          const global = await offsetOf(session, "admin");
          const globalSettings = await session.control("GET", "/sandbox/v1/settings", undefined, { as: "admin" });
          const dayList = await session.control<{ open: boolean }>("GET", "/sandbox/v1/day-list", undefined, {
            as: mine,
          });

          await advanceClock(session, days * 86_400, mine);
          const moved = (await readClock(session, mine)) - Date.now();
          expectThat(
            Math.abs(moved - global - days * 86_400_000) < SAME_CLOCK_MS,
            `the unit's clock is ${moved - global} ms from the global one after advancing ${days} days`,
          );
          expectThat(
            Math.abs((await offsetOf(session, other)) - global) < SAME_CLOCK_MS,
            "another business unit's clock moved with this unit's",
          );
          expectThat(
            Math.abs((await offsetOf(session, "admin")) - global) < SAME_CLOCK_MS,
            "the global clock moved with a unit's",
          );

          const settings = await session.control<{ duplicate_rate: number }>(
            "PUT",
            "/sandbox/v1/settings",
            { duplicate_rate: rate },
            { as: mine },
          );
          expectThat(settings.duplicate_rate === rate, `the unit's settings answered duplicate_rate ${rate}`);
          const others = await session.control<{ duplicate_rate: number }>("GET", "/sandbox/v1/settings", undefined, {
            as: other,
          });
          expectThat(others.duplicate_rate === 0, "another business unit's settings changed with this unit's");
          expectThat(
            sameJson(await session.control("GET", "/sandbox/v1/settings", undefined, { as: "admin" }), globalSettings),
            "the global settings changed with a unit's",
          );

          const theirs = await submit(session, other, submission());
          for (const [path, body] of [
            ["transitions", { to: "ACCEPTED_PRIORITY_PROTECTED" }],
            ["correspondence", { documents: ["LTR"] }],
          ] as const) {
            const answer = await session.sandbox("POST", `/sandbox/v1/applications/${theirs}/${path}`, body, mine);
            expectStatus(answer, 404, `${path} of another business unit's application`);
          }
          const information = await session.call("GET", `/v0/applications/${theirs}/information`, { as: other });
          expectThat(
            (information.body as { data: { status: string } }).data.status === "VALIDATING",
            "another unit's token moved the application",
          );

          const created = await session.sandbox("POST", "/sandbox/v1/business-units", { name: "refused" }, mine);
          expectAdminOnly(created, "creating a business unit");
          expectAdminOnly(
            await session.sandbox("PUT", "/sandbox/v1/day-list", { open }, mine),
            `${open ? "opening" : "closing"} the day list`,
          );
          const after = await session.control<{ open: boolean }>("GET", "/sandbox/v1/day-list", undefined, {
            as: mine,
          });
          expectThat(after.open === dayList.open, "a refused day-list change changed the day list");
        },
      ),
    );
  },
};

/** Properties of the control plane. */
export const sandboxProperties: Property[] = [settingsPartialUpdate, clock, unitScope];
