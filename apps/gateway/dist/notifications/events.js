import { randomUUID } from "node:crypto";
import { isoMillis, isoMillisNoZone } from "../clock.js";
import { componentSchema } from "../spec/openapi.js";
/** The published payload schema name of each notification type, read from the spec (`x-lrg-payload-schema`). */
function payloadSchemas(union) {
    const variants = componentSchema(union)["oneOf"];
    return new Map(variants.map((variant) => {
        const own = variant["allOf"][1];
        const type = String(own.properties["notification_type"]?.["const"]);
        const data = (own.properties["payload"]?.["properties"])["data"];
        return [type, String(data["x-lrg-payload-schema"])];
    }));
}
const V1_SCHEMAS = payloadSchemas("NotificationV1");
const V0_SCHEMAS = payloadSchemas("NotificationV0");
const V0_TYPES = {
    "accepted-priority-protected": "APPLICATION_ACCEPTED_ON_DAY_LIST",
    "accepted-priority-pending": "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST",
    "validation-failed": "APPLICATION_VALIDATION_FAILED",
    error: "SYSTEM_ERROR",
    "correspondence-despatched": "APPLICATION_CORRESPONDENCE_DESPATCHED",
    completed: "APPLICATION_COMPLETED",
    cancelled: "APPLICATION_CANCELLED",
    "attachment-success": null,
    "attachment-failed": null,
};
/** The payload `data` of an event in each version. */
function payloads(event, applicationId) {
    switch (event.kind) {
        case "accepted-priority-protected":
            return {
                v1: { status: "ACCEPTED_PRIORITY_PROTECTED", priority: isoMillisNoZone(event.priorityMs), registry_reference: event.registryReference },
                v0: { registry_reference: event.registryReference, status: "ACCEPTED", priority: isoMillis(event.priorityMs) },
            };
        case "accepted-priority-pending":
            return { v1: { status: "ACCEPTED_AWAITING_PRIORITY" }, v0: { status: "ACCEPTED_AWAITING_PRIORITY" } };
        case "validation-failed":
            return { v1: { status: "VALIDATION_FAILED" }, v0: { status: "VALIDATION_FAILED" } };
        case "error":
            return { v1: { status: "SYSTEM_ERROR" }, v0: { status: "SYSTEM_ERROR" } };
        case "correspondence-despatched": {
            const data = { documents: event.documents, registry_reference: event.registryReference, application_request_id: applicationId };
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
            return { v1: { document_id: event.documentId }, v0: null };
        case "attachment-failed":
            return { v1: { failure_reason: event.failureReason, document_id: event.documentId }, v0: null };
    }
}
/**
 * The notifications of one event: one, or (at-least-once delivery) two when the duplicate draw says so. Duplicates
 * share `event_datetime` and `notification_type` and have their own id; each is acknowledged separately.
 */
export function notificationsFor(application, event, at, duplicate) {
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
        status: "NEW",
        additionalProviderFilter: application.additionalProviderFilter,
    };
    const first = { ...base, id: randomUUID(), createdMs: at.createdMs };
    // A redelivery is created a moment later, as a real second delivery would be.
    return duplicate() ? [first, { ...base, id: randomUUID(), createdMs: at.createdMs + 1 }] : [first];
}
//# sourceMappingURL=events.js.map