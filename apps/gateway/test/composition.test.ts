// createServer's Composition: a gateway composed with `readiness: false` is the one the benchmarks measure what
// readiness costs against. Its runs can be started, and never step into a request: their hook points are not the
// gateway's.
import { afterEach, describe, expect, it } from "vitest";
import { basic, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";

let started: TestGateway | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

/** A unit of `gateway` under a lost-answer run: its first submission is stored and its answer never sent. */
async function unitUnderLostAnswerRun(gateway: TestGateway): Promise<{ unit: Credentials; runId: string }> {
  const unit = await gateway.newBusinessUnit();
  const run = await gateway.control(unit.sandbox_token ?? "", "POST", "/sandbox/v1/readiness-runs", {
    checks: ["lost-answer"],
    time_limit_seconds: 600,
  });
  expect(run.status, JSON.stringify(run.body)).toBe(201);
  return { unit, runId: (run.body as { run_id: string }).run_id };
}

/** Submits once as a plain HTTP client: the status, or "lost" when the connection closed unanswered. */
async function submitOnce(gateway: TestGateway, unit: Credentials): Promise<number | "lost"> {
  try {
    const response = await fetch(`${gateway.url}/v0/applications`, {
      method: "POST",
      headers: { authorization: basic(unit), "content-type": "application/json", "idempotency-key": "composition-1" },
      body: JSON.stringify(submission()),
    });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    if (error instanceof TypeError) return "lost"; // fetch's "fetch failed": the connection closed unanswered
    throw error;
  }
}

/** How many observations the run recorded. */
async function recorded(gateway: TestGateway, unit: Credentials, runId: string): Promise<number> {
  const run = await gateway.control(unit.sandbox_token ?? "", "GET", `/sandbox/v1/readiness-runs/${runId}`);
  expect(run.status).toBe(200);
  return (run.body as { observations: { recorded: number } }).observations.recorded;
}

describe("a gateway composed without readiness", () => {
  it("loses the answer a lost-answer run takes, when composed as deployed", async () => {
    started = await startGateway();
    const { unit, runId } = await unitUnderLostAnswerRun(started);
    expect(await submitOnce(started, unit)).toBe("lost");
    await expect.poll(() => recorded(started!, unit, runId), { timeout: 20_000 }).toBeGreaterThan(0);
  });

  it("answers that submission when composed with readiness: false", async () => {
    started = await startGateway({ composition: { readiness: false } });
    const { unit } = await unitUnderLostAnswerRun(started);
    expect(await submitOnce(started, unit)).toBe(202);
  });
});
