#!/usr/bin/env node
// Build step after tsc: copies the spec files the suite reads into dist/spec/, so that a packed
// @lrg/conformance carries the spec it was built against (@lrg/spec is a workspace package, not published).
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { bundledSpecDir, SPEC_FILES, workspaceSpecFile } from "../dist/spec-files.js";

rmSync(bundledSpecDir, { recursive: true, force: true });
for (const name of SPEC_FILES) {
  const source = workspaceSpecFile(name);
  if (source === undefined) throw new Error(`@lrg/spec has no ${name}: build the spec first`);
  const target = join(bundledSpecDir, name);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(source, target);
}
console.log(`copied ${SPEC_FILES.length} spec files to ${bundledSpecDir}`);
