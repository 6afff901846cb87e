// A run is isolated from other units: another team following the guides, and the admin token changing the
// registry-wide state (settings, the day list, the clock, system errors for any unit) and putting it back, leave a
// run on my unit judged as it would be alone. Written as the vendors' software over HTTP.
import { describe, expect, it } from "vitest";
import {
  advance,
  correctConsumer,
  correctUpload,
  gateway,
  information,
  newUnit,
  listPatiently,
  acknowledge,
  read,
  start,
  submit,
  submitRetrying,
  untilDecided,
  useTestGateway,
  type Run,
  type Unit,
} from "./support.js";
import { CHECK_NAMES } from "../../src/readiness/checks.js";
import { idempotencyKey } from "../support/gateway.js";
import { allowTitleEnquiries, correctTitleEnquiries } from "./pacing-support.js";
import { SAMPLES } from "../support/upload.js";

useTestGateway();

const verdicts = (run: Run) => Object.fromEntries(run.checks.map((each) => [each.name, each.verdict]));

async function admin(method: string, path: string, body?: unknown): Promise<void> {
  const answer = await gateway().sandbox(method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
}

/**
 * Another team between two steps of my software: it works on its own unit (a submission, decided by hand to wait for
 * priority), then changes the registry-wide state with the admin token, as a reader of the guides may before their
 * put-back steps, and leaves it so while my software goes on.
 */
async function anotherTeamDisturbs(other: Unit, round: number): Promise<void> {
  const id = await submit(other);
  // A submission that met a system error scheduled for any unit ended in SYSTEM_ERROR: it waits for nothing.
  if ((await information(other, id)).status === "VALIDATING")
    await admin("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_AWAITING_PRIORITY" });
  await admin("PUT", "/sandbox/v1/settings", {
    processing: "manual",
    duplicate_rate: 1,
    error_rate: 0.5,
    latency_ms: 20,
    strict_date_times: true,
    service_hours: "enforced",
    require_client_certificate: true,
  });
  await admin("PUT", "/sandbox/v1/day-list", { open: round % 2 === 1 });
  await admin("POST", "/sandbox/v1/clock/advance", { seconds: 2 * 86_400 });
  await admin("POST", "/sandbox/v1/system-errors", { count: 2 });
}

/** The guides' put-back steps with the admin token (automatic processing, the day list open), and the rest as it was. */
async function putBack(settings: unknown): Promise<void> {
  await admin("PUT", "/sandbox/v1/settings", settings);
  await admin("PUT", "/sandbox/v1/day-list", { open: true });
  await admin("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
}

/** The steps of the software of every readiness test: correct (the full client) or naive (one page, nothing else). */
const SOFTWARE: Record<"correct" | "naive", ((unit: Unit) => Promise<void>)[]> = {
  correct: [
    correctTitleEnquiries,
    async (unit) => void (await submit(unit)),
    async (unit) => {
      const key = idempotencyKey();
      await submitRetrying(unit, key);
      await untilDecided(unit, await submitRetrying(unit, key));
    },
    async (unit) => expect(await correctUpload(unit, SAMPLES.pdf)).toBe(200),
    correctConsumer,
  ],
  naive: [
    async (unit) => void (await submit(unit)),
    async (unit) =>
      expect(
        await acknowledge(
          unit,
          (await listPatiently(unit)).map((n) => n.notification_id),
        ),
      ).toBe(200),
  ],
};

/** A whole run of every check on a new unit, with `between` done before each step of its software; its verdicts. */
async function runOf(software: keyof typeof SOFTWARE, between: (step: number) => Promise<void>) {
  const unit = await newUnit();
  await allowTitleEnquiries(unit);
  const started = await start(unit, { time_limit_seconds: 1200 });
  for (const [index, step] of SOFTWARE[software].entries()) {
    await between(index);
    await step(unit);
  }
  await advance(unit, 1200);
  return verdicts(await read(unit, started.run_id));
}

describe("a run is isolated from other units and from the admin token's registry-wide changes", () => {
  for (const software of ["correct", "naive"] as const)
    it(`judges ${software} software as alone while another team changes settings, day list, clock and system errors`, async () => {
      const alone = await runOf(software, async () => {});
      if (software === "correct") expect(alone).toEqual(Object.fromEntries(CHECK_NAMES.map((n) => [n, "passed"])));
      else expect(Object.values(alone)).toContain("failed");
      const other = await newUnit();
      // The other team's own unit keeps its requests answered whatever the admin token sets for everyone, and decides
      // its applications by hand (the registry never decides one before the team moves it).
      expect(
        (
          await gateway().control(other.sandbox_token, "PUT", "/sandbox/v1/settings", {
            error_rate: 0,
            latency_ms: 0,
            processing: "manual",
          })
        ).status,
      ).toBe(200);
      const settings = (await gateway().sandbox("GET", "/sandbox/v1/settings")).body;
      try {
        const disturbed = await runOf(software, (step) => anotherTeamDisturbs(other, step));
        expect(disturbed).toEqual(alone);
      } finally {
        await putBack(settings);
      }
    });

  it("ends the hold with the run: what the unit did not set itself follows the registry-wide state again", async () => {
    const unit = await newUnit();
    const settings = (await gateway().sandbox("GET", "/sandbox/v1/settings")).body as Record<string, unknown>;
    const own = (path: string) => gateway().control(unit.sandbox_token, "GET", path);
    const run = await start(unit, { checks: ["paging"], time_limit_seconds: 60 });
    try {
      await admin("PUT", "/sandbox/v1/settings", { latency_ms: 5, strict_date_times: !settings["strict_date_times"] });
      await admin("PUT", "/sandbox/v1/day-list", { open: false });
      // The unit sees the state as the run began; a setting it changes itself is its own.
      expect(
        (await gateway().control(unit.sandbox_token, "PUT", "/sandbox/v1/settings", { error_rate: 0.25 })).body,
      ).toMatchObject({ latency_ms: settings["latency_ms"], strict_date_times: settings["strict_date_times"] });
      expect((await own("/sandbox/v1/day-list")).body).toMatchObject({ open: true });
      expect(
        (await gateway().control(unit.sandbox_token, "POST", `/sandbox/v1/readiness-runs/${run.run_id}/cancel`)).status,
      ).toBe(200);
      expect((await own("/sandbox/v1/settings")).body).toMatchObject({
        latency_ms: 5,
        strict_date_times: !settings["strict_date_times"],
        error_rate: 0.25,
      });
      expect((await own("/sandbox/v1/day-list")).body).toMatchObject({ open: false });
    } finally {
      await putBack(settings);
    }
  });
});
