import { describe, expect, it } from "vitest";
import { CLIENT_CERTIFICATE_REQUIRED } from "../../src/policies.js";
import { RULES } from "../../src/readiness/check.js";
import { deferredOfficialSearch } from "../../src/readiness/deferred-official-search.js";
import { MANUAL_PROCESSING_MS } from "../../src/title-enquiries/official-search.js";
import { factsOf, observed } from "./observations.js";
import { errorCodeOf } from "../support/conformance.js";
import { IN_SERVICE_HOURS } from "../title-enquiries/support.js";
import {
  allowTitleEnquiries,
  poll,
  retryAfter,
  search,
  setClock,
  setTitleSettings,
  waitRetryAfter,
  withClientCertificate,
} from "./pacing-support.js";
import { advance, check, newUnit, read, start, useTestGateway, type Unit } from "./support.js";

useTestGateway();

/** Fifteen minutes of manual processing, and some time to read the result after it. */
const TIME_LIMIT = 20 * 60;

/** The unit's first search of the run: deferred as manual processing, 15 minutes; answers its message_id. */
async function deferredSearch(unit: Unit): Promise<string> {
  const { answer, messageId } = await search(unit);
  expect(answer.status).toBe(202);
  expect(answer.body).toMatchObject({ data: { message_id: messageId, acknowledgement_code: "BG20001" } });
  expect(retryAfter(answer)).toBe(15 * 60);
  return messageId;
}

describe("the deferred-official-search check", () => {
  it("defers the run's first search, and passes software that polls from expected_response_at on and reads it", async () => {
    const unit = await newUnit();
    await allowTitleEnquiries(unit);
    const run = await start(unit, { checks: ["deferred-official-search"], time_limit_seconds: TIME_LIMIT });
    const instructions = check(run, "deferred-official-search").instructions;
    expect(instructions).toMatch(/^Make one official search of whole/);
    expect(instructions).toContain("(202, BG20001) with expected_response_at 15 minutes later");
    expect(instructions).toContain("require_client_certificate is false");

    const { answer: first, messageId } = await search(unit);
    expect(first.status).toBe(202);
    // Only the first: the run's second search is answered at once, as the clean title is outside the run.
    expect((await search(unit)).answer.status).toBe(201);
    expect(check(await read(unit, run.run_id), "deferred-official-search").verdict).toBe("running");

    await waitRetryAfter(unit, first);
    const result = await poll(unit, messageId);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ data: { message_id: messageId } });
    const judged = check(await read(unit, run.run_id), "deferred-official-search");
    expect(judged.verdict).toBe("passed");
    expect(judged.evidence.found).toMatch(
      new RegExp(`^Search ${messageId} was deferred until \\S+; its result was read at \\S+ \\(observation 3\\)\\.$`),
    );
    expect(judged.evidence.requests.map((r) => [r.operation_id, r.status, r.retry_after])).toEqual([
      ["officialSearchOfWhole", 202, 900],
      ["officialSearchOfWhole", 201, null],
      ["getPollRequest", 200, null],
    ]);
  });

  it("fails software that polls at once and again before expected_response_at, even if it reads the result later", async () => {
    const unit = await newUnit();
    await allowTitleEnquiries(unit);
    const run = await start(unit, { checks: ["deferred-official-search"], time_limit_seconds: TIME_LIMIT });
    const messageId = await deferredSearch(unit);
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await poll(unit, messageId)).status).toBe(202);
    await advance(unit, 15 * 60);
    expect((await poll(unit, messageId)).status).toBe(200);
    const judged = check(await read(unit, run.run_id), "deferred-official-search");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(/; it was polled 3 times before then \(first at \S+, answered 202\)\.$/);
    expect(judged.evidence.requests.map((r) => r.status)).toEqual([202, 202, 202, 202, 200]);
  });

  it("fails software that never reads the result, and is not exercised without a search", async () => {
    const [forgetful, idle] = [await newUnit(), await newUnit()];
    await Promise.all([allowTitleEnquiries(forgetful), allowTitleEnquiries(idle)]);
    const [forgetfulRun, idleRun] = [
      await start(forgetful, { checks: ["deferred-official-search"], time_limit_seconds: TIME_LIMIT }),
      await start(idle, { checks: ["deferred-official-search"], time_limit_seconds: TIME_LIMIT }),
    ];
    const messageId = await deferredSearch(forgetful);
    await Promise.all([advance(forgetful, TIME_LIMIT), advance(idle, TIME_LIMIT)]);
    expect(check(await read(forgetful, forgetfulRun.run_id), "deferred-official-search")).toMatchObject({
      verdict: "failed",
      evidence: { found: expect.stringMatching(new RegExp(`^Search ${messageId} .*; its result was never read\\.$`)) },
    });
    expect(check(await read(idle, idleRun.run_id), "deferred-official-search").verdict).toBe("not_exercised");
    // Once the run ended, a search is answered as any other.
    expect((await search(idle)).answer.status).toBe(201);
  });

  it("is not exercised when the result is due after the run's deadline", async () => {
    const unit = await newUnit();
    await allowTitleEnquiries(unit);
    const run = await start(unit, { checks: ["deferred-official-search"], time_limit_seconds: 60 });
    await deferredSearch(unit);
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "deferred-official-search");
    expect(judged.verdict).toBe("not_exercised");
    expect(judged.evidence.found).toMatch(/, at or after the run's deadline: it could not be read during the run\.$/);
  });
});

