import { describe, expect, it } from "vitest";
import { systemError } from "../../src/readiness/system-error.js";
import { idempotencyKey, submission } from "../support/gateway.js";
import {
  acknowledge,
  advance,
  applicationCount,
  check,
  handMadeSubmissions,
  information,
  list,
  newUnit,
  read,
  start,
  submitRetrying,
  submitWith,
  useTestGateway,
  type Unit,
} from "./support.js";

useTestGateway();

/**
 * The unit's software: submits with a key it keeps per application, and consumes the notifications: reads the
 * information of an application that failed validation and, when `resubmit`, submits an application that ended in
 * SYSTEM_ERROR again with its key (released by the gateway), retrying a lost answer with it; acknowledges every id.
 */
function software(unit: Unit, options: { resubmit: boolean }) {
  const keys = new Map<string, string>();
  return {
    submit: async (): Promise<string> => {
      const key = idempotencyKey();
      const id = await submitRetrying(unit, key);
      keys.set(id, key);
      return id;
    },
    /** Consumes one page of notifications; answers the applications submitted again. */
    consume: async (): Promise<string[]> => {
      const page = await list(unit);
      const again: string[] = [];
      for (const n of page) {
        if (n.notification_type === "application.validation-failed") await information(unit, n.subject);
        if (n.notification_type === "application.error" && options.resubmit) {
          const key = keys.get(n.subject)!;
          const id = await submitRetrying(unit, key);
          keys.set(id, key);
          again.push(id);
        }
      }
      expect(
        await acknowledge(
          unit,
          page.map((n) => n.notification_id),
        ),
      ).toBe(200);
      return again;
    },
  };
}

describe("the system-error check", () => {
  it("ends the run's first submission in SYSTEM_ERROR, and passes a client that submits again", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["system-error"], time_limit_seconds: 60 });
    expect(check(run, "system-error").instructions).toMatch(
      /^Submit one application .* the run's first submission: the sandbox answers it 202, then ends it in SYSTEM_ERROR/,
    );

    const client = software(unit, { resubmit: true });
    const failed = await client.submit();
    expect(await information(unit, failed)).toMatchObject({ status: "SYSTEM_ERROR" });
    expect((await list(unit)).filter((n) => n.subject === failed).map((n) => n.notification_type)).toContain(
      "application.error",
    );
    expect(check(await read(unit, run.run_id), "system-error").verdict).toBe("running");

    // The gateway released the failed application's key: the same key now makes a new application.
    const [again] = await client.consume();
    expect(again).toBeDefined();
    expect(again).not.toBe(failed);
    expect((await information(unit, again!)).status).not.toBe("SYSTEM_ERROR");
    expect(await applicationCount(unit)).toBe(2);

    const passed = check(await read(unit, run.run_id), "system-error");
    expect(passed.verdict).toBe("passed");
    expect(passed.evidence.found).toMatch(
      new RegExp(
        `^Application ${failed} \\(REGISTER_UPDATE "CASE-1", titles AB12345\\) ended in SYSTEM_ERROR \\(observation \\d+\\); the software submitted it again`,
      ),
    );
    const submissions = passed.evidence.requests.filter((r) => r.operation_id === "submitApplication");
    expect(submissions.map((r) => r.status)).toEqual([202, 202]);
    expect(new Set(submissions.map((r) => r.idempotency_key)).size).toBe(1);
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "system-error").verdict).toBe("passed");
  });

  it("fails a client that acknowledges application.error and does nothing", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["system-error"], time_limit_seconds: 60 });
    const client = software(unit, { resubmit: false });
    const failed = await client.submit();
    expect(await client.consume()).toEqual([]);
    expect(check(await read(unit, run.run_id), "system-error").verdict).toBe("running");
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.verdict).toBe("failed");
    const judged = check(finished, "system-error");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      new RegExp(
        `^Application ${failed} \\(REGISTER_UPDATE "CASE-1", titles AB12345\\) ended in SYSTEM_ERROR \\(observation \\d+\\); the same application was not submitted again\\.$`,
      ),
    );
    expect(judged.evidence.requests.map((r) => [r.operation_id, r.status])).toEqual([["submitApplication", 202]]);
  });

  it("fails a client whose only later submission is another application (another title), naming both", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["system-error"], time_limit_seconds: 60 });
    const failed = await software(unit, { resubmit: false }).submit();
    expect(await information(unit, failed)).toMatchObject({ status: "SYSTEM_ERROR" });
    // A later, unrelated application: another case on another title, answered 202.
    const other = await submitWith(
      unit,
      idempotencyKey(),
      submission({ customer_reference: "CASE-2", titles: { "title-1": { title_number: "CD67890" } } }),
    );
    expect(other).toMatchObject({ status: 202 });
    expect(check(await read(unit, run.run_id), "system-error").verdict).toBe("running");
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "system-error");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /\(REGISTER_UPDATE "CASE-1", titles AB12345\) ended in SYSTEM_ERROR .*the same application was not submitted again; its later submission \(observation \d+\) was another case \(REGISTER_UPDATE "CASE-2", titles CD67890\), not a resubmission\.$/,
    );
    const submissions = judged.evidence.requests.filter((r) => r.operation_id === "submitApplication");
    expect(submissions.map((r) => r.submission_case?.customer_reference)).toEqual(["CASE-1", "CASE-2"]);
  });

  it("is not exercised when the software submits nothing, and fails no submission once the run ended", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["system-error"], time_limit_seconds: 60 });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "system-error").verdict).toBe("not_exercised");
    const after = await software(unit, { resubmit: true }).submit();
    expect((await information(unit, after)).status).not.toBe("SYSTEM_ERROR");
  });
});

