import { describe, expect, it } from "vitest";
import { RULES } from "../../src/readiness/check.js";
import { faultsAndCadence, LIST_FAULTS, POLLING_LIMIT } from "../../src/readiness/faults-and-cadence.js";
import { factsOf, observed } from "./observations.js";
import { retryAfter, waitRetryAfter } from "./pacing-support.js";
import {
  advance,
  check,
  correctConsumer,
  gateway,
  listPatiently,
  newUnit,
  read,
  start,
  useTestGateway,
  type Unit,
} from "./support.js";

useTestGateway();

const listOnce = (unit: Unit) => gateway().call("GET", "/v1/notifications", { as: unit });

describe("the faults-and-cadence check", () => {
  it("answers the run's first two list requests 503, slowly, and passes software that waits each Retry-After", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["faults-and-cadence"], time_limit_seconds: 60 });
    expect(check(run, "faults-and-cadence").instructions).toMatch(/^List your business unit's notifications/);

    const before = Date.now();
    const first = await listOnce(unit);
    // The slow answer: at least the fault's latency of real time (a lower bound, never flaky).
    expect(Date.now() - before).toBeGreaterThanOrEqual(500);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: "503-01" });
    expect(retryAfter(first)).toBe(1);
    await waitRetryAfter(unit, first);
    const second = await listOnce(unit);
    expect([second.status, retryAfter(second)]).toEqual([503, 2]);
    await waitRetryAfter(unit, second);
    await correctConsumer(unit);

    const during = check(await read(unit, run.run_id), "faults-and-cadence");
    expect(during.verdict).toBe("running");
    expect(during.evidence.found).toBe(
      "2 503s of the notification list met, each waited for so far. Decided when the run ends.",
    );
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "faults-and-cadence");
    expect(judged.verdict).toBe("passed");
    expect(judged.evidence.found).toMatch(
      /^2 503s of the notification list met, each waited for; answered 200 again at observation 3;/,
    );
    expect(judged.evidence.requests.map((r) => [r.status, r.retry_after])).toEqual([
      [503, 1],
      [503, 2],
      [200, null],
    ]);
  });

  it("fails software that retries a 503 at once, in a tight loop", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["faults-and-cadence"], time_limit_seconds: 60 });
    const statuses: number[] = [];
    for (;;) {
      const answer = await listOnce(unit);
      statuses.push(answer.status);
      if (answer.status === 200) break;
    }
    expect(statuses).toEqual([503, 503, 200]);
    const judged = check(await read(unit, run.run_id), "faults-and-cadence");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /^Retried too soon: listNotificationsV1 answered 503 at \S+ with Retry-After [12]; the next attempt came \d+\.\d{3} s later/,
    );
  });

  it("fails software that polls faster than 30 list requests in 60 seconds, though it waits each Retry-After", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["faults-and-cadence"], time_limit_seconds: 600 });
    await listPatiently(unit);
    // Then a poller without a pause: with the two 503s, its 30th list request keeps within the limit, its 31st not.
    for (let poll = 0; poll < 27; poll += 1) expect((await listOnce(unit)).status).toBe(200);
    expect(check(await read(unit, run.run_id), "faults-and-cadence").verdict).toBe("running");
    expect((await listOnce(unit)).status).toBe(200);
    const judged = check(await read(unit, run.run_id), "faults-and-cadence");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /^31 list requests within \d+\.\d{3} s, from \S+ \(observations 1 to 31\): at most 30 in any 60 seconds are allowed\.$/,
    );
    expect(judged.evidence.requests).toHaveLength(31);
  });

  it("is not exercised when the software lists nothing, and leaves the list alone once the run ended", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["faults-and-cadence"], time_limit_seconds: 60 });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "faults-and-cadence")).toMatchObject({
      verdict: "not_exercised",
      evidence: { found: "The software listed no notifications during the run." },
    });
    expect((await listOnce(unit)).status).toBe(200);
  });
});

const listed = (clockMs: number, status = 200, retryAfterSeconds: number | null = null) =>
  observed("listNotificationsV1", { clockMs, status, retryAfterSeconds });
/** `count` list requests answered 200, evenly from `fromMs` to `toMs`. */
const polls = (count: number, fromMs: number, toMs: number) =>
  Array.from({ length: count }, (_, index) => listed(fromMs + Math.floor(((toMs - fromMs) * index) / (count - 1))));
const faults = [listed(0, 503, 1), listed(1000, 503, 2)];

describe("the faults-and-cadence verdicts, on the unit's clock", () => {
  it.each([
    ["both faults waited for, then listed", [...faults, listed(3000)], true, "passed"],
    [
      "the same, version 0 after version 1",
      [...faults, observed("listNotificationsV0", { clockMs: 3000 })],
      true,
      "passed",
    ],
    ["the second fault retried too soon", [...faults, listed(2000)], false, "failed"],
    ["503s, never answered 200 after them", [...faults, listed(3000, 503, 1)], true, "failed"],
    ["30 polls in 59.999 s", [...faults, ...polls(28, 3000, 59_999)], true, "passed"],
    ["31 polls in 59.999 s", [...faults, ...polls(29, 3000, 59_999)], false, "failed"],
    ["31 polls, the first and last 60 s apart", [...faults, ...polls(29, 3000, 60_000)], true, "passed"],
    ["only 200s, at the end", [listed(0)], true, "not_exercised"],
    ["nothing listed, at the end", [], true, "not_exercised"],
    ["faults waited for, while the run goes on", [...faults, listed(3000)], false, "running"],
  ] as const)("%s", (_name, observations, ended, verdict) => {
    expect(faultsAndCadence.judge(factsOf([...observations], ended)).verdict).toBe(verdict);
  });

  it("are the rule the spec states: its faults and its polling rate", () => {
    const rule = RULES["faults-and-cadence"];
    expect(rule).toContain(
      `at most ${POLLING_LIMIT.requests} list requests in any ${POLLING_LIMIT.windowSeconds} seconds`,
    );
    expect(rule).toContain(
      `first two notification list requests 503 (code 503-01) after ${LIST_FAULTS[0]!.latencyMs} ms each`,
    );
    expect(LIST_FAULTS.map((fault) => fault.retryAfterSeconds)).toEqual([1, 2]);
    expect(rule).toContain("with Retry-After 1 then 2");
  });
});
