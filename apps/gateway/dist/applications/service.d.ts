import type { Principal } from "../auth/basic-auth.js";
import { type Clock } from "../clock.js";
import { type CorrespondenceDocument } from "../notifications/events.js";
import type { SandboxState } from "../registry/sandbox-state.js";
import type { BlobStore } from "../storage/blob-store.js";
import type { Storage } from "../storage/storage.js";
import { type Submission } from "./validation-rules.js";
/** What the control plane may ask for when it moves an application (see SandboxTransitionRequest). */
export interface TransitionRequest {
    to: string;
    errors?: {
        type: string;
        detail: string;
        pointer?: string | null;
    }[];
    registry_reference?: string;
    early_completion?: boolean;
    documents?: string[];
}
export interface ApplicationServiceDeps {
    storage: Storage;
    clock: Clock;
    blobs: BlobStore;
    state: SandboxState;
    decisionDelayMs: number;
}
/**
 * The application lifecycle over the simulated registry: submission, information, and every move of the state
 * machine, each applied atomically with the notifications it emits.
 */
export declare class ApplicationService {
    #private;
    constructor(deps: ApplicationServiceDeps);
    submit(principal: Principal, submission: Submission, idempotencyKey: string): Promise<{
        applicationId: string;
        replayed: boolean;
    }>;
    information(principal: Principal, id: string): Promise<Record<string, unknown>>;
    /** Moves an application as the control plane asks; refuses a move the state machine does not allow (409-03). */
    transition(id: string, request: TransitionRequest): Promise<{
        notifications: {
            notification_id: string;
            notification_type: string;
            v0_notification_type: string | null;
            duplicate: boolean;
        }[];
        documents?: CorrespondenceDocument[];
        priority_timestamp?: string;
        registry_reference?: string | null;
        application_request_id: string;
        previous_status: string;
        status: "SYSTEM_ERROR" | "ACCEPTED_PRIORITY_PROTECTED" | "ACCEPTED_AWAITING_PRIORITY" | "VALIDATION_FAILED" | "COMPLETED" | "CANCELLED";
    }>;
    /** Automatic processing: decides every application whose delay has passed. Answers how many were decided. */
    decideDue(): Promise<number>;
    /** Opens or closes the day list; opening gives priority to every application queued for it. */
    setDayList(open: boolean): Promise<{
        open: boolean;
        awaiting_priority: number;
        promoted: number;
    }>;
    dayList(): Promise<{
        open: boolean;
        awaiting_priority: number;
    }>;
    /** The registry raises correspondence on an application that has a registry reference. */
    despatchCorrespondence(id: string, codes: string[]): Promise<{
        application_request_id: string;
        registry_reference: string;
        record_id: `${string}-${string}-${string}-${string}-${string}`;
        documents: CorrespondenceDocument[];
        notifications: {
            notification_id: string;
            notification_type: string;
            v0_notification_type: string | null;
            duplicate: boolean;
        }[];
    }>;
}
