// The client through a database restart: the gateway answers 503-02 with Retry-After while PostgreSQL is away, and
// the client's retries carry every call through, the submission with its one Idempotency-Key.
import { setTimeout as sleep } from "node:timers/promises";
import { startPostgres, type TestPostgres } from "@lrg/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RetryEvent } from "../../src/index.js";
import { smallPdf, startGateway, submission, type RunningGateway } from "./gateway-support.js";

let postgres: TestPostgres;
let gw: RunningGateway;
beforeAll(async () => {
  postgres = await startPostgres();
  gw = await startGateway({ databaseUrl: await postgres.createDatabase() });
});
afterAll(async () => {
  await gw?.stop();
  await postgres?.stop();
});

describe("a PostgreSQL restart", () => {
  it("is carried through by the client's retries of the 503-02 answers", async () => {
    const retries: RetryEvent[] = [];
    const client = gw.client(gw.demo, {
      retry: { attempts: 30, baseDelayMs: 50, maxDelayMs: 500 },
      onRetry: (event) => retries.push(event),
    });
    const { document_id: documentId } = await client.uploadDocument(smallPdf("outage"), { documentType: "TR1" });
    const restarted = postgres.restart(1_500);
    await sleep(200);
    // While the database is down: each call is answered only once it is back.
    const submitted = await client.applications.submit(submission(documentId, "CLIENT-IT-OUTAGE"));
    const listed = [];
    for await (const notification of client.notifications.listAll({ status: "NEW" })) listed.push(notification);
    await restarted;
    expect(submitted.application_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(retries.some((event) => event.status === 503)).toBe(true);
    expect((await client.applications.information(submitted.application_request_id)).status).toBeDefined();
  });
});
