import { closeUnanswered, type RegistryHandlers } from "../routing.js";
import type { AttachmentService } from "./attachments.js";
import type { ApplicationService } from "./service.js";

/**
 * Handlers of submit-an-application, application information, and Attach a document or a message. A submission whose
 * fate is to go unanswered (the `submissionTaken` hook, `hooks.ts`) is stored, then its connection closed unanswered.
 */
export function applicationHandlers(
  applications: ApplicationService,
  attachments: AttachmentService,
): RegistryHandlers<"submitApplication" | "getApplicationInformation" | "attachDocument" | "attachMessage"> {
  return {
    submitApplication: async ({ principal, body, headers, request, reply }) => {
      const key = String(headers["idempotency-key"]);
      const { applicationId, unanswered } = await applications.submit(principal, body, key);
      if (unanswered) return closeUnanswered(request, reply);
      return {
        status: 202,
        headers: { location: `/v0/applications/${applicationId}/information` },
        body: { data: { application_request_id: applicationId } },
      };
    },
    getApplicationInformation: async ({ principal, params }) => ({
      status: 200,
      body: { data: await applications.information(principal, params.id) },
    }),
    attachDocument: async ({ principal, params, body }) => {
      await attachments.attachDocument(principal, params.id, body.data);
      return { status: 202 };
    },
    attachMessage: async ({ principal, params, body }) => {
      await attachments.attachMessage(principal, params.id, body.data.message_text);
      return { status: 202 };
    },
  };
}
