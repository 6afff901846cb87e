// The registry's code lists and its submission rules, generated from the registry's published data
// (@lrg/spec/registry-data): codes every list admits, and the rules a submission breaks, before the 202 (400) or
// after it (VALIDATION_FAILED with the rule's name and a pointer).
import fc from "fast-check";
import {
  decide,
  expectStatus,
  expectThat,
  readClock,
  sendSubmission,
  submission,
  upload,
  type Decision,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Session } from "../../session.js";
import { specJson } from "../../spec-files.js";

interface RequiredDocuments {
  compulsory: string[];
  compulsory_one_of?: string[][];
  either: string[];
  suggested: string[];
  conditional?: { document: string }[];
}

const documentCodes = specJson<{ code: string }[]>("registry-data/document-types.json").map((d) => d.code);
const transactionTypes = specJson<{ code: string; details_type: string | null }[]>(
  "registry-data/transaction-types.json",
);
const applicationTypes = Object.keys(specJson<Record<string, unknown>>("registry-data/application-types.json")).filter(
  (k) => !k.startsWith("_"),
);
const territories = specJson<string[]>("registry-data/territories.json");
const mapping = Object.entries(
  specJson<Record<string, RequiredDocuments>>("registry-data/transaction-documents.json"),
).filter(([code]) => !code.startsWith("_"));

const transactionCodes = transactionTypes.map((t) => t.code);
const detailsType = new Map(transactionTypes.map((t) => [t.code, t.details_type]));
/** The documents a transaction type requires unconditionally, each as the group of codes any of which will do. */
const requirementsOf = (r: RequiredDocuments): string[][] => [
  ...r.compulsory.map((code) => [code]),
  ...(r.compulsory_one_of ?? []),
  ...(r.either.length > 0 ? [r.either] : []),
];
/** Mapped transaction types that require at least one document, whatever their details say. */
const demanding = mapping.filter(([, r]) => requirementsOf(r).length > 0);
/** Mapped transaction types that require no document at all and are no transfer (for rules about other things). */
const undemanding = mapping
  .filter(
    ([code, r]) =>
      requirementsOf(r).length === 0 && !(r.conditional ?? []).length && detailsType.get(code) !== "Transfer",
  )
  .map(([code]) => code);
const transfers = transactionCodes.filter((code) => detailsType.get(code) === "Transfer");
const chargesAndTransfers = transactionCodes.filter((code) =>
  ["Charge", "Transfer"].includes(detailsType.get(code) ?? ""),
);

/** One uploaded document per type and session (documents may be named by any number of applications). */
const uploaded = new WeakMap<Session, Map<string, Promise<string>>>();
const PDF = Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
function documentOf(session: Session, type: string): Promise<string> {
  const cache = uploaded.get(session) ?? new Map<string, Promise<string>>();
  uploaded.set(session, cache);
  let id = cache.get(type);
  if (!id) {
    id = upload(session, PDF, type);
    cache.set(type, id);
  }
  return id;
}

/** A submission whose `documents` (key → type) are uploaded as declared, with these transactions and parties. */
async function submissionWith(
  session: Session,
  documents: Record<string, string>,
  transactions: Record<string, unknown>,
  parties?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const named: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(documents))
    named[key] = { type, document_id: await documentOf(session, type) };
  return { ...submission(), documents: named, transactions, ...(parties ? { parties } : {}) };
}

const accepted = (decision: Decision) =>
  decision.status === "ACCEPTED_PRIORITY_PROTECTED" || decision.status === "ACCEPTED_AWAITING_PRIORITY";
/** The decision failed with exactly these (type, pointer) errors. */
function expectFailure(decision: Decision, expected: [string, string][], what: string): void {
  const got = decision.errors.map((e) => [e.type, e.pointer]);
  expectThat(
    decision.status === "VALIDATION_FAILED" && JSON.stringify(got) === JSON.stringify(expected),
    () => `${what}: ${decision.status} ${JSON.stringify(decision.errors)}, expected ${JSON.stringify(expected)}`,
  );
}

const codeLists: Property = {
  id: "registry.code-lists",
  rows: ["R301", "R302"],
  title:
    "every code of the registry's published lists is accepted (all 165 document types for an upload address, all 159 transaction types and 4 application types in a submission); a code outside them is refused with 400",
  requires: ["writes"],
  runs: 1,
  async check(context) {
    const { session } = context;
    const uploadUrl = (code: string) =>
      session.call("POST", "/v0/documents/url", {
        json: {
          data: { document_type: code, file_length: 10, file_sha256: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=" },
        },
      });
    const submit = (body: Record<string, unknown>) => sendSubmission(session, session.credentials, body);
    // Every code, not a sample: a list that drops one code must fail.
    await context.once(async () => {
      for (const code of documentCodes) expectStatus(await uploadUrl(code), 200, `document type ${code}`);
      for (const [index, code] of transactionCodes.entries()) {
        const type = applicationTypes[index % applicationTypes.length];
        expectStatus(
          await submit({ ...submission(), type, transactions: { t1: { type: code, priority: 1 } } }),
          202,
          `transaction type ${code} in a ${type} application`,
        );
      }
    });
    const known = new Set([...documentCodes, ...transactionCodes, ...applicationTypes]);
    await context.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[A-Z][A-Z0-9_]{0,11}$/).filter((code) => !known.has(code)),
        fc.constantFrom("document", "transaction", "application"),
        async (code, where) => {
          const answer =
            where === "document"
              ? await uploadUrl(code)
              : await submit(
                  where === "transaction"
                    ? { ...submission(), transactions: { t1: { type: code, priority: 1 } } }
                    : { ...submission(), type: code },
                );
          expectStatus(answer, 400, `${where} type ${code}, which no registry list has`);
        },
      ),
      20,
    );
  },
};

