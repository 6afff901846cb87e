#!/usr/bin/env node
// Generates the library's committed sources from the bundled documents in dist/: the TypeScript types of both
// documents (openapi-typescript, the repository's one generated type tree) and the constants consumers would
// otherwise restate (limits, enums, problem codes, transitions, path aliases, scenario titles).
// `--check` writes nothing and fails when a committed file differs (drift).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { writeIfChanged } from "./write-if-changed.mjs";

const specDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(specDir, "src", "generated");
const check = process.argv.includes("--check");
const read = (file) => readFileSync(join(specDir, "dist", file));
const json = (file) => JSON.parse(read(file).toString("utf8"));

/** Each file this script owns, with its text. */
const files = {};

for (const name of ["openapi", "sandbox"]) {
  const source = `${name}.json`;
  const hash = createHash("sha256").update(read(source)).digest("hex");
  const ast = await openapiTS(pathToFileURL(join(specDir, "dist", source)), {
    alphabetize: false,
    exportType: false,
    emptyObjectsUnknown: true,
    // A member with a default is optional: the caller may leave it out (a request body's `early_completion`). Left
    // true, openapi-typescript makes it required in every component schema, request bodies included; a response
    // member the gateway always sends is listed in its schema's `required`.
    defaultNonNullable: false,
  });
  files[`${name}.ts`] =
    `// Generated from spec/dist/${source} (sha256 ${hash}) by openapi-typescript. Do not edit.\n\n${astToString(ast)}`;
}

const registry = json("openapi.dereferenced.json");
const sandbox = json("sandbox.dereferenced.json");
const schemas = registry.components.schemas;

/** A bound of a component schema, by property path; fails loudly when the schema moves. */
function bound(schema, path, keyword, document = registry) {
  // A member of a nullable value (`oneOf` a type and null) is looked up in the branch that has it; `*` steps into
  // `additionalProperties`.
  const branch = (node, has) => (node && has(node) ? node : node?.oneOf?.find(has));
  let node = document.components.schemas[schema];
  for (const name of path)
    node =
      name === "*"
        ? branch(node, (each) => each.additionalProperties)?.additionalProperties
        : branch(node, (each) => each.properties?.[name])?.properties[name];
  const value = branch(node, (each) => typeof each[keyword] === "number")?.[keyword];
  if (typeof value !== "number") throw new Error(`${schema}.${path.join(".")} has no numeric ${keyword}`);
  return value;
}

/** The operation with this operationId in a document. */
function operationOf(document, operationId) {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item))
      if (operation?.operationId === operationId) return { path, method, operation };
  }
  throw new Error(`no operation ${operationId}`);
}

/** The Markdown table of scenario titles in officialSearchOfWhole's description. */
function scenarioTitlesTable() {
  const lines = String(operationOf(registry, "officialSearchOfWhole").operation.description ?? "").split("\n");
  const heading = lines.findIndex((line) => line.includes("Scenario titles"));
  const start = lines.findIndex((line, index) => heading !== -1 && index > heading && line.trimStart().startsWith("|"));
  const end = lines.findIndex((line, index) => index > start && !line.trimStart().startsWith("|"));
  const table = lines.slice(start, end === -1 ? undefined : end).map((line) => line.trim());
  if (start === -1 || table.length < 3)
    throw new Error("officialSearchOfWhole's description has no scenario titles table");
  return table.join("\n");
}

