// The bundled documents, dereferenced (every schema inline), read once from beside the built library:
// dist/lib/ in this package, or the copy a consumer's build inlines (bin/inline.mjs keeps the same layout).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** A JSON object of the spec (an operation, a schema, a response...). */
export type SpecNode = Record<string, unknown>;

/** The two documents: the registry interface and the sandbox control plane. */
export type DocumentName = "registry" | "sandbox";

/** A bundled file: beside the built library's folder, or in dist/ when the sources run directly (the spec's tests). */
function bundled(file: string): string {
  const built = fileURLToPath(new URL(`../${file}`, import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
}

const load = (file: string): SpecNode => JSON.parse(readFileSync(bundled(file), "utf8")) as SpecNode;

/** The registry interface (`openapi.dereferenced.json`). */
export const openapi: SpecNode = load("openapi.dereferenced.json");
/** The sandbox control plane (`sandbox.dereferenced.json`). */
export const sandbox: SpecNode = load("sandbox.dereferenced.json");

/** A document by name. */
export const documents: Readonly<Record<DocumentName, SpecNode>> = { registry: openapi, sandbox };

/** A bundled artifact a consumer serves or hands to a tool (Prism, Redoc, a download). */
export type Artifact = "openapi.json" | "openapi.yaml" | "sandbox.json" | "sandbox.yaml";

/** The absolute path of a bundled artifact. */
export function artifactPath(name: Artifact): string {
  return bundled(name);
}
