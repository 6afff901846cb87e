// A whole integration through the client against a real gateway: send a document, submit an application that
// names it, let the simulated registry accept it, raise correspondence, consume the notifications (each event
// once although every one is delivered twice) and download the correspondence.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrap, type NotificationV1 } from "../../src/index.js";
import {
  sha256Hex,
  smallPdf,
  startGateway,
  submission,
  type Credentials,
  type RunningGateway,
} from "./gateway-support.js";

let gw: RunningGateway;
let unit: Credentials;
let workDir: string;

beforeAll(async () => {
  gw = await startGateway({ decisionDelayMs: 50 });
  unit = await gw.newBusinessUnit();
  workDir = mkdtempSync(join(tmpdir(), "lrg-client-flow-"));
});
afterAll(async () => {
  await gw?.stop();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

describe("a full flow through the client", () => {
  it("uploads, submits, is accepted, receives correspondence, consumes each event once and downloads it", async () => {
    await gw.settings({ processing: "automatic", duplicate_rate: 1, error_rate: 0, latency_ms: 0 });
    const client = gw.client(unit);

    const { document_id: documentId } = await client.uploadDocument(smallPdf("flow"), { documentType: "TR1" });

    const key = `client-it-flow-${randomUUID()}`;
    const body = submission(documentId, "CLIENT-IT-FLOW");
    const submitted = await client.POST("/v0/applications", { params: { header: { "Idempotency-Key": key } }, body });
    expect(submitted.response.status).toBe(202);
    const applicationId = submitted.data?.data.application_request_id ?? "";
    expect(applicationId).toMatch(/^[0-9a-f-]{36}$/);
    // The same key and body again: the same application, not a second one.
    const repeated = await unwrap(
      client.POST("/v0/applications", { params: { header: { "Idempotency-Key": key } }, body }),
    );
    expect(repeated.data.application_request_id).toBe(applicationId);

    const status = async () =>
      (await unwrap(client.GET("/v0/applications/{id}/information", { params: { path: { id: applicationId } } }))).data
        .status;
    await expect.poll(status, { timeout: 10_000, interval: 100 }).toBe("ACCEPTED_PRIORITY_PROTECTED");

    const raised = await unwrap(
      gw.sandbox.POST("/sandbox/v1/applications/{id}/correspondence", {
        params: { path: { id: applicationId } },
        body: { documents: ["LTR", "OCR"] },
      }),
    );
    expect(raised.documents).toHaveLength(2);
    expect(raised.notifications.map((notification) => notification.duplicate)).toEqual([false, true]);

    const calls = new Map<string, number>();
    const deliveries: { type: string; ids: string[] }[] = [];
    const downloads: { downloadId: string; sha256: string; bytes: number }[] = [];
    const summary = await client.notifications.consume(async ({ key: eventKey, notification, notifications }) => {
      calls.set(eventKey, (calls.get(eventKey) ?? 0) + 1);
      deliveries.push({ type: notification.notification_type, ids: notifications.map((each) => each.notification_id) });
      if (notification.notification_type === "application.correspondence-despatched") {
        expect(notification.payload.data.application_request_id).toBe(applicationId);
        for (const document of notification.payload.data.documents) {
          const path = join(workDir, `${document.download_id}.pdf`);
          const saved = await client.downloadDocument(document.download_id, { to: path });
          const content = readFileSync(path);
          expect(saved).toMatchObject({ path, bytes: content.length, contentType: "application/pdf" });
          downloads.push({ downloadId: document.download_id, sha256: sha256Hex(content), bytes: content.length });
        }
      }
    });

    // Three events (the document's check, the acceptance, the correspondence), each delivered twice.
    expect(deliveries.map((delivery) => delivery.type).sort()).toEqual([
      "application.accepted-priority-protected",
      "application.attachment-success",
      "application.correspondence-despatched",
    ]);
    expect([...calls.values()]).toEqual([1, 1, 1]);
    for (const delivery of deliveries) expect(new Set(delivery.ids).size).toBe(2);
    expect(summary).toEqual({ events: 3, notifications: 6, acknowledged: 6 });

    // Every download's SHA-256 (hex) is its download id, and they are the correspondence's documents.
    expect(downloads.map((download) => download.downloadId).sort()).toEqual(
      raised.documents.map((document) => document.download_id).sort(),
    );
    for (const download of downloads) {
      expect(download.bytes).toBeGreaterThan(0);
      expect(download.sha256).toBe(download.downloadId);
    }

    // Everything was acknowledged: the version 1 default list (NEW) is empty, so is version 0's NEW list (version 0
    // has no default status: without one it lists the acknowledged ones too), and a second run has nothing.
    expect((await unwrap(client.GET("/v1/notifications"))).data).toEqual([]);
    expect((await unwrap(client.GET("/v0/notifications", { params: { query: { status: "NEW" } } }))).data).toEqual([]);
    expect(
      (await unwrap(client.GET("/v0/notifications"))).data.every(
        (notification) => notification.status === "ACKNOWLEDGED",
      ),
    ).toBe(true);
    const acknowledged: NotificationV1[] = [];
    for await (const notification of client.notifications.listAll({ status: "ACKNOWLEDGED" }))
      acknowledged.push(notification);
    expect(new Set(acknowledged.map((notification) => notification.notification_id))).toEqual(
      new Set(deliveries.flatMap((delivery) => delivery.ids)),
    );
    expect(await client.notifications.consume(() => expect.unreachable("no event is left"))).toEqual({
      events: 0,
      notifications: 0,
      acknowledged: 0,
    });
  });
});
