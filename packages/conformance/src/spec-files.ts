// Where the suite finds the spec's files. In this workspace: through @lrg/spec, so a rebundled spec is read at
// once. Installed from a tarball (@lrg/spec is not published): the copy the build put in dist/spec/
// (scripts/copy-spec.mjs), so the suite checks the spec it was built with.
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** The build's copy of the spec files; src/ and dist/ both sit one level below the package. */
export const bundledSpecDir = fileURLToPath(new URL("../dist/spec/", import.meta.url));

/** Every spec file the suite reads, as @lrg/spec exports it: the build copies exactly these. */
export const SPEC_FILES = [
  "TRACEABILITY.md",
  "registry-data/application-types.json",
  "registry-data/document-types.json",
  "registry-data/territories.json",
  "registry-data/transaction-documents.json",
  "registry-data/transaction-types.json",
] as const;

/** A spec file the suite reads (a name outside SPEC_FILES fails type-checking, so the copy cannot miss it). */
export type SpecFileName = (typeof SPEC_FILES)[number];

/** The file as @lrg/spec has it, or undefined when @lrg/spec is not installed beside the suite. */
export function workspaceSpecFile(name: SpecFileName): string | undefined {
  try {
    return require.resolve(`@lrg/spec/${name}`);
  } catch {
    return undefined;
  }
}

/** A file of the spec: @lrg/spec's when installed, else the build's copy. */
export function specFile(name: SpecFileName): string {
  return workspaceSpecFile(name) ?? join(bundledSpecDir, name);
}

/** A JSON file of the spec, parsed. */
export function specJson<T>(name: SpecFileName): T {
  return require(specFile(name)) as T;
}

/** The traceability table of the spec package (`spec/TRACEABILITY.md`; installed from a tarball, the build's copy). */
export function traceabilityFile(): string {
  return specFile("TRACEABILITY.md");
}
