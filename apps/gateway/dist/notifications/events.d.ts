import type { ApplicationRow, NotificationRow } from "../storage/storage.js";
/** A correspondence document as notifications and application information carry it. */
export interface CorrespondenceDocument {
    type: {
        code: string;
        name: string;
    };
    created_at: string;
    download_id: string;
}
/** Something that happened to an application, from which both notification views are rendered. */
export type ApplicationEvent = {
    kind: "accepted-priority-protected";
    registryReference: string;
    priorityMs: number;
} | {
    kind: "accepted-priority-pending";
} | {
    kind: "validation-failed";
} | {
    kind: "error";
} | {
    kind: "correspondence-despatched";
    registryReference: string;
    documents: CorrespondenceDocument[];
} | {
    kind: "completed";
    registryReference: string;
    documents: CorrespondenceDocument[];
    earlyCompletion: boolean;
} | {
    kind: "cancelled";
    registryReference: string | null;
    documents: CorrespondenceDocument[];
} | {
    kind: "attachment-success";
    documentId: string;
} | {
    kind: "attachment-failed";
    documentId: string;
    failureReason: string;
};
/**
 * The notifications of one event: one, or (at-least-once delivery) two when the duplicate draw says so. Duplicates
 * share `event_datetime` and `notification_type` and have their own id; each is acknowledged separately.
 */
export declare function notificationsFor(application: Pick<ApplicationRow, "id" | "businessUnitId" | "additionalProviderFilter">, event: ApplicationEvent, at: {
    eventMs: number;
    createdMs: number;
}, duplicate: () => boolean): NotificationRow[];
