// Submitting through the client against a real gateway: the retry after SYSTEM_ERROR, with the same
// Idempotency-Key, creates a new application (the gateway releases the key of an application that failed so).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrap } from "../../src/index.js";
import { smallPdf, startGateway, submission, type Credentials, type RunningGateway } from "./gateway-support.js";

let gw: RunningGateway;
let unit: Credentials;

beforeAll(async () => {
  gw = await startGateway({ decisionDelayMs: 20 });
  unit = await gw.newBusinessUnit();
  await gw.settings({ processing: "automatic", duplicate_rate: 0, error_rate: 0, latency_ms: 0 });
});
afterAll(async () => {
  await gw?.stop();
});

describe("submitting through the client", () => {
  it("resubmits after SYSTEM_ERROR with the same key and answers the new application once the registry accepts it", async () => {
    const client = gw.client(unit);
    const { document_id: documentId } = await client.uploadDocument(smallPdf("system error"), { documentType: "TR1" });
    const scheduled = await unwrap(
      gw.sandbox.POST("/sandbox/v1/system-errors", {
        body: { business_unit_id: unit.business_unit_id ?? "", count: 1 },
      }),
    );
    expect(scheduled.pending).toBe(1);

    const decided = await client.applications.submitUntilDecided(submission(documentId, "CLIENT-IT-SYSTEM-ERROR"), {
      initialDelayMs: 20,
      maxDelayMs: 200,
      timeoutMs: 20_000,
    });
    expect(decided.attempts).toHaveLength(2);
    const [failed, retried] = decided.attempts;
    expect(retried).toBe(decided.application_request_id);
    expect(retried).not.toBe(failed);
    expect(decided.information.status).toBe("ACCEPTED_PRIORITY_PROTECTED");
    expect((await client.applications.information(failed ?? "")).status).toBe("SYSTEM_ERROR");

    // The key now names the accepted application: submitting the same body with it again is a replay.
    const replay = await client.applications.submit(submission(documentId, "CLIENT-IT-SYSTEM-ERROR"), {
      idempotencyKey: decided.idempotency_key,
    });
    expect(replay.application_request_id).toBe(retried);
  }, 30_000);

  it("submits once with a generated key when nothing fails", async () => {
    const client = gw.client(unit);
    const { document_id: documentId } = await client.uploadDocument(smallPdf("plain"), { documentType: "TR1" });
    const decided = await client.applications.submitUntilDecided(submission(documentId, "CLIENT-IT-PLAIN"), {
      initialDelayMs: 20,
      maxDelayMs: 200,
      timeoutMs: 20_000,
    });
    expect(decided.attempts).toEqual([decided.application_request_id]);
    expect(decided.information.status).toBe("ACCEPTED_PRIORITY_PROTECTED");
    expect(decided.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
  }, 30_000);
});
