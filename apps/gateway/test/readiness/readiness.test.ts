import { describe, expect, it } from "vitest";
import {
  acknowledge,
  advance,
  check,
  correctConsumer,
  correctUpload,
  list,
  newUnit,
  onePageConsumer,
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

const gateway = useTestGateway();

/** Pages as the correct consumer does, but acknowledges one id per event: duplicates are dropped unacknowledged. */
async function duplicateIgnoringConsumer(unit: Unit): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const page = await list(unit, after === undefined ? "" : `?created_after=${encodeURIComponent(after)}`);
    const events = new Map<string, string>();
    for (const n of page) {
      const event = `${n.event_datetime} ${n.notification_type} ${n.subject}`;
      if (!events.has(event)) events.set(event, n.notification_id);
    }
    if (events.size > 0) expect(await acknowledge(unit, [...events.values()])).toBe(200);
    if (page.length < 100) return;
    after = page.at(-1)!.created_datetime;
  }
}

/** Reads every page, then acknowledges everything in one call (refused: more than 100 ids). */
async function oneCallConsumer(unit: Unit): Promise<void> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await list(unit, after === undefined ? "" : `?created_after=${encodeURIComponent(after)}`);
    ids.push(...page.map((n) => n.notification_id));
    if (page.length < 100) break;
    after = page.at(-1)!.created_datetime;
  }
  expect(await acknowledge(unit, ids)).toBe(400);
}

