// The bundled spec as the suite reads it: operations with their parameters and responses, the state machine,
// the problem catalogue. Nothing here re-declares what the spec holds.
import { specFile, specJson } from "./spec-files.js";

/** A JSON value of the bundled spec. */
export type SpecNode = Record<string, unknown>;

/** The registry interface, dereferenced (every schema inline). */
export const registrySpec = specJson<SpecNode>("openapi.dereferenced.json");
/** The sandbox control plane, dereferenced. */
export const sandboxSpec = specJson<SpecNode>("sandbox.dereferenced.json");

/** One operation of either document, with the parameters of its path item merged in. */
export interface OperationInfo {
  document: "registry" | "sandbox";
  operationId: string;
  method: string;
  path: string;
  /** Matches a request path (no query) addressed to this operation. */
  pattern: RegExp;
  parameters: SpecNode[];
  operation: SpecNode;
  responses: Record<string, SpecNode>;
  /** Whether the operation needs HTTP Basic (else: the sandbox token, or nothing for signed addresses). */
  security: "basic" | "bearer" | "none";
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function securityOf(document: SpecNode, operation: SpecNode): OperationInfo["security"] {
  const requirements = (operation["security"] ?? document["security"] ?? []) as Record<string, unknown>[];
  const schemes = requirements.flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes("basicAuth")) return "basic";
  if (schemes.includes("sandboxToken")) return "bearer";
  return "none";
}

function operationsOf(document: SpecNode, name: OperationInfo["document"]): OperationInfo[] {
  return Object.entries(document["paths"] as Record<string, SpecNode>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as SpecNode;
      const own = (operation["parameters"] ?? []) as SpecNode[];
      const shared = ((item["parameters"] ?? []) as SpecNode[]).filter((p) => !own.some((o) => o["name"] === p["name"] && o["in"] === p["in"]));
      // The notification operations also answer under /api, the base of the registry's test stubs.
      const prefix = path.includes("/notifications") ? "(/api)?" : "";
      return {
        document: name,
        operationId: String(operation["operationId"]),
        method,
        path,
        pattern: new RegExp(`^${prefix}${path.replace(/\{\w+\}/g, "[^/]+")}$`),
        parameters: [...shared, ...own],
        operation,
        responses: operation["responses"] as Record<string, SpecNode>,
        security: securityOf(document, operation),
      };
    }),
  );
}

/** Every operation of the registry interface and of the control plane, in document order. */
export const operations: readonly OperationInfo[] = [...operationsOf(registrySpec, "registry"), ...operationsOf(sandboxSpec, "sandbox")];

/** The operation a request addresses, or undefined when none of the spec's paths matches. */
export function operationFor(method: string, path: string): OperationInfo | undefined {
  const lower = method.toLowerCase();
  return operations.find((o) => o.method === lower && o.pattern.test(path));
}

/** The operation with this operationId (throws when the spec has none: a suite bug). */
export function operationById(operationId: string): OperationInfo {
  const found = operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`the spec has no operation ${operationId}`);
  return found;
}

/** A component schema of the registry interface. */
export function componentSchema(name: string): SpecNode {
  const schema = (registrySpec["components"] as { schemas: Record<string, SpecNode> }).schemas[name];
  if (!schema) throw new Error(`the spec has no component schema ${name}`);
  return schema;
}

/** One allowed move of the application state machine (`x-lrg-transitions`). */
export interface Transition {
  from: string;
  to: string;
  trigger: string;
  notifications: { v1: string; v0: string };
}

/** The application state machine as the spec states it. */
export const transitions = componentSchema("ApplicationStatus")["x-lrg-transitions"] as Transition[];
/** Every application status. */
export const applicationStatuses = componentSchema("ApplicationStatus")["enum"] as string[];

/** The problem catalogue (`x-lrg-problem-codes`): code → status and title. */
export const problemCodes = registrySpec["x-lrg-problem-codes"] as Record<string, { status: number; title: string; when: string }>;

/** Enum values of a component schema. */
export function enumOf(name: string): string[] {
  return componentSchema(name)["enum"] as string[];
}

/** The traceability table of the spec package (`spec/TRACEABILITY.md`; installed from a tarball, the build's copy). */
export function traceabilityFile(): string {
  return specFile("TRACEABILITY.md");
}

/** The registry's error envelope an operation answers its errors in (`x-lrg-error-envelope`), if any. */
export function errorEnvelopeOf(operation: OperationInfo): { schema: string; codes: Record<string, string> } | undefined {
  const envelope = operation.operation["x-lrg-error-envelope"] as { schema: string; codes?: Record<string, string> } | undefined;
  return envelope && { schema: envelope.schema, codes: envelope.codes ?? {} };
}

/** The code an operation writes for one of the catalogue's problem codes: the registry's, where its envelope maps one. */
export function errorCodeFor(operation: OperationInfo, problemCode: string): string {
  return errorEnvelopeOf(operation)?.codes[problemCode] ?? problemCode;
}

/** The catalogue's problem codes an operation may mean by a code it wrote (a registry code maps back to several). */
export function problemCodesFor(operation: OperationInfo, code: string): string[] {
  const mapped = Object.entries(errorEnvelopeOf(operation)?.codes ?? {}).filter(([, registry]) => registry === code).map(([problem]) => problem);
  return problemCodes[code] ? [code, ...mapped] : mapped;
}
