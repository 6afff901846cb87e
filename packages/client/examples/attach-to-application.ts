// file: attach-to-application.ts
import { createGatewayClient, ProblemError } from "@lrg/client";

const client = createGatewayClient({ baseUrl: "http://127.0.0.1:8080", username: "demo", password: "demo-password" });
const applicationId = "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";

try {
  // Sends the file first (Send a document), then attaches it; the outcome arrives as a notification.
  const { documentId } = await client.applications.attachDocument(
    applicationId,
    { source: "./requisition-reply.pdf", documentType: "TR1" },
    { certificationStatementType: "CERTIFIED" },
  );
  await client.applications.attachMessage(applicationId, "The plan asked for on 1 April is attached.");
  for await (const notification of client.notifications.listAll({ subject: applicationId })) {
    if (notification.notification_type === "application.attachment-failed") console.error(documentId, notification.payload.data.failure_reason);
  }
} catch (error) {
  // OC200: no such application for this business unit; OC036: it is no longer pending.
  if (error instanceof ProblemError) console.error(error.status, error.code, error.detail);
  else throw error;
}
