import type { ApplicationRow, Storage } from "../storage/storage.js";
/** The submission as the spec's ApplicationSubmission schema admits it (already validated). */
export interface Submission {
    additional_provider_filter?: string;
    applicants?: string[];
    parties?: Record<string, unknown>;
    titles?: Record<string, unknown>;
    transactions?: Record<string, {
        title_keys?: string[];
        party_keys?: string[];
        document_keys?: string[];
    }>;
    documents?: Record<string, {
        type: string;
        document_id: string;
    }>;
    [member: string]: unknown;
}
export interface RuleError {
    type: string;
    detail: string;
    pointer: string | null;
}
export type Verdict = {
    kind: "passed";
} | {
    kind: "failed";
    errors: RuleError[];
} | {
    kind: "pending";
};
/**
 * The simulated registry's validation of a submitted application: every document it names must have been
 * uploaded by the same business unit and have passed its checks, and every key a transaction or applicant uses
 * must exist. `pending` while a document's asynchronous checks are still running.
 */
export declare function validateSubmission(storage: Storage, application: ApplicationRow): Promise<Verdict>;