const enums = Object.fromEntries(
  [registry, sandbox]
    .flatMap((document) => Object.entries(document.components.schemas))
    .filter(([, schema]) => Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string"))
    .map(([name, schema]) => [name, schema.enum]),
);
const catalogue = Object.fromEntries(
  Object.entries(registry["x-lrg-problem-codes"]).map(([code, entry]) => [
    code,
    { status: entry.status, title: entry.title, when: entry.when },
  ]),
);
const statusSchema = schemas.ApplicationStatus;
const transitions = statusSchema["x-lrg-transitions"].map((t) => ({
  from: t.from,
  to: t.to,
  trigger: t.trigger ?? "",
  source: t.source ?? "",
  notifications: t.notifications,
}));
for (const [index, t] of transitions.entries()) {
  for (const end of [t.from, t.to])
    if (!statusSchema.enum.includes(end))
      throw new Error(`x-lrg-transitions[${index}] names ${end}, not an ApplicationStatus`);
  for (const version of ["v1", "v0"])
    if (typeof t.notifications?.[version] !== "string")
      throw new Error(`x-lrg-transitions[${index}] has no ${version} notification type`);
}
// The notification services also answer under /api, the base of the registry's own test stubs (design).
const pathAliases = Object.fromEntries(
  [registry, sandbox]
    .flatMap((document) => Object.keys(document.paths))
    .filter((path) => path.includes("/notifications"))
    .map((path) => [path, ["/api"]]),
);

const rateLimits = Object.fromEntries(
  Object.values(registry.paths)
    .flatMap((item) => Object.values(item))
    .filter((operation) => operation?.["x-lrg-rate-limit"] !== undefined)
    .map((operation) => {
      const { requests_per_minute: requestsPerMinute, per } = operation["x-lrg-rate-limit"];
      if (!Number.isInteger(requestsPerMinute) || !["user", "business-unit"].includes(per))
        throw new Error(
          `${operation.operationId}: x-lrg-rate-limit needs requests_per_minute and per (user or business-unit)`,
        );
      return [operation.operationId, { requestsPerMinute, per }];
    }),
);

const failedLoginLimit = (() => {
  const limit = registry.components.securitySchemes.basicAuth["x-lrg-failed-login-limit"];
  const budget = (key) => {
    const { failures, refill_per_minute: refillPerMinute } = limit?.[key] ?? {};
    if (!Number.isInteger(failures) || failures < 1 || !(refillPerMinute > 0))
      throw new Error(`basicAuth x-lrg-failed-login-limit.${key} needs failures and refill_per_minute`);
    return { failures, refillPerMinute };
  };
  return { perAddress: budget("per_address"), perUsername: budget("per_username") };
})();

/** A bound of `x-lrg-json-body-limits`: a whole number of at least `least`. */
function jsonBodyLimit(name, least) {
  const value = registry["x-lrg-json-body-limits"]?.[name];
  if (!Number.isInteger(value) || value < least)
    throw new Error(`x-lrg-json-body-limits needs ${name}, a whole number from ${least}`);
  return value;
}

/**
 * Where the JSON bodies of both documents hold personal data (`x-lrg-personal-data: true`): each a path of member
 * names from the body's root, `*` for a key of a map (an object whose members the client names); array items share
 * their array's path. Every request body and answer of every operation is walked, through `oneOf`, `anyOf` and
 * `allOf`.
 */
function personalDataPaths() {
  const found = new Set();
  const walk = (schema, path, depth) => {
    if (schema === null || typeof schema !== "object" || depth > 24) return;
    if (schema["x-lrg-personal-data"] === true) {
      found.add(JSON.stringify(path));
      return;
    }
    for (const keyword of ["oneOf", "anyOf", "allOf"])
      for (const branch of schema[keyword] ?? []) walk(branch, path, depth + 1);
    if (schema.items) walk(schema.items, path, depth + 1);
    for (const [name, member] of Object.entries(schema.properties ?? {})) walk(member, [...path, name], depth + 1);
    if (typeof schema.additionalProperties === "object") walk(schema.additionalProperties, [...path, "*"], depth + 1);
  };
  const bodies = (content) =>
    Object.entries(content ?? {})
      .filter(([media]) => media.includes("json"))
      .map(([, value]) => value.schema);
  for (const document of [registry, sandbox])
    for (const item of Object.values(document.paths))
      for (const operation of Object.values(item)) {
        if (typeof operation !== "object" || operation === null || !("responses" in operation)) continue;
        for (const schema of bodies(operation.requestBody?.content)) walk(schema, [], 0);
        for (const response of Object.values(operation.responses))
          for (const schema of bodies(response.content)) walk(schema, [], 0);
      }
  if (found.size === 0) throw new Error("no member carries x-lrg-personal-data: the walk missed them");
  return [...found].sort().map((path) => JSON.parse(path));
}

/** The base of every problem's `type` URI: the Problem schema's `type` example without its code. */
function problemTypeBase() {
  const example = registry.components.schemas.Problem.properties.type.example;
  const match = /^(https:\/\/.+\/)\d{3}-\d{2}$/.exec(example ?? "");
  if (!match) throw new Error(`Problem's type example ${example} is not a URI ending in a problem code`);
  return match[1];
}

const constant = (doc, name, value, type = "") =>
  `/** ${doc} */\nexport const ${name}${type} = ${JSON.stringify(value, null, 2)} as const;\n`;
files["constants.ts"] = [
  "// Generated from spec/dist/*.dereferenced.json by spec/scripts/generate-library.mjs. Do not edit.\n",
  constant(
    "Largest document the registry takes, in bytes (UploadUrlRequest `data.file_length` maximum).",
    "MAX_DOCUMENT_BYTES",
    bound("UploadUrlRequest", ["data", "file_length"], "maximum"),
  ),
  constant(
    "Longest message to a pending application (AttachMessageRequest `data.message_text` maxLength).",
    "MAX_MESSAGE_LENGTH",
    bound("AttachMessageRequest", ["data", "message_text"], "maxLength"),
  ),
  constant(
    "Deepest nesting of arrays and objects a JSON request body may have (`x-lrg-json-body-limits` max_depth).",
    "MAX_JSON_DEPTH",
    jsonBodyLimit("max_depth", 2),
  ),
  constant(
    "Largest JSON request body, in bytes (`x-lrg-json-body-limits` max_bytes): a larger one is refused 413-01.",
    "MAX_JSON_BODY_BYTES",
    jsonBodyLimit("max_bytes", 1024),
  ),
  constant(
    "Most notifications one page lists (NotificationListV1 `data` maxItems).",
    "NOTIFICATION_PAGE_SIZE",
    bound("NotificationListV1", ["data"], "maxItems"),
  ),
  constant(
    "Most notification ids one acknowledge call takes (AcknowledgeRequest `data` maxItems).",
    "MAX_ACKNOWLEDGE_IDS",
    bound("AcknowledgeRequest", ["data"], "maxItems"),
  ),
  constant(
    "Most system errors that may wait for one key (sandbox SandboxSystemErrors `pending` maximum).",
    "MAX_PENDING_SYSTEM_ERRORS",
    bound("SandboxSystemErrors", ["pending"], "maximum", sandbox),
  ),
  constant(
    "Most entries one page of the control plane's audit trail lists (sandbox SandboxAuditList `data` maxItems).",
    "AUDIT_PAGE_SIZE",
    bound("SandboxAuditList", ["data"], "maxItems", sandbox),
  ),
  constant(
    "The bounds of readiness runs (sandbox ReadinessRunList, ReadinessRunRequest and ReadinessObservation): most runs " +
      "a list answers, the default time limit, most observations a run keeps (`sequence` maximum), and what one " +
      "observation keeps of a request.",
    "READINESS_BOUNDS",
    {
      runsListed: bound("ReadinessRunList", ["data"], "maxItems", sandbox),
      defaultTimeLimitSeconds: bound("ReadinessRunRequest", ["time_limit_seconds"], "default", sandbox),
      observationsKept: bound("ReadinessObservation", ["sequence"], "maximum", sandbox),
      parametersKept: bound("ReadinessObservation", ["query"], "maxProperties", sandbox),
      valueLength: bound("ReadinessObservation", ["query", "*"], "maxLength", sandbox),
      acknowledgedIdsKept: bound("ReadinessObservation", ["acknowledged_ids"], "maxItems", sandbox),
      idempotencyKeyLength: bound("ReadinessObservation", ["idempotency_key"], "maxLength", sandbox),
      titleNumbersKept: bound("ReadinessObservation", ["submission_case", "title_numbers"], "maxItems", sandbox),
    },
  ),
  constant("The string enums of the component schemas of both documents, by schema name.", "enums", enums),
  constant("Every application status, in the spec's order.", "APPLICATION_STATUSES", statusSchema.enum),
  "/** An application status. */\nexport type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];\n",
  constant(
    "The problem catalogue (`x-lrg-problem-codes`, from components/problem-codes.yaml): code → status, title, when.",
    "problemCatalogue",
    catalogue,
  ),
  "/** A problem code of the catalogue. */\nexport type ProblemCode = keyof typeof problemCatalogue;\n",
  constant("The `type` URI of every problem, less its code (Problem `type`).", "PROBLEM_TYPE_BASE", problemTypeBase()),
  "/** The `type` URI of the problem with this code. */\n" +
    "export const problemTypeOf = (code: string): string => `${PROBLEM_TYPE_BASE}${code}`;\n",
  [
    "/** One allowed move of an application between statuses (an entry of ApplicationStatus `x-lrg-transitions`). */",
    "export interface Transition {",
    "  from: ApplicationStatus;",
    "  to: ApplicationStatus;",
    "  trigger: string;",
    "  source: string;",
    "  notifications: { v1: string; v0: string };",
    "}\n",
  ].join("\n"),
  constant(
    "The application state machine's transitions, in the spec's order.",
    "transitions",
    transitions,
    ": readonly Transition[]",
  ).replace(" as const;", ";"),
  constant(
    "Extra prefixes under which a path also answers: the notification services under /api, as the registry's test stubs.",
    "pathAliases",
    pathAliases,
    ": Readonly<Record<string, readonly string[]>>",
  ).replace(" as const;", ";"),
  constant(
    "The registry's rate limits (`x-lrg-rate-limit`), by operationId: requests a minute, counted per user or per business unit.",
    "rateLimits",
    rateLimits,
  ),
  constant(
    "The failed-login budgets of HTTP Basic (`x-lrg-failed-login-limit` on basicAuth): failures a bucket holds and refills a minute, per client address and per username.",
    "failedLoginLimit",
    failedLoginLimit,
  ),
  constant(
    "Where JSON bodies hold personal data (members marked `x-lrg-personal-data`): paths of member names from the body's root, `*` for a key of a map; array items share their array's path.",
    "PERSONAL_DATA_PATHS",
    personalDataPaths(),
    ": readonly (readonly string[])[]",
  ).replace(" as const;", ";"),
  constant(
    "The Markdown table of scenario titles of the simulated register (officialSearchOfWhole's description).",
    "SCENARIO_TITLES_TABLE",
    scenarioTitlesTable(),
  ),
].join("\n");

const drift = [];
for (const [file, text] of Object.entries(files)) {
  const path = join(outDir, file);
  if (!check) {
    mkdirSync(outDir, { recursive: true });
    writeIfChanged(path, text);
    continue;
  }
  let committed;
  try {
    committed = readFileSync(path, "utf8");
  } catch {
    committed = undefined;
  }
  if (committed !== text) drift.push(`src/generated/${file}`);
}
if (drift.length > 0) {
  console.error(
    `generated library sources are out of date (${drift.join(", ")}); run \`pnpm --filter @lrg/spec generate\` and commit.`,
  );
  process.exit(1);
}
console.log(check ? "src/generated matches spec/dist." : "wrote src/generated from spec/dist.");
