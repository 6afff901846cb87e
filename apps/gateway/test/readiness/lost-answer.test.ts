import { describe, expect, it } from "vitest";
import { lostAnswer } from "../../src/readiness/lost-answer.js";
import { idempotencyKey, submission } from "../support/gateway.js";
import {
  advance,
  applicationCount,
  check,
  handMadeSubmissions,
  information,
  newUnit,
  read,
  start,
  submitRetrying,
  submitWith,
  useTestGateway,
  type Run,
} from "./support.js";

useTestGateway();

/** The application the run stored and lost the answer of, as its evidence names it. */
const lostApplication = (run: Run): string => {
  const found = /^Application ([0-9a-f-]{36}) was stored and its answer lost/.exec(
    check(run, "lost-answer").evidence.found,
  );
  if (!found?.[1]) throw new Error(`no lost application in ${check(run, "lost-answer").evidence.found}`);
  return found[1];
};

describe("the lost-answer check", () => {
  it("stores the run's first submission, loses its answer, and passes a client that retries with the same key", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["lost-answer"], time_limit_seconds: 60 });
    expect(check(run, "lost-answer").instructions).toMatch(
      /^Submit one application .* the run's first submission: the sandbox stores it, then closes the connection .* same Idempotency-Key/,
    );

    const key = idempotencyKey();
    expect(await submitWith(unit, key)).toBe("lost");
    const during = await read(unit, run.run_id);
    expect(check(during, "lost-answer").verdict).toBe("running");
    const stored = lostApplication(during);
    // Stored before its answer was lost: its information is there, the one application of the unit (already decided
    // by the registry on a slow machine: its document was never uploaded).
    expect((await information(unit, stored)).status).toMatch(/^(VALIDATING|ACCEPTED_|VALIDATION_FAILED)/);
    expect(await applicationCount(unit)).toBe(1);

    // The gateway replays the stored application for the same key: the retry is answered with it.
    expect(await submitRetrying(unit, key)).toBe(stored);
    expect(await applicationCount(unit)).toBe(1);
    const passed = check(await read(unit, run.run_id), "lost-answer");
    expect(passed.verdict).toBe("passed");
    expect(passed.evidence.found).toMatch(/retried with the same Idempotency-Key \(observation \d+\), answered 202/);
    expect(passed.evidence.requests.map((r) => [r.operation_id, r.status, r.idempotency_key])).toEqual([
      ["submitApplication", 444, key],
      ["submitApplication", 202, key],
    ]);

    // One answer is lost a run: the next submission is answered as any other.
    expect(await submitWith(unit, idempotencyKey())).toMatchObject({ status: 202 });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "lost-answer").verdict).toBe("passed");
  });

  it("fails a client that retries with the same key but a changed body, naming the 409 and not a later submission", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["lost-answer"], time_limit_seconds: 60 });
    const key = idempotencyKey();
    expect(await submitWith(unit, key)).toBe("lost");
    // The retry rebuilds the body (a new customer reference): the gateway keeps the first body for the key.
    expect(await submitWith(unit, key, submission({ customer_reference: "CASE-1-RETRY" }))).toMatchObject({
      status: 409,
    });
    // Then, giving up, it submits the application under a new key: the failure is still the 409's.
    expect(await submitWith(unit, idempotencyKey())).toMatchObject({ status: 202 });
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "lost-answer");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /its retry with the same Idempotency-Key \(observation 2\) was answered 409 409-01: .*so a retry must resend the same request/,
    );
    expect(judged.evidence.requests.map((r) => [r.status, r.answer_code])).toEqual([
      [444, null],
      [409, "409-01"],
      [202, null],
    ]);
  });

  it("fails a client that retries with a new Idempotency-Key: two applications", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["lost-answer"], time_limit_seconds: 60 });
    const first = idempotencyKey();
    expect(await submitWith(unit, first)).toBe("lost");
    const retried = await submitWith(unit, idempotencyKey());
    expect(retried).toMatchObject({ status: 202 });
    const judged = check(await read(unit, run.run_id), "lost-answer");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /next application came under another Idempotency-Key .*: a second application\.$/,
    );
    expect(judged.evidence.requests.map((r) => r.status)).toEqual([444, 202]);
    expect(await applicationCount(unit)).toBe(2);
    // A retry with the first key afterwards does not undo the second application.
    expect(await submitWith(unit, first)).toMatchObject({ status: 202 });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "lost-answer").verdict).toBe("failed");
  });

  it("fails a client that never retries", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["lost-answer"], time_limit_seconds: 60 });
    expect(await submitWith(unit, idempotencyKey())).toBe("lost");
    expect(check(await read(unit, run.run_id), "lost-answer").verdict).toBe("running");
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.verdict).toBe("failed");
    const judged = check(finished, "lost-answer");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(/did not retry it with the same Idempotency-Key\.$/);
    expect(judged.evidence.requests.map((r) => r.status)).toEqual([444]);
  });

  it("is not exercised when the software submits nothing, and loses no answer once the run ended", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["lost-answer"], time_limit_seconds: 60 });
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "lost-answer");
    expect(judged.verdict).toBe("not_exercised");
    expect(judged.evidence.found).toBe("No application of the unit was submitted for this check during the run.");
    expect(await submitWith(unit, idempotencyKey())).toMatchObject({ status: 202 });
  });

  it("takes one submission of four sent at once, as each check of the run takes one", async () => {
    const unit = await newUnit();
    const run = await start(unit, {
      checks: ["validation-failed", "system-error", "lost-answer"],
      time_limit_seconds: 60,
    });
    const answers = await Promise.all([1, 2, 3, 4].map(() => submitWith(unit, idempotencyKey())));
    expect(answers.filter((answer) => answer === "lost")).toHaveLength(1);
    const answered = answers.flatMap((answer) => (answer === "lost" ? [] : [answer.id!]));
    const statuses = await Promise.all(answered.map(async (id) => (await information(unit, id)).status));
    expect(statuses.filter((status) => status === "VALIDATION_FAILED")).toHaveLength(1);
    expect(statuses.filter((status) => status === "SYSTEM_ERROR")).toHaveLength(1);
    const stored = lostApplication(await read(unit, run.run_id));
    expect(answered).not.toContain(stored);
    expect(await applicationCount(unit)).toBe(4);
  });
});

