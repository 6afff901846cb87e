import { describe, expect, it } from "vitest";
import {
  advance,
  check,
  correctConsumer,
  information,
  newUnit,
  onePageConsumer,
  read,
  start,
  submit,
  useTestGateway,
} from "./support.js";

useTestGateway();

describe("the validation-failed check", () => {
  it("fails the unit's first submission of the run only, and passes a client that reads its information", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["validation-failed"], time_limit_seconds: 60 });
    expect(check(run, "validation-failed").instructions).toMatch(/^Submit one application/);

    const failed = await submit(unit);
    expect(await information(unit, failed)).toMatchObject({
      status: "VALIDATION_FAILED",
      errors: [{ type: "readiness-validation-failed" }],
    });
    // The run fails one submission: the next is validated as any other (here it stays VALIDATING until decided).
    const second = await submit(unit);
    expect((await information(unit, second)).errors.map((e) => e.type)).not.toContain("readiness-validation-failed");

    await correctConsumer(unit);
    const during = check(await read(unit, run.run_id), "validation-failed");
    expect(during.verdict).toBe("passed");
    expect(during.evidence.requests.map((r) => r.operation_id)).toContain("getApplicationInformation");
    expect(
      during.evidence.requests.find((r) => r.operation_id === "getApplicationInformation")?.path_parameters,
    ).toEqual({ id: failed });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "validation-failed").verdict).toBe("passed");
  });

  it("fails a client that acknowledges application.validation-failed without reading the information", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["validation-failed"], time_limit_seconds: 60 });
    const failed = await submit(unit);
    await onePageConsumer(unit);
    expect(check(await read(unit, run.run_id), "validation-failed").verdict).toBe("running");
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.verdict).toBe("failed");
    const judged = check(finished, "validation-failed");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toBe(`Application ${failed} failed validation; its information was not read.`);
    expect(judged.evidence.requests.map((r) => r.operation_id)).toEqual(["submitApplication"]);
  });

  it("is not exercised when the software submits nothing, and leaves submissions alone once the run ended", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["validation-failed"], time_limit_seconds: 60 });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "validation-failed").verdict).toBe("not_exercised");
    const after = await submit(unit);
    expect((await information(unit, after)).errors.map((e) => e.type)).not.toContain("readiness-validation-failed");
  });
});