const mandatoryDocuments: Property = {
  id: "registry.mandatory-documents",
  rows: ["R303"],
  title:
    "all-mandatory-documents-provided: a transaction with every Compulsory document, one of each pair and one Either document of the registry's mapping is accepted; without one of them it fails validation with that rule, pointing at its document_keys",
  requires: ["control-plane"],
  runs: 8,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...demanding),
        fc.option(fc.nat(), { nil: undefined }),
        fc.nat(),
        async ([type, required], dropped, pick) => {
          const groups = requirementsOf(required);
          const mentioned = new Set([
            ...groups.flat(),
            ...required.suggested,
            ...(required.conditional ?? []).map((c) => c.document),
          ]);
          // A document that meets no requirement, so that the transaction always names one.
          const filler = documentCodes.find((code) => !mentioned.has(code)) as string;
          const chosen = groups
            .filter((_, index) => dropped === undefined || index !== dropped % groups.length)
            .map((group) => group[pick % group.length] as string);
          const documents = Object.fromEntries([filler, ...chosen].map((code, index) => [`doc-${index}`, code]));
          const body = await submissionWith(session, documents, {
            t1: { type, priority: 1, document_keys: Object.keys(documents) },
          });
          const decision = await decide(session, body);
          if (dropped === undefined)
            expectThat(
              accepted(decision),
              () => `${type} with ${chosen.join(", ")}: ${decision.status} ${JSON.stringify(decision.errors)}`,
            );
          else
            expectFailure(
              decision,
              [["all-mandatory-documents-provided", "/transactions/t1/document_keys"]],
              `${type} without one of ${JSON.stringify(groups)}`,
            );
        },
      ),
    );
  },
};

const documentTypeValid: Property = {
  id: "registry.document-type-valid",
  rows: ["R305"],
  title:
    "document-type-valid: a document named with the type it was uploaded as is accepted; named with another type, the application fails validation with that rule, pointing at the document's type",
  requires: ["control-plane"],
  runs: 6,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...documentCodes),
        fc.constantFrom(...documentCodes),
        async (uploadedAs, declared) => {
          const body = {
            ...submission(),
            transactions: {},
            documents: { doc: { type: declared, document_id: await documentOf(session, uploadedAs) } },
          };
          const decision = await decide(session, body);
          if (uploadedAs === declared)
            expectThat(
              accepted(decision),
              () => `${declared} as uploaded: ${decision.status} ${JSON.stringify(decision.errors)}`,
            );
          else
            expectFailure(
              decision,
              [["document-type-valid", "/documents/doc/type"]],
              `uploaded as ${uploadedAs}, named ${declared}`,
            );
        },
      ),
      undefined,
      [
        ["TR1", "TR1"],
        ["CH1", "TR1"],
      ],
    );
  },
};

const submissionWarning: Property = {
  id: "registry.submission-warning",
  rows: ["R310"],
  title:
    "submission-warning-understood: an application whose submission_warning_understood is true is accepted; false or omitted, it fails validation with that rule, pointing at the member",
  requires: ["control-plane"],
  runs: 4,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(fc.option(fc.boolean(), { nil: undefined }), async (understood) => {
        const { submission_warning_understood: _default, ...body } = await submissionWith(
          session,
          { tr1: "TR1" },
          { t1: { type: "T", priority: 1, document_keys: ["tr1"] } },
        );
        const decision = await decide(session, {
          ...body,
          ...(understood === undefined ? {} : { submission_warning_understood: understood }),
        });
        if (understood === true)
          expectThat(accepted(decision), () => `understood: ${decision.status} ${JSON.stringify(decision.errors)}`);
        else
          expectFailure(
            decision,
            [["submission-warning-understood", "/submission_warning_understood"]],
            `submission_warning_understood ${String(understood)}`,
          );
      }),
      undefined,
      [[true], [false], [undefined]],
    );
  },
};

