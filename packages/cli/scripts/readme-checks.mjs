#!/usr/bin/env node
// Writes the README's table of how `lrg readiness judge` judges each check on a recording, from the checks themselves
// (`@lrg/gateway/readiness-judges`: each check's `offline.occasion`), so that a check added to the gateway is listed
// here without an edit by hand. Run by the build; `--check` exits 1, naming the README, when the table is stale.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { writeIfChanged } from "@lrg/spec/write-if-changed";

const README = join(import.meta.dirname, "..", "README.md");
const BEGIN =
  "<!-- readiness-judge-checks: written by scripts/readme-checks.mjs from each check's offline occasion -->";
const END = "<!-- end of readiness-judge-checks -->";

const { CHECK_NAMES, offlineOccasion } = await import("@lrg/gateway/readiness-judges").catch((error) => {
  console.error(`readme-checks: @lrg/gateway is not built (${error.message}); build it first`);
  process.exit(2);
});
const table = [
  "| Check | Occasion in the recording, and what is judged |",
  "| --- | --- |",
  ...CHECK_NAMES.map((name) => `| \`${name}\` | ${offlineOccasion(name).replaceAll("|", "\\|")} |`),
].join("\n");

const before = readFileSync(README, "utf8");
const start = before.indexOf(BEGIN);
const end = before.indexOf(END);
if (start < 0 || end < start) {
  console.error(`readme-checks: ${README} lacks the markers ${BEGIN} … ${END}`);
  process.exit(2);
}
// The table alone is formatted (the READMEs are not: the docs runner reads them as written).
const formatted = (await format(table, { ...(await resolveConfig(README)), parser: "markdown" })).trimEnd();
const after = `${before.slice(0, start + BEGIN.length)}\n\n${formatted}\n\n${before.slice(end)}`;
if (after === before) process.exit(0);
if (process.argv.includes("--check")) {
  console.error(`readme-checks: the table of checks in ${README} is stale: run the build of @lrg/cli`);
  process.exit(1);
}
writeIfChanged(README, after);
console.error(`readme-checks: wrote the table of checks in ${README}`);
