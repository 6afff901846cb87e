import type { components } from "../generated/openapi.js";
import type { ApplicationRow, Storage } from "../storage/storage.js";

/** The submission as the spec's ApplicationSubmission schema admits it (already validated). */
export type Submission = components["schemas"]["ApplicationSubmission"];

export interface RuleError {
  type: string;
  detail: string;
  pointer: string | null;
}

export type Verdict = { kind: "passed" } | { kind: "failed"; errors: RuleError[] } | { kind: "pending" };

/**
 * The simulated registry's validation of a submitted application: every document it names must have been
 * uploaded by the same business unit and have passed its checks, and every key a transaction or applicant uses
 * must exist. `pending` while a document's asynchronous checks are still running.
 */
export async function validateSubmission(storage: Storage, application: ApplicationRow): Promise<Verdict> {
  const submission = application.submission as Submission;
  const errors: RuleError[] = [];
  let pending = false;
  for (const [key, document] of Object.entries(submission.documents ?? {})) {
    const pointer = `/documents/${key}/document_id`;
    const stored = await storage.findDocument(document.document_id, application.businessUnitId);
    if (!stored) {
      errors.push({ type: "DV101", detail: `document ${document.document_id} is not known to the registry`, pointer });
    } else if (stored.status === "AWAITING_UPLOAD") {
      errors.push({ type: "DV102", detail: `document ${document.document_id} has not been uploaded`, pointer });
    } else if (stored.status === "REJECTED") {
      errors.push({ type: "DV105", detail: `document ${document.document_id} was rejected: ${stored.failureReason ?? "failed its checks"}`, pointer });
    } else if (stored.status === "UPLOADED") {
      pending = true;
    }
  }
  const keysOf = (map: Record<string, unknown> | undefined) => new Set(Object.keys(map ?? {}));
  const references: [string, Set<string>, string, string][] = [
    ["title_keys", keysOf(submission.titles), "DV110", "title"],
    ["party_keys", keysOf(submission.parties), "DV111", "party"],
    ["document_keys", keysOf(submission.documents), "DV112", "document"],
  ];
  for (const [transactionKey, transaction] of Object.entries(submission.transactions ?? {})) {
    for (const [member, known, type, noun] of references) {
      (transaction[member as "title_keys"] ?? []).forEach((key, index) => {
        if (!known.has(key)) errors.push({ type, detail: `transaction ${transactionKey} names ${noun} ${key}, which the submission does not define`, pointer: `/transactions/${transactionKey}/${member}/${index}` });
      });
    }
  }
  const parties = keysOf(submission.parties);
  (submission.applicants ?? []).forEach((key, index) => {
    if (!parties.has(key)) errors.push({ type: "DV113", detail: `applicant ${key} is not one of the submission's parties`, pointer: `/applicants/${index}` });
  });
  // The registry decides once every document's checks have finished, so that each gets its attachment result.
  if (pending) return { kind: "pending" };
  return errors.length > 0 ? { kind: "failed", errors: errors.slice(0, 100) } : { kind: "passed" };
}
