// The typed reader of the bundled documents: each operation with its method, path, security kind, parameters
// (the path item's merged in), request body and responses; component schemas. Every consumer reads the spec here.
import { pathAliases, problemCatalogue, type ProblemCode } from "./generated/constants.js";
import { documents, openapi, type DocumentName, type SpecNode } from "./documents.js";

/** An HTTP method as sent on the wire. */
export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE" | "PATCH";

/** A parameter of an operation. */
export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: SpecNode;
  example?: unknown;
  /** The parameter object as the spec writes it. */
  spec: SpecNode;
}

/** What the spec documents for one response status of an operation. */
export interface ResponseSpec {
  /** Media type → schema (undefined when the media type has none, e.g. application/pdf). */
  content: Map<string, SpecNode | undefined>;
  /** Header name (lower case) → whether required and its schema. */
  headers: Map<string, { required: boolean; schema: SpecNode | undefined }>;
  /** Header names (lower case) the spec marks `required`. */
  requiredHeaders: string[];
  /** Every example of every media type (`example` and the values of `examples`). */
  examples: unknown[];
  /** The response object as the spec writes it. */
  spec: SpecNode;
}

/** The request body of an operation. */
export interface RequestBodySpec {
  required: boolean;
  /** Media type → schema. */
  content: Map<string, SpecNode | undefined>;
  /** Every example of every media type (`example` and the values of `examples`). */
  examples: unknown[];
}

/** How an operation authenticates: HTTP Basic, the sandbox bearer token, or nothing (signed addresses). */
export type SecurityKind = "basic" | "bearer" | "none";

/** One operation of one of the two documents. */
export interface Operation {
  document: DocumentName;
  operationId: string;
  method: HttpMethod;
  /** The path template, e.g. `/v0/applications/{id}/information`. */
  path: string;
  tags: string[];
  security: SecurityKind;
  parameters: Parameter[];
  requestBody: RequestBodySpec | undefined;
  responses: Map<number, ResponseSpec>;
  /** Extra prefixes under which the operation also answers (`/api` for the notification services). */
  aliases: readonly string[];
  /** The operation object as the spec writes it (for `x-lrg-*` extensions and descriptions). */
  operation: SpecNode;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** The security kind of an operation: the spec's scheme names mapped once, here. */
export function securityOf(document: SpecNode, operation: SpecNode): SecurityKind {
  const requirements = (operation["security"] ?? document["security"] ?? []) as Record<string, unknown>[];
  const schemes = requirements.flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes("basicAuth")) return "basic";
  if (schemes.includes("sandboxToken")) return "bearer";
  return "none";
}

function examplesOf(media: SpecNode): unknown[] {
  const named = Object.values((media["examples"] ?? {}) as Record<string, { value?: unknown }>).map(
    (example) => example.value,
  );
  return [...(media["example"] !== undefined ? [media["example"]] : []), ...named].filter(
    (value) => value !== undefined,
  );
}

const contentOf = (holder: SpecNode | undefined) =>
  new Map(
    Object.entries((holder?.["content"] ?? {}) as Record<string, SpecNode>).map(([type, media]) => [
      type,
      media["schema"] as SpecNode | undefined,
    ]),
  );

function responseOf(response: SpecNode): ResponseSpec {
  const headers = new Map(
    Object.entries((response["headers"] ?? {}) as Record<string, SpecNode>).map(([name, header]) => [
      name.toLowerCase(),
      { required: header["required"] === true, schema: header["schema"] as SpecNode | undefined },
    ]),
  );
  return {
    content: contentOf(response),
    headers,
    requiredHeaders: [...headers].filter(([, header]) => header.required).map(([name]) => name),
    examples: Object.values((response["content"] ?? {}) as Record<string, SpecNode>).flatMap(examplesOf),
    spec: response,
  };
}

function parameterOf(p: SpecNode): Parameter {
  return {
    name: String(p["name"]),
    in: p["in"] as Parameter["in"],
    required: p["required"] === true,
    schema: (p["schema"] ?? {}) as SpecNode,
    ...(p["example"] !== undefined ? { example: p["example"] } : {}),
    spec: p,
  };
}

/**
 * The operations of a dereferenced document (every `$ref` replaced by what it points to), read as the document `name`
 * of the spec: the bundled ones below, or another version of one given by a user (`lrg drift --spec`).
 */
