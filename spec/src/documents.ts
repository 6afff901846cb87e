// The bundled documents, dereferenced (every schema inline), read once from beside the built library:
// dist/lib/ in this package, or the copy a consumer's build inlines (bin/lrg-spec-inline.mjs keeps the same layout).
import { readFileSync } from "node:fs";
import { bundled } from "./artifacts.js";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** A JSON object of the spec (an operation, a schema, a response...). */
export type SpecNode = Record<string, unknown>;

/** The two documents: the registry interface and the sandbox control plane. */
export type DocumentName = "registry" | "sandbox";

const load = (file: string): SpecNode => JSON.parse(readFileSync(bundled(file), "utf8")) as SpecNode;

/** The registry interface (`openapi.dereferenced.json`). */
export const openapi: SpecNode = load("openapi.dereferenced.json");
/** The sandbox control plane (`sandbox.dereferenced.json`). */
export const sandbox: SpecNode = load("sandbox.dereferenced.json");

/** A document by name. */
export const documents: Readonly<Record<DocumentName, SpecNode>> = { registry: openapi, sandbox };
