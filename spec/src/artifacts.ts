// Where the bundled files are, without reading them: for consumers that hand a file to a tool (Prism, Redoc)
// or serve it, and for the documents module that parses the dereferenced bundles.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A bundled file: beside the built library's folder, or in dist/ when the sources run directly (the spec's tests). */
export function bundled(file: string): string {
  const built = fileURLToPath(new URL(`../${file}`, import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
}

/** A bundled artifact a consumer serves or hands to a tool (Prism, Redoc, a download). */
export type Artifact = "openapi.json" | "openapi.yaml" | "sandbox.json" | "sandbox.yaml";

/** The absolute path of a bundled artifact. */
export function artifactPath(name: Artifact): string {
  return bundled(name);
}
