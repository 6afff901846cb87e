// The client's submission helper and notification consumer against a real gateway's readiness run: the run ends the
// software's first submission in SYSTEM_ERROR and loses the answer of its second; a consumer built on
// notifications.consume submits again on application.error, and the client retries the lost answer with the same
// Idempotency-Key, so both checks pass and exactly one application exists for the key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSandboxClient,
  unwrap,
  type GatewayClient,
  type RetryEvent,
  type SandboxClient,
  type SandboxComponents,
} from "../../src/index.js";
import { smallPdf, startGateway, submission, type Credentials, type RunningGateway } from "./gateway-support.js";

type Run = SandboxComponents["schemas"]["ReadinessRun"];

let gw: RunningGateway;
let unit: Credentials & { business_unit_id: string };
/** The control plane as the unit itself (its own token): its runs, its clock. */
let control: SandboxClient;

beforeAll(async () => {
  gw = await startGateway({ decisionDelayMs: 20 });
  const created = await unwrap(gw.sandbox.POST("/sandbox/v1/business-units", { body: { name: "Readiness" } }));
  unit = { username: created.username, password: created.password, business_unit_id: created.business_unit_id };
  control = createSandboxClient({ baseUrl: gw.url, token: created.sandbox_token, fetch: gw.fetch });
  await unwrap(control.PUT("/sandbox/v1/settings", { body: { duplicate_rate: 0 } }));
});
afterAll(async () => {
  await gw?.stop();
});

const verdicts = (run: Run) => run.checks.map((check) => [check.name, check.verdict, check.evidence.found]);

/**
 * The integrator's software: submits through the client's helper, keeping each application's key, and consumes its
 * notifications, submitting an application that ended in SYSTEM_ERROR again with its key.
 */
function software(client: GatewayClient, documentId: string) {
  const keys = new Map<string, string>();
  const submit = async (key?: string) => {
    const submitted = await client.applications.submit(
      submission(documentId, "CLIENT-IT-READINESS"),
      key === undefined ? {} : { idempotencyKey: key },
    );
    keys.set(submitted.application_request_id, submitted.idempotency_key);
    return submitted;
  };
  const resubmitted: string[] = [];
  const consume = () =>
    client.notifications.consume(async ({ notification }) => {
      if (notification.notification_type !== "application.error") return;
      const again = await submit(keys.get(notification.subject));
      resubmitted.push(again.application_request_id);
    });
  return { submit, consume, resubmitted };
}

describe("a readiness run's submission checks through the client", () => {
  it("pass: the consumer submits again after SYSTEM_ERROR, and the client retries the lost answer with the same key", async () => {
    const retries: RetryEvent[] = [];
    // The client's defaults: a POST with an Idempotency-Key is retried on a network failure, with the same key.
    const client = gw.client(unit, { onRetry: (event) => retries.push(event) });
    const { document_id: documentId } = await client.uploadDocument(smallPdf("readiness"), { documentType: "TR1" });
    const run = await unwrap(
      control.POST("/sandbox/v1/readiness-runs", {
        body: { checks: ["system-error", "lost-answer"], time_limit_seconds: 600 },
      }),
    );
    for (const check of run.checks) expect(check.instructions).toMatch(/^Submit one application from your software/);

    const app = software(client, documentId);
    const failed = await app.submit();
    expect((await client.applications.information(failed.application_request_id)).status).toBe("SYSTEM_ERROR");
    await app.consume();

    // The resubmission was the run's second submission: stored, its answer lost, retried by the client with its key.
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ method: "POST", attempt: 1 });
    expect(retries[0]?.url).toMatch(/\/v0\/applications$/);
    const [again] = app.resubmitted;
    expect(again).toBeDefined();
    expect(again).not.toBe(failed.application_request_id);
    // Exactly one application for the key: the same body with it again answers the same one.
    const replay = await client.applications.submit(submission(documentId, "CLIENT-IT-READINESS"), {
      idempotencyKey: failed.idempotency_key,
    });
    expect(replay.application_request_id).toBe(again);

    const during = await unwrap(
      control.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: run.run_id } } }),
    );
    expect(verdicts(during)).toEqual([
      [
        "system-error",
        "passed",
        expect.stringMatching(/; the software submitted it again \(observation \d+, stored, its answer lost/),
      ],
      ["lost-answer", "passed", expect.stringMatching(/; the software retried with the same Idempotency-Key/)],
    ]);
    const lost = during.checks[1]?.evidence.requests ?? [];
    expect(lost.map((request) => [request.status, request.idempotency_key])).toEqual([
      [444, failed.idempotency_key],
      [202, failed.idempotency_key],
      [202, failed.idempotency_key],
    ]);

    await unwrap(control.POST("/sandbox/v1/clock/advance", { body: { seconds: 600 } }));
    const finished = await unwrap(
      control.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: run.run_id } } }),
    );
    expect(finished).toMatchObject({ status: "finished", verdict: "passed" });
  }, 30_000);
});