describe("the deferred-official-search check, where title enquiries need mutual TLS", () => {
  it("fails software that searches without its client certificate (403 BG40005), passes it with one, and is not exercised without a search", async () => {
    const [refusing, certified, idle] = [await newUnit(), await newUnit(), await newUnit()];
    for (const unit of [refusing, certified, idle]) {
      await setTitleSettings(unit, { require_client_certificate: true });
      await setClock(unit, IN_SERVICE_HOURS);
    }
    const [refusingRun, certifiedRun, idleRun] = [
      await start(refusing, { checks: ["deferred-official-search"], time_limit_seconds: TIME_LIMIT }),
      await start(certified, { checks: ["deferred-official-search"], time_limit_seconds: TIME_LIMIT }),
      await start(idle, { checks: ["deferred-official-search"], time_limit_seconds: TIME_LIMIT }),
    ];
    expect(check(refusingRun, "deferred-official-search").instructions).toContain(
      "require_client_certificate is true, as the registry has it: send these title enquiries over HTTPS with a " +
        "client certificate signed by the gateway's client CA",
    );

    const { answer: refused } = await search(refusing);
    expect(refused.status).toBe(403);
    expect(errorCodeOf(refused.body)).toMatchObject({ code: "BG40005" });
    const failed = check(await read(refusing, refusingRun.run_id), "deferred-official-search");
    expect(failed.verdict).toBe("failed");
    expect(failed.evidence.found).toMatch(
      /^Your software did not present its client certificate \(403 BG40005, mutual TLS\): officialSearchOfWhole was refused so at \S+\.$/,
    );
    expect(failed.evidence.requests.map((r) => [r.operation_id, r.status, r.answer_code])).toEqual([
      ["officialSearchOfWhole", 403, "BG40005"],
    ]);

    const { answer: accepted, messageId } = await search(certified, withClientCertificate);
    expect(accepted.status).toBe(202);
    await waitRetryAfter(certified, accepted);
    expect((await poll(certified, messageId, withClientCertificate)).status).toBe(200);

    await Promise.all([advance(refusing, TIME_LIMIT), advance(certified, TIME_LIMIT), advance(idle, TIME_LIMIT)]);
    expect(check(await read(refusing, refusingRun.run_id), "deferred-official-search").verdict).toBe("failed");
    expect(check(await read(certified, certifiedRun.run_id), "deferred-official-search").verdict).toBe("passed");
    expect(check(await read(idle, idleRun.run_id), "deferred-official-search")).toMatchObject({
      verdict: "not_exercised",
      evidence: { found: "The software made no official search that the registry accepted during the run." },
    });
  });
});

/** 23:30 London time (summer time): the service hours resume at 06:30, seven hours later. */
const OUT_OF_SERVICE_HOURS = "2025-04-01T22:30:00.000Z";
const NEXT_OPENING = "2025-04-02T05:30:00.000Z";

