import type { components } from "../operation-types.js";
import type { ApplicationRow } from "../storage/ports/applications.js";
import type { DocumentRow, DocumentStore } from "../storage/ports/documents.js";
import { detailsTypeOf, territories, transactionDocuments, type RequiredDocuments } from "../registry/code-lists.js";

/** The submission as the spec's ApplicationSubmission schema admits it (already validated). */
export type Submission = components["schemas"]["ApplicationSubmission"];
type Transaction = NonNullable<Submission["transactions"]>[string];

export interface RuleError {
  type: string;
  detail: string;
  pointer: string | null;
}

export type Verdict = { kind: "passed" } | { kind: "failed"; errors: RuleError[] } | { kind: "pending" };

/** What the rules know of one uploaded document: its checks' state and the type declared at upload. */
type StoredDocument = Pick<DocumentRow, "status" | "documentType" | "failureReason">;

const describe = (key: string, transaction: Transaction) => `transaction ${key} (${transaction.type})`;

/**
 * Every document the submission names must be one the business unit uploaded (`OC018`, the registry's "failed to
 * get document"), must have passed its file checks and virus scan (`document-valid`), and must be declared here
 * with the type it was uploaded as (`document-type-valid`).
 */
function documentRules(submission: Submission, stored: Map<string, StoredDocument | undefined>): RuleError[] {
  const errors: RuleError[] = [];
  for (const [key, document] of Object.entries(submission.documents)) {
    const found = stored.get(document.document_id);
    const pointer = `/documents/${key}/document_id`;
    if (!found) {
      errors.push({ type: "OC018", detail: `document ${document.document_id} is not known to the registry`, pointer });
    } else if (found.status === "AWAITING_UPLOAD") {
      errors.push({ type: "OC018", detail: `document ${document.document_id} has not been uploaded`, pointer });
    } else if (found.status === "REJECTED") {
      errors.push({
        type: "document-valid",
        detail: `document ${document.document_id} failed its checks: ${found.failureReason ?? "rejected"}`,
        pointer,
      });
    }
    if (found && found.documentType !== document.type) {
      errors.push({
        type: "document-type-valid",
        detail: `document ${key} is declared ${document.type} but was uploaded as ${found.documentType}`,
        pointer: `/documents/${key}/type`,
      });
    }
  }
  return errors;
}

/** Whether a conditional entry of the mapping holds for this transaction; conditions of other forms are not simulated. */
function conditionHolds(when: string, transaction: Transaction): boolean {
  const details = (transaction.details ?? {}) as Record<string, unknown>;
  const provided = /^transaction details\.(\w+) is provided$/.exec(when);
  if (provided) return details[provided[1] as string] !== undefined;
  const equals = /^transaction details\.(\w+) == (\w+)$/.exec(when);
  if (equals) return details[equals[1] as string] === equals[2];
  return false;
}

/** The documents a transaction lacks, each as "X" or "one of X, Y" (empty when it has all it needs). */
function missingDocuments(required: RequiredDocuments, attached: Set<string>, transaction: Transaction): string[] {
  const compulsory = [
    ...required.compulsory,
    ...(required.conditional ?? [])
      .filter((c) => c.becomes === "compulsory" && conditionHolds(c.when, transaction))
      .map((c) => c.document),
  ];
  const groups = [...(required.compulsory_one_of ?? []), ...(required.either.length > 0 ? [required.either] : [])];
  return [
    ...[...new Set(compulsory)].filter((code) => !attached.has(code)),
    ...groups.filter((group) => !group.some((code) => attached.has(code))).map((group) => `one of ${group.join(", ")}`),
  ];
}

/**
 * `all-mandatory-documents-provided`: per transaction, every Compulsory document of its type, one of each
 * "X or Y" group and at least one Either document, as the registry's transaction/document mapping lists them.
 * A transaction type the mapping does not list (ten added to the guide later) is not checked.
 */
function allMandatoryDocumentsProvided(submission: Submission): RuleError[] {
  return Object.entries(submission.transactions ?? {}).flatMap(([key, transaction]) => {
    const required = transactionDocuments.get(transaction.type);
    if (!required) return [];
    const attached = new Set(
      (transaction.document_keys ?? [])
        .map((k) => submission.documents[k]?.type)
        .filter((t): t is NonNullable<typeof t> => t !== undefined),
    );
    const missing = missingDocuments(required, attached, transaction);
    return missing.length === 0
      ? []
      : [
          {
            type: "all-mandatory-documents-provided",
            detail: `${describe(key, transaction)} lacks ${missing.join("; ")}`,
            pointer: `/transactions/${key}/document_keys`,
          },
        ];
  });
}

/** `incorporation-territory-valid` (ours: the registry states the rule but publishes no type for it). */
function incorporationTerritoryValid(submission: Submission): RuleError[] {
  return Object.entries(submission.parties ?? {})
    .filter(
      ([, party]) => party.party_type === "OVERSEAS_COMPANY" && !territories.has(party.incorporation_territory ?? ""),
    )
    .map(([key, party]) => ({
      type: "incorporation-territory-valid",
      detail:
        party.incorporation_territory === undefined
          ? `overseas company ${key} gives no incorporation_territory`
          : `${party.incorporation_territory} is not one of the registry's territories`,
      pointer: `/parties/${key}/${party.incorporation_territory === undefined ? "party_type" : "incorporation_territory"}`,
    }));
}

