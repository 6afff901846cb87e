#!/usr/bin/env node
// Writes src/readiness/checks.ts, the table of every readiness check, from the spec's `ReadinessCheckName` (its
// order is the order a run answers them in): each name's module is `src/readiness/<name>.ts`, exporting the check
// under the name in camel case. So a check added to the spec needs its module and nothing else; until the module
// exists, the type check fails on its import. Run by the build; `--check` exits 1, naming the file, when it is stale.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { writeIfChanged } from "@lrg/spec/write-if-changed";

const TABLE = join(import.meta.dirname, "..", "src", "readiness", "checks.ts");

const { componentSchema } = await import("@lrg/spec").catch((error) => {
  console.error(`readiness-checks: @lrg/spec is not built (${error.message}); build it first`);
  process.exit(2);
});
const names = componentSchema("ReadinessCheckName", "sandbox").enum;
const camel = (name) => name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

const text = [
  "// Written by scripts/readiness-checks.mjs from the spec's ReadinessCheckName, in its order: do not edit. Each",
  "// check's module is ./<name>.ts, exporting it under the name in camel case; a name added to the spec is a failed",
  "// import here until its module exists.",
  `import { runCheckOf, type CheckName, type RunCheck } from "./check.js";`,
  ...names.map((name) => `import { ${camel(name)} } from "./${name}.js";`),
  "",
  "/** Every readiness check, by the name the spec gives it, in the order a run answers them in. */",
  "export const CHECKS: { readonly [Name in CheckName]: RunCheck } = {",
  ...names.map((name) => `  ${JSON.stringify(name)}: runCheckOf(${camel(name)}),`),
  "};",
  "",
  "/** The check names, in the order of CHECKS. */",
  "export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];",
  "",
].join("\n");
const formatted = await format(text, { ...(await resolveConfig(TABLE)), parser: "typescript" });

if (process.argv.includes("--check")) {
  if (formatted === readFileSync(TABLE, "utf8")) process.exit(0);
  console.error(`readiness-checks: ${TABLE} is stale: run the build of @lrg/gateway`);
  process.exit(1);
}
// Whole or not at all: the type check of the same turbo run may be reading the table.
if (writeIfChanged(TABLE, formatted)) console.error(`readiness-checks: wrote ${TABLE}`);