describe("readiness runs", () => {
  it("passes every check with a correct consumer, with evidence, and finishes at the deadline on the unit's clock", async () => {
    const unit = await newUnit();
    await allowTitleEnquiries(unit);
    // Long enough for a deferred official search's 15 minutes.
    const started = await start(unit, { time_limit_seconds: 1200 });
    expect(started).toMatchObject({ status: "running", verdict: "running", business_unit_id: unit.business_unit_id });
    expect(started.checks.map((c) => [c.name, c.verdict])).toEqual(CHECK_NAMES.map((name) => [name, "running"]));
    expect(started.checks.every((c) => typeof c.instructions === "string")).toBe(true);

    await correctTitleEnquiries(unit);
    await submit(unit);
    // The run's second submission ends in SYSTEM_ERROR: submitted again with its key, its answer is lost and retried
    // with that key (system-error, lost-answer); the notifications are consumed once that one is decided.
    const key = idempotencyKey();
    await submitRetrying(unit, key);
    await untilDecided(unit, await submitRetrying(unit, key));
    expect(await correctUpload(unit, SAMPLES.pdf)).toBe(200);
    await correctConsumer(unit);
    const during = await read(unit, started.run_id);
    expect(check(during, "duplicates").verdict).toBe("passed");
    expect(check(during, "paging").verdict).toBe("passed");
    expect(check(during, "nothing-left-behind").verdict).toBe("running");
    expect(check(during, "duplicates").evidence.requests.map((r) => r.operation_id)).toContain(
      "acknowledgeNotificationsV1",
    );

    await advance(unit, 1200);
    const finished = await read(unit, started.run_id);
    expect(finished).toMatchObject({ status: "finished", verdict: "passed" });
    expect(finished.checks.map((c) => [c.name, c.verdict])).toEqual(CHECK_NAMES.map((name) => [name, "passed"]));
    expect(finished.checks.every((c) => c.instructions === null)).toBe(true);
    // Nothing is observed once the run has ended.
    await list(unit);
    expect((await read(unit, started.run_id)).observations.recorded).toBe(finished.observations.recorded);
  });

  it("fails duplicates (and nothing-left-behind) with a consumer that acknowledges one id per event", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["duplicates", "nothing-left-behind"], time_limit_seconds: 60 });
    await duplicateIgnoringConsumer(unit);
    expect(check(await read(unit, run.run_id), "duplicates").verdict).toBe("running");
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.verdict).toBe("failed");
    expect(check(finished, "duplicates").verdict).toBe("failed");
    expect(check(finished, "duplicates").evidence.found).toMatch(/Only one id/);
    expect(check(finished, "nothing-left-behind").verdict).toBe("failed");
  });

  it("fails paging with a consumer that never reads past the first 100", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["paging"], time_limit_seconds: 60 });
    await onePageConsumer(unit);
    await advance(unit, 60);
    const paging = check(await read(unit, run.run_id), "paging");
    expect(paging.verdict).toBe("failed");
    expect(paging.evidence.found).toMatch(/^100 of 250 acknowledged/);
  });

  it("judges duplicates on the deliveries a first-page consumer was shown, and fails it on paging alone", async () => {
    // The run raises its notifications in the order of its checks, duplicates first, and the store gives each a later
    // created_datetime than the one before: the first page holds both deliveries of the duplicated event.
    const unit = await newUnit();
    const run = await start(unit, { checks: ["duplicates", "paging"], time_limit_seconds: 60 });
    await onePageConsumer(unit);
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect([check(finished, "duplicates").verdict, check(finished, "paging").verdict]).toEqual(["passed", "failed"]);
    expect(check(finished, "paging").evidence.found).toMatch(/^98 of 250 acknowledged/);
  });

  it("fails paging at once when an acknowledge call sends more than 100 ids", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["paging"], time_limit_seconds: 600 });
    await oneCallConsumer(unit);
    const during = await read(unit, run.run_id);
    expect(during.status).toBe("running");
    const paging = check(during, "paging");
    expect(paging.verdict).toBe("failed");
    expect(paging.evidence.requests[0]).toMatchObject({
      operation_id: "acknowledgeNotificationsV1",
      status: 400,
      acknowledged_count: 250,
    });
  });

  it("judges two units' runs at once apart, one of them days ahead on its own clock", async () => {
    const [good, naive] = [await newUnit(), await newUnit()];
    const [goodRun, naiveRun] = [
      await start(good, { checks: ["paging"], time_limit_seconds: 7 * 24 * 3600 }),
      await start(naive, { checks: ["paging"], time_limit_seconds: 60 }),
    ];
    await Promise.all([correctConsumer(good), onePageConsumer(naive)]);
    await advance(good, 3 * 24 * 3600);
    await advance(naive, 60);
    await advance(good, 4 * 24 * 3600);
    const [goodAfter, naiveAfter] = [await read(good, goodRun.run_id), await read(naive, naiveRun.run_id)];
    expect([goodAfter.verdict, naiveAfter.verdict]).toEqual(["passed", "failed"]);
    // Each run observed only its own unit's requests: the naive unit made two.
    expect(naiveAfter.observations.recorded).toBe(2);
    expect(goodAfter.observations.recorded).toBeGreaterThan(2);
  });

  it("refuses a second run of a unit (409-05), changing nothing, and starts again once it is cancelled", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["duplicates"] });
    const pending = (await list(unit)).length;
    const second = await gateway().control(unit.sandbox_token, "POST", "/sandbox/v1/readiness-runs", {
      checks: ["paging"],
    });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "409-05" });
    expect((await list(unit)).length).toBe(pending);
    const runs = await gateway().control(unit.sandbox_token, "GET", "/sandbox/v1/readiness-runs");
    expect((runs.body as { data: Run[] }).data.map((r) => r.run_id)).toEqual([run.run_id]);

    const cancelled = await gateway().control(
      unit.sandbox_token,
      "POST",
      `/sandbox/v1/readiness-runs/${run.run_id}/cancel`,
    );
    expect(cancelled.body).toMatchObject({ status: "cancelled", verdict: "not_exercised" });
    expect(check(cancelled.body as Run, "duplicates").verdict).toBe("not_exercised");
    await start(unit, { checks: ["duplicates"] });
  });

  it("shows a unit token its own runs only (another unit's is 404-01); the admin token names the unit", async () => {
    const [owner, other] = [await newUnit(), await newUnit()];
    const noUnit = await gateway().sandbox("POST", "/sandbox/v1/readiness-runs", { checks: ["duplicates"] });
    expect(noUnit.status).toBe(400);
    expect(noUnit.body).toMatchObject({ code: "400-02", errors: [{ pointer: "/body/business_unit_id" }] });
    const byAdmin = await gateway().sandbox("POST", "/sandbox/v1/readiness-runs", {
      business_unit_id: owner.business_unit_id,
      checks: ["duplicates"],
    });
    expect(byAdmin.status).toBe(201);
    const runId = (byAdmin.body as Run).run_id;

    for (const [method, path] of [
      ["GET", `/sandbox/v1/readiness-runs/${runId}`],
      ["POST", `/sandbox/v1/readiness-runs/${runId}/cancel`],
    ] as const) {
      const answer = await gateway().control(other.sandbox_token, method, path);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: "404-01" });
    }
    const onOther = await gateway().control(other.sandbox_token, "POST", "/sandbox/v1/readiness-runs", {
      business_unit_id: owner.business_unit_id,
    });
    expect(onOther.status).toBe(404);
    const listed = await gateway().control(other.sandbox_token, "GET", "/sandbox/v1/readiness-runs");
    expect((listed.body as { data: Run[] }).data).toEqual([]);
    expect((await read(owner, runId)).status).toBe("running");
    const adminList = await gateway().sandbox(
      "GET",
      `/sandbox/v1/readiness-runs?business_unit_id=${owner.business_unit_id}`,
    );
    expect((adminList.body as { data: Run[] }).data.map((r) => r.run_id)).toEqual([runId]);
  });

  it.each([
    ["an unknown check", { checks: ["paging", "telepathy"] }, "/body/checks/1"],
    ["a time limit under a minute", { time_limit_seconds: 59 }, "/body/time_limit_seconds"],
    ["a time limit over seven days", { time_limit_seconds: 604801 }, "/body/time_limit_seconds"],
  ])("refuses %s with 400-02 and starts nothing", async (_name, body, pointer) => {
    const unit = await newUnit();
    const answer = await gateway().control(unit.sandbox_token, "POST", "/sandbox/v1/readiness-runs", body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: "400-02" });
    expect((answer.body as { errors: { pointer: string }[] }).errors.map((e) => e.pointer)).toContain(pointer);
    const listed = await gateway().control(unit.sandbox_token, "GET", "/sandbox/v1/readiness-runs");
    expect((listed.body as { data: Run[] }).data).toEqual([]);
    expect(await list(unit)).toEqual([]);
  });

  it("keeps observations with the run until the unit's reset, which removes both", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["paging"] });
    await onePageConsumer(unit);
    expect((await read(unit, run.run_id)).observations.recorded).toBe(2);
    const observed = await gateway().gateway.storage.readinessObservations(run.run_id);
    expect(observed.map((o) => [o.operationId, o.credentialsSent, o.acknowledgedCount])).toEqual([
      ["listNotificationsV1", true, null],
      ["acknowledgeNotificationsV1", true, 100],
    ]);

    expect((await gateway().control(unit.sandbox_token, "POST", "/sandbox/v1/reset")).status).toBe(204);
    expect(await gateway().gateway.storage.readinessObservations(run.run_id)).toEqual([]);
    const answer = await gateway().control(unit.sandbox_token, "GET", `/sandbox/v1/readiness-runs/${run.run_id}`);
    expect(answer.status).toBe(404);
    // No run, nothing observed: a new run starts afresh.
    await list(unit);
    expect((await start(unit, { checks: ["duplicates"] })).observations.recorded).toBe(0);
  });
});