/** `transaction-priorities-unique` (ours: the registry's schema says unique, and publishes no type for it). */
function transactionPrioritiesUnique(submission: Submission): RuleError[] {
  const seen = new Map<number, string>();
  const errors: RuleError[] = [];
  for (const [key, transaction] of Object.entries(submission.transactions ?? {})) {
    if (transaction.priority === undefined) continue;
    const earlier = seen.get(transaction.priority);
    if (earlier !== undefined)
      errors.push({
        type: "transaction-priorities-unique",
        detail: `transaction ${key} has priority ${transaction.priority}, as transaction ${earlier} has`,
        pointer: `/transactions/${key}/priority`,
      });
    else seen.set(transaction.priority, key);
  }
  return errors;
}

/** `order-contains-one-transfer`: at most one transaction whose registry details type is Transfer. */
function orderContainsOneTransfer(submission: Submission): RuleError[] {
  const transfers = Object.entries(submission.transactions ?? {}).filter(
    ([, t]) => detailsTypeOf.get(t.type) === "Transfer",
  );
  return transfers.slice(1).map(([key, transaction]) => ({
    type: "order-contains-one-transfer",
    detail: `${describe(key, transaction)} is a second transfer; an application may contain one (the first is ${transfers[0]?.[0]})`,
    pointer: `/transactions/${key}/type`,
  }));
}

/** `submission-warning-understood`: the lodger must accept the fraud warning (the member defaults to false). */
function submissionWarningUnderstood(submission: Submission): RuleError[] {
  return submission.submission_warning_understood === true
    ? []
    : [
        {
          type: "submission-warning-understood",
          detail: "the submission warning was not accepted (submission_warning_understood is not true)",
          pointer: "/submission_warning_understood",
        },
      ];
}

/** `references-resolve` (ours: a key that names no member of the submission; the registry publishes no such rule). */
function referencesResolve(submission: Submission): RuleError[] {
  const errors: RuleError[] = [];
  const keysOf = (map: Record<string, unknown> | undefined) => new Set(Object.keys(map ?? {}));
  const references: ["title_keys" | "party_keys" | "document_keys", Set<string>, string][] = [
    ["title_keys", keysOf(submission.titles), "title"],
    ["party_keys", keysOf(submission.parties), "party"],
    ["document_keys", keysOf(submission.documents), "document"],
  ];
  for (const [transactionKey, transaction] of Object.entries(submission.transactions ?? {})) {
    for (const [member, known, noun] of references) {
      (transaction[member] ?? []).forEach((key, index) => {
        if (!known.has(key))
          errors.push({
            type: "references-resolve",
            detail: `transaction ${transactionKey} names ${noun} ${key}, which the submission does not define`,
            pointer: `/transactions/${transactionKey}/${member}/${index}`,
          });
      });
    }
  }
  const parties = keysOf(submission.parties);
  (submission.applicants ?? []).forEach((key, index) => {
    if (!parties.has(key))
      errors.push({
        type: "references-resolve",
        detail: `applicant ${key} is not one of the submission's parties`,
        pointer: `/applicants/${index}`,
      });
  });
  return errors;
}

/**
 * The charge and transfer dates after `today` (YYYY-MM-DD): the registry refuses them with its schema checks,
 * before the 202, so the gateway answers them as 400 items of type `date-not-in-future`.
 */
export function futureDates(submission: Submission, today: string): RuleError[] {
  return Object.entries(submission.transactions ?? {})
    .filter(
      ([, t]) =>
        ["Charge", "Transfer"].includes(detailsTypeOf.get(t.type) ?? "") &&
        t.details?.date !== undefined &&
        t.details.date > today,
    )
    .map(([key, t]) => ({
      type: "date-not-in-future",
      detail: `the date ${t.details?.date} of ${describe(key, t)} is after today (${today})`,
      pointer: `/body/transactions/${key}/details/date`,
    }));
}

/**
 * The simulated registry's asynchronous validation of a submitted application, rule by rule, with the registry's
 * rule names. `pending` while a document's checks are still running: the registry decides once every document's
 * checks have finished, so that each gets its attachment result.
 */
export async function validateSubmission(storage: DocumentStore, application: ApplicationRow): Promise<Verdict> {
  const submission = application.submission as Submission;
  const stored = new Map<string, StoredDocument | undefined>();
  for (const { document_id: id } of Object.values(submission.documents))
    stored.set(id, await storage.findDocument(id, application.businessUnitId));
  if ([...stored.values()].some((document) => document?.status === "UPLOADED")) return { kind: "pending" };
  const errors = [
    ...documentRules(submission, stored),
    ...submissionWarningUnderstood(submission),
    ...allMandatoryDocumentsProvided(submission),
    ...incorporationTerritoryValid(submission),
    ...transactionPrioritiesUnique(submission),
    ...orderContainsOneTransfer(submission),
    ...referencesResolve(submission),
  ];
  return errors.length > 0 ? { kind: "failed", errors: errors.slice(0, 100) } : { kind: "passed" };
}
