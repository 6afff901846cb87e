// The one place the gateway takes the spec's generated types from: handlers, services and the registrar import them
// here, so that moving the generated tree (to `@lrg/spec`) changes this file alone.
type OpenapiDocument = typeof import("@lrg/spec/openapi.json", { with: { type: "json" } });

export type { components, operations as RegistryOperations } from "./generated/openapi.js";
export type { components as SandboxComponents, operations as SandboxOperations } from "./generated/sandbox.js";

/** The problem codes of the spec's catalogue (`x-lrg-problem-codes` in `spec/components/problem-codes.yaml`). */
export type ProblemCode = keyof OpenapiDocument["x-lrg-problem-codes"] & string;
