#!/usr/bin/env node
// Generates the `paths` types of the bundled spec into src/generated/ (committed, never edited by hand).
// `--check` generates into memory and fails when a committed file differs (drift check).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const workspaceDir = join(packageDir, "..", "..");
const check = process.argv.includes("--check");

const targets = [
  { spec: "spec/dist/openapi.json", out: "src/generated/openapi.ts" },
  { spec: "spec/dist/sandbox.json", out: "src/generated/sandbox.ts" },
];

let drift = [];
for (const { spec, out } of targets) {
  const specPath = join(workspaceDir, spec);
  const bytes = readFileSync(specPath);
  const hash = createHash("sha256").update(bytes).digest("hex");
  const ast = await openapiTS(pathToFileURL(specPath), { alphabetize: false, exportType: false, emptyObjectsUnknown: true });
  const header = `// Generated from ${spec} (sha256 ${hash}) by openapi-typescript. Do not edit.\n`;
  const text = header + "\n" + astToString(ast);
  const outPath = join(packageDir, out);
  if (check) {
    let committed;
    try {
      committed = readFileSync(outPath, "utf8");
    } catch {
      committed = undefined;
    }
    if (committed !== text) drift.push(relative(packageDir, outPath));
  } else {
    mkdirSync(dirname(outPath), { recursive: true });
    writeFileSync(outPath, text);
    console.log(`generated ${relative(packageDir, outPath)} from ${spec}`);
  }
}

if (check) {
  if (drift.length > 0) {
    console.error(`generated types are out of date (${drift.join(", ")}); run \`pnpm --filter @lrg/client generate\` and commit.`);
    process.exit(1);
  }
  console.log("src/generated matches spec/dist.");
}