describe("the lost-answer check's verdict, from hand-made observations", () => {
  const stored = { applicationId: "a-1", idempotencyKey: "k-1", takenMs: 1000 };
  const { submission, facts } = handMadeSubmissions("lost-answer", stored);
  it.each([
    ["the same key, answered 202", () => [submission("k-1", 444), submission("k-1", 202)], false, "passed"],
    [
      "a same-key retry refused, then answered",
      () => [submission("k-1", 444), submission("k-1", 503), submission("k-1", 202)],
      true,
      "passed",
    ],
    [
      "a new key first",
      () => [submission("k-1", 444), submission("k-2", 202), submission("k-1", 202)],
      false,
      "failed",
    ],
    [
      "the retry, then another application",
      () => [submission("k-1", 444), submission("k-1", 202), submission("k-2", 202)],
      true,
      "passed",
    ],
    [
      "another key refused, then the same key",
      () => [submission("k-1", 444), submission("k-2", 400), submission("k-1", 202)],
      true,
      "passed",
    ],
    ["the same key with another body (409)", () => [submission("k-1", 444), submission("k-1", 409)], true, "failed"],
    ["no retry, while the run goes on", () => [submission("k-1", 444)], false, "running"],
    ["no retry, at the end", () => [submission("k-1", 444)], true, "failed"],
    ["its observation missing (over the bound), a retry later", () => [submission("k-1", 202, 3000)], true, "passed"],
    [
      "a submission before the one taken does not count",
      () => [submission("k-1", 202, 500), submission("k-1", 444)],
      true,
      "failed",
    ],
  ] as const)("%s", (_name, observations, ended, verdict) => {
    expect(lostAnswer.judge(facts([...observations()], ended)).verdict).toBe(verdict);
  });
});