export function readOperations(document: SpecNode, name: DocumentName): Operation[] {
  return Object.entries(document["paths"] as Record<string, SpecNode>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method): Operation => {
      const own = item[method] as SpecNode;
      // Parameters of the path item apply to each of its operations; an operation's own win (same name and place).
      const ownParameters = (own["parameters"] ?? []) as SpecNode[];
      const key = (p: SpecNode) => `${String(p["in"])}:${String(p["name"])}`;
      const overridden = new Set(ownParameters.map(key));
      const shared = ((item["parameters"] ?? []) as SpecNode[]).filter((p) => !overridden.has(key(p)));
      const body = own["requestBody"] as SpecNode | undefined;
      return {
        document: name,
        operationId: String(own["operationId"]),
        method: method.toUpperCase() as HttpMethod,
        path,
        tags: (own["tags"] ?? []) as string[],
        security: securityOf(document, own),
        parameters: [...shared, ...ownParameters].map(parameterOf),
        requestBody:
          body === undefined
            ? undefined
            : {
                required: body["required"] === true,
                content: contentOf(body),
                examples: Object.values((body["content"] ?? {}) as Record<string, SpecNode>).flatMap(examplesOf),
              },
        responses: new Map(
          Object.entries(own["responses"] as Record<string, SpecNode>).map(([status, response]) => [
            Number(status),
            responseOf(response),
          ]),
        ),
        aliases: pathAliases[path] ?? [],
        operation: own,
      };
    }),
  );
}

/** Every operation of both documents, the registry interface first, in document order. */
export const operations: readonly Operation[] = [
  ...readOperations(documents.registry, "registry"),
  ...readOperations(documents.sandbox, "sandbox"),
];

/** The operations of one document. */
export function operationsOf(document: DocumentName): Operation[] {
  return operations.filter((operation) => operation.document === document);
}

/** The operation with this operationId (throws when the spec has none: a caller's bug). */
export function operationById(operationId: string): Operation {
  const found = operations.find((operation) => operation.operationId === operationId);
  if (found === undefined) throw new Error(`the spec has no operation ${operationId}`);
  return found;
}

/**
 * The function that finds the operation a request addresses among `candidates` (HEAD addresses the GET of its path; a
 * query is ignored), or undefined.
 */
export function operationMatcher(
  candidates: readonly Operation[],
): (method: string, path: string) => Operation | undefined {
  const matchers = candidates.flatMap((operation) =>
    ["", ...operation.aliases].map((prefix) => ({
      operation,
      // An empty segment still reaches the operation (a router takes it as an empty parameter).
      pattern: new RegExp(`^${prefix}${operation.path.replace(/\{\w+\}/g, "[^/]*")}$`),
    })),
  );
  return (method, path) => {
    const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
    const pathname = path.split("?")[0] ?? "";
    return matchers.find((m) => m.operation.method === wanted && m.pattern.test(pathname))?.operation;
  };
}

/** The operation of the spec a request addresses (HEAD addresses the GET of its path; a query is ignored), or undefined. */
export const operationFor: (method: string, path: string) => Operation | undefined = operationMatcher(operations);

/**
 * A bundled document with every local `$ref` (`#/components/...`) replaced by the node it points to, as the dereferenced
 * bundles are; members written beside a `$ref` win over the target's. A node referenced twice is one object (validators
 * compiled per schema object are shared); a reference that points nowhere, or a cycle, throws.
 */