describe("the checks that take the unit's submissions, together", () => {
  const checks = ["validation-failed", "system-error", "lost-answer"];

  it("take the run's first, second and third submissions; a correct client passes all three", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks, time_limit_seconds: 60 });
    const order = "(it takes 3, in this order: validation-failed, system-error, lost-answer)";
    for (const [name, place] of [
      ["validation-failed", "first"],
      ["system-error", "second"],
      ["lost-answer", "third"],
    ] as const)
      expect(check(run, name).instructions).toContain(`the run's ${place} submission ${order}`);

    const client = software(unit, { resubmit: true });
    const invalid = await client.submit();
    const failed = await client.submit();
    expect((await information(unit, invalid)).status).toBe("VALIDATION_FAILED");
    expect((await information(unit, failed)).status).toBe("SYSTEM_ERROR");
    // Its resubmission after the SYSTEM_ERROR is the run's third submission: its answer is lost, and retried.
    const [again] = await client.consume();
    expect(again).not.toBe(failed);
    expect(await applicationCount(unit)).toBe(3);

    const during = await read(unit, run.run_id);
    expect(during.checks.map((c) => [c.name, c.verdict])).toEqual([
      ["validation-failed", "passed"],
      ["system-error", "passed"],
      ["lost-answer", "passed"],
    ]);
    expect(check(during, "system-error").evidence.found).toMatch(/stored, its answer lost for the lost-answer check/);
    await advance(unit, 60);
    expect((await read(unit, run.run_id)).verdict).toBe("passed");
  });

  it("fail exactly system-error for a client that does nothing on application.error", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks, time_limit_seconds: 60 });
    const client = software(unit, { resubmit: false });
    await client.submit();
    await client.submit();
    await client.consume();
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.checks.map((c) => [c.name, c.verdict])).toEqual([
      ["validation-failed", "passed"],
      ["system-error", "failed"],
      ["lost-answer", "not_exercised"],
    ]);
  });
});

describe("the system-error check's verdict, from hand-made observations", () => {
  const failed = { applicationId: "a-1", idempotencyKey: "k-1", takenMs: 1000 };
  const { submission, facts } = handMadeSubmissions("system-error", failed);
  it.each([
    ["again with the released key", () => [submission("k-1", 202), submission("k-1", 202)], false, "passed"],
    ["again with a new key", () => [submission("k-1", 202), submission("k-2", 202)], false, "passed"],
    ["again, its answer lost (444)", () => [submission("k-1", 202), submission("k-1", 444)], false, "passed"],
    [
      "again, refused (400), while the run goes on",
      () => [submission("k-1", 202), submission("k-2", 400)],
      false,
      "running",
    ],
    ["again, refused (400), at the end", () => [submission("k-1", 202), submission("k-2", 400)], true, "failed"],
    ["nothing after it, at the end", () => [submission("k-1", 202)], true, "failed"],
    [
      "a submission before it does not count",
      () => [submission("k-2", 202, 500), submission("k-1", 202)],
      true,
      "failed",
    ],
    ["its observation missing (over the bound), one later", () => [submission("k-2", 202, 3000)], true, "passed"],
  ] as const)("%s", (_name, observations, ended, verdict) => {
    expect(systemError.judge(facts([...observations()], ended)).verdict).toBe(verdict);
  });
  it("is not exercised when no submission was taken", () => {
    const judged = systemError.judge({ ...facts([], true), submissions: {} });
    expect(judged.verdict).toBe("not_exercised");
  });
});
