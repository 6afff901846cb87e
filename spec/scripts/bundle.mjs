#!/usr/bin/env node
// Bundles the split spec into the artifacts every consumer reads (dist/), and renders the reference docs.
// Both modes bundle into a temporary folder first. `--check` then fails when the committed dist/ differs (drift
// check); otherwise the files that differ replace those of dist/ (see write-if-changed.mjs).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeIfChanged } from "./write-if-changed.mjs";

const specDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const redocly = join(specDir, "node_modules", ".bin", "redocly");
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
const check = process.argv.includes("--check");
const outDir = mkdtempSync(join(tmpdir(), "lrg-spec-"));
const committed = join(specDir, "dist");

function run(args) {
  const result = spawnSync(redocly, args, { cwd: specDir, env, encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    process.exit(result.status ?? 1);
  }
}

for (const name of ["openapi", "sandbox"]) {
  run(["bundle", `${name}.yaml`, "-o", join(outDir, `${name}.yaml`)]);
  run(["bundle", `${name}.yaml`, "-o", join(outDir, `${name}.json`), "--ext", "json"]);
  run(["bundle", `${name}.yaml`, "-o", join(outDir, `${name}.dereferenced.json`), "--ext", "json", "--dereferenced"]);
}

if (check) {
  const drift = readdirSync(outDir).filter((file) => {
    try {
      return readFileSync(join(outDir, file), "utf8") !== readFileSync(join(committed, file), "utf8");
    } catch {
      return true;
    }
  });
  rmSync(outDir, { recursive: true, force: true });
  if (drift.length > 0) {
    console.error(
      `spec/dist is out of date (${drift.join(", ")}); run \`pnpm --filter @lrg/spec generate\` and commit.`,
    );
    process.exit(1);
  }
  console.log("spec/dist matches the sources.");
} else {
  mkdirSync(committed, { recursive: true });
  for (const file of readdirSync(outDir))
    writeIfChanged(join(committed, file), readFileSync(join(outDir, file), "utf8"));
  rmSync(outDir, { recursive: true, force: true });
  // The reference docs are built output, not committed (they embed the renderer).
  run(["build-docs", join("dist", "openapi.yaml"), "-o", join("dist", "docs", "index.html")]);
  console.log("bundled spec/dist and rendered spec/dist/docs/index.html");
}