export function dereference(document: SpecNode): SpecNode {
  const resolving = new Set<string>();
  const resolved = new Map<string, unknown>();
  const target = (ref: string): unknown => {
    if (!ref.startsWith("#/")) throw new Error(`only local references are read: ${ref}`);
    let node: unknown = document;
    for (const part of ref.slice(2).split("/")) {
      const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
      if (node === undefined) throw new Error(`the reference ${ref} points nowhere`);
    }
    return node;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const { $ref: ref, ...siblings } = node as { $ref?: unknown };
    if (typeof ref === "string") {
      let value = resolved.get(ref);
      if (value === undefined) {
        if (resolving.has(ref)) throw new Error(`the reference ${ref} refers to itself`);
        resolving.add(ref);
        value = walk(target(ref));
        resolving.delete(ref);
        resolved.set(ref, value);
      }
      // OpenAPI 3.1 lets a reference carry members of its own (a default, a description): they win.
      if (Object.keys(siblings).length === 0) return value;
      const own = walk(siblings) as Record<string, unknown>;
      return { ...own, ...(value as Record<string, unknown>), ...own };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
  };
  return walk(document) as SpecNode;
}

/** A component schema by name (of the registry interface unless another document is named). */
export function componentSchema(name: string, document: DocumentName = "registry"): SpecNode {
  const schema = (documents[document]["components"] as { schemas: Record<string, SpecNode> }).schemas[name];
  if (schema === undefined) throw new Error(`the spec has no component schema ${name} in ${document}`);
  return schema;
}

/**
 * Every notification payload schema of the registry interface by its published name (`x-lrg-payload-schema`): the
 * gateway serves each at `/schemas/{name}.json`, the address a notification's `payload_schema` names.
 */
export function payloadSchemas(): Map<string, SpecNode> {
  const schemas = (documents.registry["components"] as { schemas: Record<string, SpecNode> }).schemas;
  return new Map(
    Object.values(schemas)
      .filter((schema) => typeof schema["x-lrg-payload-schema"] === "string")
      .map((schema) => [String(schema["x-lrg-payload-schema"]), schema]),
  );
}

/** The registry's error envelope an operation answers its errors in (`x-lrg-error-envelope`), if any. */
export function errorEnvelopeOf(operation: Operation): { schema: string; codes: Record<string, string> } | undefined {
  const envelope = operation.operation["x-lrg-error-envelope"] as
    { schema: string; codes?: Record<string, string> } | undefined;
  return envelope && { schema: envelope.schema, codes: envelope.codes ?? {} };
}

/** The code an operation writes for one of the catalogue's problem codes: the registry's, where its envelope maps one. */
export function errorCodeFor(operation: Operation, problemCode: string): string {
  return errorEnvelopeOf(operation)?.codes[problemCode] ?? problemCode;
}

/** The catalogue's problem codes an operation may mean by a code it wrote (a registry code maps back to several). */
export function problemCodesFor(operation: Operation, code: string): ProblemCode[] {
  const catalogued = (candidate: string): candidate is ProblemCode => candidate in problemCatalogue;
  const mapped = Object.entries(errorEnvelopeOf(operation)?.codes ?? {})
    .filter(([, registry]) => registry === code)
    .map(([problem]) => problem)
    .filter(catalogued);
  return catalogued(code) ? [code, ...mapped] : mapped;
}

/** Whose state an operation reads or changes (`x-lrg-scope`): one business unit's records, or what every unit shares. */
export type OperationScope = "business-unit" | "registry";

/** An operation's scope (`x-lrg-scope`); throws when the spec gives none (a test requires it on every operation). */
export function scopeOf(operation: Operation): OperationScope {
  const scope = operation.operation["x-lrg-scope"];
  if (scope === "business-unit" || scope === "registry") return scope;
  throw new Error(`the spec gives ${operation.operationId} no x-lrg-scope (business-unit or registry)`);
}

/** Whether a success changes the gateway for every caller: an operation of registry scope that is not a read. */
export function changesRegistry(operation: Operation): boolean {
  return scopeOf(operation) === "registry" && operation.method !== "GET";
}

/** Whether a success deletes records (`x-lrg-erases`): every unit's with the admin token, a unit's with its token. */
export function erasesRecords(operation: Operation): boolean {
  return operation.operation["x-lrg-erases"] === true;
}

/**
 * Whether an operation's successful answer may repeat the caller's own earlier requests: one of its schemas holds,
 * at any depth, a schema marked `x-lrg-echoes-request` (a readiness run's observations).
 */
export function echoesRequests(operation: Operation): boolean {
  const seen = new Set<SpecNode>();
  const marked = (node: unknown): boolean => {
    if (node === null || typeof node !== "object" || seen.has(node as SpecNode)) return false;
    seen.add(node as SpecNode);
    if ((node as SpecNode)["x-lrg-echoes-request"] === true) return true;
    return Object.values(node as SpecNode).some(marked);
  };
  return [...operation.responses]
    .filter(([status]) => status < 300)
    .some(([, response]) => [...response.content.values()].some(marked));
}

/**
 * Whether a success may turn on the sandbox's own faults for the business unit (`x-lrg-injects-faults`): 503-01 with
 * Retry-After, upload addresses issued expired (403-02), deferrals and 429s.
 */
export function injectsFaults(operation: Operation): boolean {
  return operation.operation["x-lrg-injects-faults"] === true;
}

/** Where an operation's signed address comes from (`x-lrg-signed-address`): the issuing operation, and a runtime
 * expression (`$response.body#/pointer` or `$response.header.Name`) for the place in its answer. */
export interface SignedAddress {
  issuedBy: Operation;
  address: string;
}

/** The signed address an operation is reached through, if it is (`x-lrg-signed-address`). */
export function signedAddressOf(operation: Operation): SignedAddress | undefined {
  const signed = operation.operation["x-lrg-signed-address"] as { "issued-by": string; address: string } | undefined;
  return signed && { issuedBy: operationById(signed["issued-by"]), address: signed.address };
}

/** How often a fuzzer draws the operation, relative to 10 (`x-lrg-fuzz-weight`, 10 when absent). */
export function fuzzWeightOf(operation: Operation): number {
  const weight = operation.operation["x-lrg-fuzz-weight"];
  return typeof weight === "number" && weight > 0 ? weight : 10;
}

/** The version of the registry interface (`info.version`). */
export const specVersion = String((openapi["info"] as SpecNode)["version"]);