describe("the deferred-official-search instructions, outside the service hours", () => {
  it("say the search is deferred until they resume (BG20002, the real wait), past a one-hour deadline, and how to move the clock", async () => {
    const unit = await newUnit();
    await setTitleSettings(unit, { require_client_certificate: false });
    await setClock(unit, OUT_OF_SERVICE_HOURS);
    const run = await start(unit, { checks: ["deferred-official-search"], time_limit_seconds: 3600 });
    const instructions = check(run, "deferred-official-search").instructions;
    expect(instructions).toContain(
      `(202, BG20002) until they resume: expected_response_at ${NEXT_OPENING}, Retry-After 25200 seconds, past the ` +
        "run's deadline: the check would end not exercised.",
    );
    expect(instructions).toContain("PUT /sandbox/v1/clock");
    expect(instructions).not.toMatch(/BG20001|15 minutes/);

    // As the run answers it.
    const { answer } = await search(unit);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      data: { acknowledgement_code: "BG20002", expected_response_at: NEXT_OPENING },
    });
    // Seven hours from the clock set above, less the seconds this test took since (a loaded machine is slow).
    expect(retryAfter(answer)).toBeGreaterThan(25_200 - 60);
    expect(retryAfter(answer)).toBeLessThanOrEqual(25_200);
  });

  it("say when the result is due when the run's deadline is past the opening", async () => {
    const unit = await newUnit();
    await setTitleSettings(unit, { require_client_certificate: false });
    await setClock(unit, OUT_OF_SERVICE_HOURS);
    const run = await start(unit, { checks: ["deferred-official-search"], time_limit_seconds: 8 * 3600 });
    const instructions = check(run, "deferred-official-search").instructions;
    expect(instructions).toContain(
      `the run defers it (202, BG20002) until they resume: expected_response_at ${NEXT_OPENING}, Retry-After 25200 ` +
        "seconds; fetch its result",
    );
    expect(instructions).not.toContain("not exercised");
  });
});

const deferred = { runId: "run", messageId: "m-1", deferredMs: 0, readyMs: 900_000, deadlineMs: 1_200_000 };
const searched = observed("officialSearchOfWhole", { method: "POST", status: 202, retryAfterSeconds: 900 });
const polled = (messageId: string, status: number, clockMs: number, answerCode: string | null = null) =>
  observed("getPollRequest", { pathParameters: { message_id: messageId }, status, clockMs, answerCode });
const refusedSearch = observed("officialSearchOfWhole", { method: "POST", status: 403, answerCode: "BG40005" });

describe("the deferred-official-search verdicts", () => {
  it.each([
    ["read once due", [searched, polled("m-1", 200, 900_000)], false, deferred, "passed"],
    [
      "polled before it was due",
      [searched, polled("m-1", 202, 1), polled("m-1", 200, 900_000)],
      false,
      deferred,
      "failed",
    ],
    [
      "another search polled early",
      [searched, polled("m-2", 202, 1), polled("m-1", 200, 900_000)],
      false,
      deferred,
      "passed",
    ],
    ["not read yet", [searched], false, deferred, "running"],
    ["never read", [searched], true, deferred, "failed"],
    ["due at the deadline", [searched], true, { ...deferred, readyMs: 1_200_000 }, "not_exercised"],
    ["no search deferred", [], true, undefined, "not_exercised"],
    ["a search refused 403 BG40005 (no client certificate)", [refusedSearch], false, undefined, "failed"],
    [
      "a poll refused 403 BG40005, the result read after",
      [searched, polled("m-1", 403, 900_000, "BG40005"), polled("m-1", 200, 900_001)],
      false,
      deferred,
      "failed",
    ],
  ] as const)("%s", (_name, observations, ended, deferredSearch, verdict) => {
    expect(deferredOfficialSearch.judge(factsOf([...observations], ended, { deferredSearch })).verdict).toBe(verdict);
  });

  it("are the rule the spec states: the deferral of manual processing, or out of the service hours", () => {
    expect(RULES["deferred-official-search"]).toContain(
      `expected_response_at ${MANUAL_PROCESSING_MS / 60_000} minutes after it`,
    );
    expect(RULES["deferred-official-search"]).toContain("or out of the service hours until they resume (202 BG20002)");
    expect(RULES["deferred-official-search"]).toContain(
      `A search or poll refused 403 ${CLIENT_CERTIFICATE_REQUIRED} (no client certificate) fails`,
    );
  });
});
