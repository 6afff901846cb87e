#!/usr/bin/env node
// Generates the handler types from the bundled spec (openapi-typescript). `--check` fails on drift.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const specDist = join(root, "node_modules", "@lrg", "spec", "dist");
const targets = [
  ["openapi.json", join(root, "src", "generated", "openapi.ts")],
  ["sandbox.json", join(root, "src", "generated", "sandbox.ts")],
];
const check = process.argv.includes("--check");
let drift = false;
for (const [source, target] of targets) {
  const file = join(specDist, source);
  const hash = createHash("sha256").update(readFileSync(file)).digest("hex");
  const ast = await openapiTS(pathToFileURL(file));
  const text = `// Generated from spec/dist/${source} (sha256 ${hash}) by openapi-typescript. Do not edit.\n\n${astToString(ast)}`;
  if (check) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {
      // missing counts as drift
    }
    if (current !== text) {
      console.error(`${target} is out of date; run the generate script and commit.`);
      drift = true;
    }
  } else {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}
if (drift) process.exit(1);
if (check) console.log("generated types match the spec.");