const incorporationTerritory: Property = {
  id: "registry.incorporation-territory",
  rows: ["R306"],
  title:
    "incorporation-territory-valid: an overseas company incorporated in one of the registry's published territories is accepted; any other territory fails validation with that rule, pointing at it",
  requires: ["control-plane"],
  runs: 6,
  async check(context) {
    const { session } = context;
    const listed = new Set(territories);
    await context.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...territories),
          fc.string({ minLength: 1, maxLength: 40 }).filter((t) => !listed.has(t)),
        ),
        async (territory) => {
          const body = await submissionWith(
            session,
            { tr1: "TR1" },
            { t1: { type: "T", priority: 1, party_keys: ["lender"], document_keys: ["tr1"] } },
            { lender: { party_type: "OVERSEAS_COMPANY", name: "Example Bank", incorporation_territory: territory } },
          );
          const decision = await decide(session, body);
          if (listed.has(territory))
            expectThat(accepted(decision), () => `${territory}: ${decision.status} ${JSON.stringify(decision.errors)}`);
          else
            expectFailure(
              decision,
              [["incorporation-territory-valid", "/parties/lender/incorporation_territory"]],
              `territory ${JSON.stringify(territory)}`,
            );
        },
      ),
      undefined,
      [["Jersey"], ["Atlantis"]],
    );
  },
};

/** The London calendar date of an instant, moved by `days`. */
function londonDatePlus(ms: number, days: number): string {
  const date = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/London",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(ms));
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const futureDates: Property = {
  id: "registry.future-dates",
  rows: ["R307"],
  title:
    "a charge or transfer dated today or before (by the gateway's clock, London date) is accepted with 202; dated after today it is refused at once with 400 and a date-not-in-future item pointing at the date",
  requires: ["control-plane"],
  runs: 20,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...chargesAndTransfers),
        fc.integer({ min: -400, max: 400 }),
        async (type, days) => {
          const date = londonDatePlus(await readClock(session), days);
          const answer = await sendSubmission(session, session.credentials, {
            ...submission(),
            transactions: { t1: { type, priority: 1, details: { date } } },
          });
          if (days <= 0) {
            expectStatus(answer, 202, `${type} dated ${date} (${days} days)`);
            return;
          }
          expectStatus(answer, 400, `${type} dated ${date} (${days} days ahead)`);
          const errors = (answer.body as { errors?: { type: string; pointer: string }[] }).errors ?? [];
          expectThat(
            errors.some((e) => e.type === "date-not-in-future" && e.pointer === "/body/transactions/t1/details/date"),
            `errors ${JSON.stringify(errors)}`,
          );
        },
      ),
      undefined,
      [
        ["C", 1],
        ["T", 0],
      ],
    );
  },
};

const priorities: Property = {
  id: "registry.transaction-priorities",
  rows: ["R308"],
  title:
    "transaction priorities are 1 to 20 (another value is refused with 400) and unique: a repeated priority fails validation with transaction-priorities-unique, pointing at each later transaction that repeats one",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -1, max: 22 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...undemanding),
        async (values, type) => {
          const transactions = Object.fromEntries(values.map((priority, index) => [`t${index}`, { type, priority }]));
          if (values.some((p) => p < 1 || p > 20)) {
            const answer = await sendSubmission(session, session.credentials, { ...submission(), transactions });
            expectStatus(answer, 400, `priorities ${values.join(", ")}`);
            return;
          }
          const decision = await decide(session, await submissionWith(session, { doc: "TR1" }, transactions));
          const repeats = values
            .map((p, index) => [p, index] as const)
            .filter(([p, index]) => values.indexOf(p) < index);
          if (repeats.length === 0)
            expectThat(
              accepted(decision),
              () => `priorities ${values.join(", ")}: ${decision.status} ${JSON.stringify(decision.errors)}`,
            );
          else
            expectFailure(
              decision,
              repeats.map(([, index]) => ["transaction-priorities-unique", `/transactions/t${index}/priority`]),
              `priorities ${values.join(", ")}`,
            );
        },
      ),
      undefined,
      [
        [[1, 1], "AML"],
        [[1, 2], "AML"],
      ],
    );
  },
};

const oneTransfer: Property = {
  id: "registry.one-transfer",
  rows: ["R309"],
  title:
    "order-contains-one-transfer: an application with one transfer is accepted; each further transfer fails validation with that rule, pointing at its type",
  requires: ["control-plane"],
  runs: 6,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...transfers), { minLength: 1, maxLength: 3 }), async (types) => {
        // TR1 meets every transfer type's requirement (TR1, or TR1 or TR5).
        const transactions = Object.fromEntries(
          types.map((type, index) => [`t${index}`, { type, priority: index + 1, document_keys: ["tr1"] }]),
        );
        const decision = await decide(session, await submissionWith(session, { tr1: "TR1" }, transactions));
        if (types.length === 1)
          expectThat(accepted(decision), () => `${types[0]}: ${decision.status} ${JSON.stringify(decision.errors)}`);
        else
          expectFailure(
            decision,
            types.slice(1).map((_, index) => ["order-contains-one-transfer", `/transactions/t${index + 1}/type`]),
            `transfers ${types.join(", ")}`,
          );
      }),
      undefined,
      [[["T", "TNV"]]],
    );
  },
};

/** Properties of the registry's code lists and submission rules. */
export const submissionRuleProperties: Property[] = [
  codeLists,
  mandatoryDocuments,
  documentTypeValid,
  submissionWarning,
  incorporationTerritory,
  futureDates,
  priorities,
  oneTransfer,
];
