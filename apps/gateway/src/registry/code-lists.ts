import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The documents one transaction type requires (the registry's transaction/document mapping, guide 1.0). */
export interface RequiredDocuments {
  compulsory: string[];
  compulsory_one_of?: string[][];
  either: string[];
  conditional?: { document: string; becomes: string; when: string }[];
}

interface TransactionType {
  code: string;
  details_type: string | null;
}

/** Each mapped transaction type's required documents; the `_` members of the file are notes, not types. */
export const transactionDocuments: ReadonlyMap<string, RequiredDocuments> = new Map(
  Object.entries(
    require("@lrg/spec/registry-data/transaction-documents.json") as Record<string, RequiredDocuments>,
  ).filter(([code]) => !code.startsWith("_")),
);

/** The territories an overseas company may be incorporated in. */
export const territories: ReadonlySet<string> = new Set(
  require("@lrg/spec/registry-data/territories.json") as string[],
);

const transactionTypes = require("@lrg/spec/registry-data/transaction-types.json") as TransactionType[];

/** The registry's details type of each transaction type (Transfer, Charge, Discharge, AmountDetails, or none). */
export const detailsTypeOf: ReadonlyMap<string, string | null> = new Map(
  transactionTypes.map((t) => [t.code, t.details_type]),
);
