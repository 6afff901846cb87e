// Attach a document and Attach a message through the client against a real gateway: the document is sent first
// when given as bytes, the outcomes arrive as notifications, and the registry's attach envelope is read into the
// typed errors.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, ProblemError, unwrap, type GatewayClient, type NotificationV1 } from "../../src/index.js";
import { smallPdf, startGateway, submit, type RunningGateway } from "./gateway-support.js";

let gw: RunningGateway;
let client: GatewayClient;
let application: string;

beforeAll(async () => {
  gw = await startGateway();
  await gw.settings({ processing: "manual", duplicate_rate: 0, error_rate: 0, latency_ms: 0 });
  client = gw.client(await gw.newBusinessUnit());
  const { document_id: documentId } = await client.uploadDocument(smallPdf("attach"), { documentType: "TR1" });
  application = await submit(client, documentId, "CLIENT-IT-ATTACH");
});
afterAll(async () => {
  await gw?.stop();
});

async function outcomes(): Promise<NotificationV1[]> {
  const listed: NotificationV1[] = [];
  for await (const notification of client.notifications.listAll({ subject: application })) listed.push(notification);
  return listed;
}

async function outcome(type: string, documentId?: string): Promise<NotificationV1> {
  const matches = (n: NotificationV1) =>
    n.notification_type === type &&
    (documentId === undefined || (n.payload.data as { document_id?: string }).document_id === documentId);
  await expect.poll(async () => (await outcomes()).some(matches), { timeout: 5000 }).toBe(true);
  return (await outcomes()).find(matches) as NotificationV1;
}

describe("client.applications against the gateway", () => {
  it("attachDocument sends bytes first, then attaches them; attachment-success names the document", async () => {
    const attached = await client.applications.attachDocument(
      application,
      { source: smallPdf("attached later"), documentType: "TR1" },
      { certificationStatementType: "CERTIFIED" },
    );
    expect(attached.uploaded?.document_id).toBe(attached.documentId);
    const success = await outcome("application.attachment-success", attached.documentId);
    expect(success.payload.data).toMatchObject({ attachment_id: expect.any(Number), document_id: attached.documentId });
  });

  it("attachDocument by documentId of a document already sent", async () => {
    const { document_id: documentId } = await client.uploadDocument(smallPdf("sent before"), { documentType: "TR1" });
    const attached = await client.applications.attachDocument(
      application,
      { documentId },
      { certificationStatementType: "NOT_CERTIFIED" },
    );
    expect(attached).toEqual({ documentId });
    await outcome("application.attachment-success", documentId);
  });

  it("attachMessage, then message-success; a message over 4034 characters is refused before any request", async () => {
    await client.applications.attachMessage(application, "Please see the plan attached today.");
    expect((await outcome("application.message-success")).payload.data).toEqual({ attachment_id: expect.any(Number) });
    await expect(client.applications.attachMessage(application, "x".repeat(4035))).rejects.toBeInstanceOf(RangeError);
  });

  it("an unknown application is a ProblemError 404 OC200; a completed one 400 OC036; wrong credentials an AuthenticationError", async () => {
    const unknown = randomUUID();
    await expect(client.applications.attachMessage(unknown, "hello")).rejects.toMatchObject({
      constructor: ProblemError,
      status: 404,
      code: "OC200",
    });

    const { document_id: documentId } = await client.uploadDocument(smallPdf("completed"), { documentType: "TR1" });
    const completed = await submit(client, documentId, "CLIENT-IT-COMPLETED");
    await unwrap(
      gw.sandbox.POST("/sandbox/v1/applications/{id}/transitions", {
        params: { path: { id: completed } },
        body: { to: "ACCEPTED_PRIORITY_PROTECTED" },
      }),
    );
    await unwrap(
      gw.sandbox.POST("/sandbox/v1/applications/{id}/transitions", {
        params: { path: { id: completed } },
        body: { to: "COMPLETED", early_completion: false },
      }),
    );
    const refused = client.applications.attachDocument(
      completed,
      { documentId },
      { certificationStatementType: "CERTIFIED" },
    );
    await expect(refused).rejects.toMatchObject({
      constructor: ProblemError,
      status: 400,
      code: "OC036",
      errors: [{ code: "OC036", pointer: null }],
    });

    const intruder = gw.client({ username: gw.demo.username, password: "not-the-password" });
    await expect(intruder.applications.attachMessage(application, "hello")).rejects.toBeInstanceOf(AuthenticationError);
  });
});
