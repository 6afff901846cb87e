import { randomUUID } from "node:crypto";
import { isoMillis, isoMillisNoZone } from "../clock.js";
import { componentSchema, type SpecNode } from "@lrg/spec";
import type { ApplicationRow } from "../storage/ports/applications.js";
import type { NotificationRow } from "../storage/ports/notifications.js";
import type { CorrespondenceDocument } from "../registry/correspondence.js";

/** Something that happened to an application, from which both notification views are rendered. */
export type ApplicationEvent =
  | { kind: "accepted-priority-protected"; registryReference: string; priorityMs: number }
  | { kind: "accepted-priority-pending" }
  | { kind: "validation-failed" }
  | { kind: "error" }
  | { kind: "correspondence-despatched"; registryReference: string; documents: CorrespondenceDocument[] }
  | { kind: "completed"; registryReference: string; documents: CorrespondenceDocument[]; earlyCompletion: boolean }
  | { kind: "cancelled"; registryReference: string | null; documents: CorrespondenceDocument[] }
  | { kind: "attachment-success"; documentId: string; attachmentId?: number }
  | { kind: "attachment-failed"; documentId: string; failureReason: string }
  | { kind: "message-success"; attachmentId: number }
  | { kind: "message-failed"; failureReason: string };

/** The published payload schema name of each notification type, read from the spec (`x-lrg-payload-schema`). */
function payloadSchemas(union: string): Map<string, string> {
  const variants = componentSchema(union)["oneOf"] as SpecNode[];
  return new Map(
    variants.map((variant) => {
      // The type's const sits beside allOf (where discriminator compilers look for it); the payload inside.
      const type = (variant["properties"] as Record<string, SpecNode> | undefined)?.["notification_type"]?.["const"];
      const own = (variant["allOf"] as SpecNode[])[1] as { properties: Record<string, SpecNode> };
      const data = (own.properties["payload"]?.["properties"] as Record<string, SpecNode>)["data"] as SpecNode;
      const schema = data["x-lrg-payload-schema"];
      if (typeof type !== "string" || typeof schema !== "string")
        throw new Error(`${union}: a member without its notification_type const or payload schema`);
      return [type, schema];
    }),
  );
}
const V1_SCHEMAS = payloadSchemas("NotificationV1");
const V0_SCHEMAS = payloadSchemas("NotificationV0");

const V0_TYPES: Record<ApplicationEvent["kind"], string | null> = {
  "accepted-priority-protected": "APPLICATION_ACCEPTED_ON_DAY_LIST",
  "accepted-priority-pending": "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST",
  "validation-failed": "APPLICATION_VALIDATION_FAILED",
  error: "SYSTEM_ERROR",
  "correspondence-despatched": "APPLICATION_CORRESPONDENCE_DESPATCHED",
  completed: "APPLICATION_COMPLETED",
  cancelled: "APPLICATION_CANCELLED",
  "attachment-success": null,
  "attachment-failed": null,
  "message-success": null,
  "message-failed": null,
};

/** The payload `data` of an event in each version. */
function payloads(event: ApplicationEvent, applicationId: string): { v1: unknown; v0: unknown } {
  switch (event.kind) {
    case "accepted-priority-protected":
      return {
        v1: {
          status: "ACCEPTED_PRIORITY_PROTECTED",
          priority: isoMillisNoZone(event.priorityMs),
          registry_reference: event.registryReference,
        },
        v0: { registry_reference: event.registryReference, status: "ACCEPTED", priority: isoMillis(event.priorityMs) },
      };
    case "accepted-priority-pending":
      return { v1: { status: "ACCEPTED_AWAITING_PRIORITY" }, v0: { status: "ACCEPTED_AWAITING_PRIORITY" } };
    case "validation-failed":
      return { v1: { status: "VALIDATION_FAILED" }, v0: { status: "VALIDATION_FAILED" } };
    case "error":
      return { v1: { status: "SYSTEM_ERROR" }, v0: { status: "SYSTEM_ERROR" } };
    case "correspondence-despatched": {
      const data = {
        documents: event.documents,
        registry_reference: event.registryReference,
        application_request_id: applicationId,
      };
      return { v1: data, v0: data };
    }
    case "completed":
      return {
        v1: {
          status: "COMPLETED",
          documents: event.documents,
          registry_reference: event.registryReference,
          application_request_id: applicationId,
          was_subject_to_early_completion: event.earlyCompletion,
        },
        v0: { status: "COMPLETED" },
      };
    case "cancelled":
      return {
        v1: {
          status: "CANCELLED",
          documents: event.documents,
          ...(event.registryReference ? { registry_reference: event.registryReference } : {}),
          application_request_id: applicationId,
        },
        v0: { status: "CANCELLED" },
      };
    case "attachment-success":
      return {
        v1: {
          ...(event.attachmentId !== undefined ? { attachment_id: event.attachmentId } : {}),
          document_id: event.documentId,
        },
        v0: null,
      };
    case "attachment-failed":
      return { v1: { failure_reason: event.failureReason, document_id: event.documentId }, v0: null };
    case "message-success":
      return { v1: { attachment_id: event.attachmentId }, v0: null };
    case "message-failed":
      return { v1: { failure_reason: event.failureReason }, v0: null };
  }
}

/**
 * The notifications of one event: one, or (at-least-once delivery) two when the duplicate draw says so. Duplicates
 * share `event_datetime` and `notification_type` and have their own id; each is acknowledged separately.
 */
export function notificationsFor(
  application: Pick<ApplicationRow, "id" | "businessUnitId" | "additionalProviderFilter">,
  event: ApplicationEvent,
  at: { eventMs: number; createdMs: number },
  duplicate: () => boolean,
): NotificationRow[] {
  const v1Type = `application.${event.kind}`;
  const v0Type = V0_TYPES[event.kind];
  const { v1, v0 } = payloads(event, application.id);
  const base = {
    businessUnitId: application.businessUnitId,
    applicationId: application.id,
    v1Type,
    v0Type,
    v1Payload: v1,
    v0Payload: v0,
    v1Schema: String(V1_SCHEMAS.get(v1Type)),
    v0Schema: v0Type ? String(V0_SCHEMAS.get(v0Type)) : null,
    eventMs: at.eventMs,
    status: "NEW" as const,
    additionalProviderFilter: application.additionalProviderFilter,
  };
  const first = { ...base, id: randomUUID(), createdMs: at.createdMs };
  // A redelivery is created a moment later, as a real second delivery would be.
  return duplicate() ? [first, { ...base, id: randomUUID(), createdMs: at.createdMs + 1 }] : [first];
}
