// The one place the gateway takes the spec's generated types from (`@lrg/spec`, generated once for every package):
// handlers, services and the registrar import them here.
export type { components, operations as RegistryOperations } from "@lrg/spec/types/openapi";
export type { components as SandboxComponents, operations as SandboxOperations } from "@lrg/spec/types/sandbox";
export type { ProblemCode } from "@lrg/spec";

import type { operations } from "@lrg/spec/types/openapi";
/** The name (operationId) of an operation of the registry interface: a renamed or removed one is a type error. */
export type RegistryOperationName = keyof operations;
