#!/usr/bin/env node
// Writes the spec's code enums from the registry's published lists in registry-data/, so that no code is typed by
// hand. `--check` writes nothing and fails when a committed schema differs from what the data gives (drift).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { writeIfChanged } from "./write-if-changed.mjs";

const specDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const data = (name) => JSON.parse(readFileSync(join(specDir, "registry-data", `${name}.json`), "utf8"));
const source = (file) => `spec/registry-data/${file} (see spec/registry-data/README.md)`;

const documents = data("document-types");
const transactions = data("transaction-types");
const applications = data("application-types");

/** The transaction types an application type admits, however the guide groups them. */
const admitted = (entry) => [
  ...new Set(
    Array.isArray(entry.transaction_types) ? entry.transaction_types : Object.values(entry.transaction_types).flat(),
  ),
];
const applicationTypes = Object.keys(applications).filter((key) => !key.startsWith("_"));

const schemas = {
  DocumentTypeCode: {
    file: "document-types.json",
    schema: {
      type: "string",
      "x-lrg-source": "public-reference",
      description: [
        "The kind of a document sent with an application or uploaded (Send a document): every code of the registry's",
        `document type list, ${documents.length} codes. The list follows the submit-an-application guide version 1.0 (the newest)`,
        "plus the codes only the registry's OpenAPI 1.0.4 enum has (RXCD, DEBENTURE, TR5, which have no published",
        "description). Guide 0.3 and spec 0.3 accept fewer (CERT_RED_EX, DEBENTURE, EX3 and TR5 are missing from spec 0.3).",
        "Generated from the registry's data; `x-enumDescriptions` gives each code's name.",
      ].join(" "),
      enum: documents.map((d) => d.code),
      "x-enumDescriptions": Object.fromEntries(
        documents.map((d) => [
          d.code,
          d.description ?? "No description is published (the code is in the registry's OpenAPI 1.0.4 enum only).",
        ]),
      ),
      example: "TR1",
    },
  },
  TransactionTypeCode: {
    file: "transaction-types.json",
    schema: {
      type: "string",
      "x-lrg-source": "public-reference",
      description: [
        `The kind of a transaction of an application: every code of the registry's transaction type table, ${transactions.length} codes,`,
        "as the submit-an-application guide version 1.0 (the newest) lists them. The registry's OpenAPI 1.0.4 enum lacks",
        "ten of them, added to the guide on 2026-03-02 (ADV1NT2, ADV1S12, CADV, DFL6, DM, DPR, NAOA, RADV, RORBAP, RTBAP);",
        "spec 0.3 lacks twelve more. Generated from the registry's data; `x-enumDescriptions` gives each code's name.",
      ].join(" "),
      enum: transactions.map((t) => t.code),
      "x-enumDescriptions": Object.fromEntries(transactions.map((t) => [t.code, t.description])),
      example: "T",
    },
  },
  ApplicationTypeCode: {
    file: "application-types.json",
    schema: {
      type: "string",
      "x-lrg-source": "public-reference",
      description: [
        "The kind of an application, as the submit-an-application guide version 1.0 (the newest) lists them. Each admits",
        "a published list of transaction types (spec/registry-data/application-types.json); the sandbox does not yet",
        "refuse a transaction type outside its application type's list. Generated from the registry's data.",
      ].join(" "),
      enum: applicationTypes,
      "x-enumDescriptions": Object.fromEntries(
        applicationTypes.map((type) => {
          const entry = applications[type];
          const count = admitted(entry).length;
          const constraints = entry.constraints ? ` Constraints: ${entry.constraints.join("; ")}.` : "";
          return [
            type,
            `Admits ${count} transaction type${count === 1 ? "" : "s"}; title types ${entry.title_types.join(", ")}.${constraints}`,
          ];
        }),
      ),
      example: "REGISTER_UPDATE",
    },
  },
};

const check = process.argv.includes("--check");
const drift = [];
for (const [name, { file, schema }] of Object.entries(schemas)) {
  const path = join(specDir, "components", "schemas", `${name}.yaml`);
  const text = `# Generated from ${source(file)} by spec/scripts/generate-codes.mjs; do not edit.\n${stringify(schema, { lineWidth: 0 })}`;
  if (!check) {
    writeIfChanged(path, text);
    continue;
  }
  let committed = "";
  try {
    committed = readFileSync(path, "utf8");
  } catch {
    // A missing schema is drift too.
  }
  if (committed !== text) drift.push(name);
}
if (drift.length > 0) {
  console.error(
    `generated code schemas are out of date (${drift.join(", ")}); run \`pnpm --filter @lrg/spec generate\` and commit.`,
  );
  process.exit(1);
}
console.log(check ? "code schemas match spec/registry-data." : "wrote the code schemas from spec/registry-data.");
