import type { Handler } from "../routing.js";
import type { AttachmentService, DocumentAttachment } from "./attachments.js";
import type { ApplicationService } from "./service.js";
import type { Submission } from "./validation-rules.js";

/** Handlers of submit-an-application, application information, and Attach a document or a message. */
export function applicationHandlers(applications: ApplicationService, attachments: AttachmentService): Record<string, Handler> {
  return {
    submitApplication: async ({ principal, body, headers }) => {
      const key = String(headers["idempotency-key"]);
      const { applicationId } = await applications.submit(principal, body as Submission, key);
      return {
        status: 202,
        headers: { location: `/v0/applications/${applicationId}/information` },
        body: { data: { application_request_id: applicationId } },
      };
    },
    getApplicationInformation: async ({ principal, params }) => ({
      status: 200,
      body: { data: await applications.information(principal, String(params["id"])) },
    }),
    attachDocument: async ({ principal, params, body }) => {
      await attachments.attachDocument(principal, String(params["id"]), (body as { data: DocumentAttachment }).data);
      return { status: 202 };
    },
    attachMessage: async ({ principal, params, body }) => {
      await attachments.attachMessage(principal, String(params["id"]), (body as { data: { message_text: string } }).data.message_text);
      return { status: 202 };
    },
  };
}
