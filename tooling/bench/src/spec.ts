// The two bundled spec documents, dereferenced (every schema inline), as the fuzzer and the conformance check read
// them: one entry per operation, with the path item's parameters merged into the operation's own.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A JSON Schema (or any other object) of the spec. */
export type Schema = Record<string, unknown>;

/** A parameter of an operation. */
export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: Schema;
  example?: unknown;
}

/** What the spec documents for one status of an operation. */
export interface ResponseSpec {
  /** Media type → schema (undefined when the media type has none, e.g. application/pdf). */
  content: Map<string, Schema | undefined>;
  /** Header names (lower case) the spec marks `required`. */
  requiredHeaders: string[];
}

/** One operation of one of the two documents. */
export interface Operation {
  document: "openapi" | "sandbox";
  operationId: string;
  method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  /** The path template, e.g. `/v0/applications/{id}/information`. */
  path: string;
  tags: string[];
  security: "basic" | "bearer" | "none";
  parameters: Parameter[];
  /** Media type → schema of the request body, when the operation takes one. */
  requestBody: { required: boolean; content: Map<string, Schema | undefined>; examples: unknown[] } | undefined;
  responses: Map<number, ResponseSpec>;
  /** Extra prefixes under which the gateway also answers this operation (`/api` for the notification services). */
  aliases: string[];
}

/** The registry interface (`spec/dist/openapi.dereferenced.json`). */
export const openapi = require("@lrg/spec/openapi.dereferenced.json") as Schema;
/** The sandbox control plane (`spec/dist/sandbox.dereferenced.json`). */
export const sandbox = require("@lrg/spec/sandbox.dereferenced.json") as Schema;

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function examplesOf(media: Schema): unknown[] {
  const named = Object.values((media["examples"] ?? {}) as Record<string, { value?: unknown }>).map((example) => example.value);
  return [...(media["example"] !== undefined ? [media["example"]] : []), ...named].filter((value) => value !== undefined);
}

function securityOf(document: Schema, operation: Schema): Operation["security"] {
  const requirements = (operation["security"] ?? document["security"] ?? []) as Record<string, unknown>[];
  const schemes = requirements.flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes("basicAuth")) return "basic";
  if (schemes.includes("sandboxToken")) return "bearer";
  return "none";
}

function operationsOfDocument(document: Schema, name: Operation["document"]): Operation[] {
  return Object.entries(document["paths"] as Record<string, Schema>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method): Operation => {
      const own = item[method] as Schema;
      const shared = (item["parameters"] ?? []) as Schema[];
      const ownParameters = (own["parameters"] ?? []) as Schema[];
      const key = (p: Schema) => `${String(p["in"])}:${String(p["name"])}`;
      const overridden = new Set(ownParameters.map(key));
      const parameters = [...shared.filter((p) => !overridden.has(key(p))), ...ownParameters].map(
        (p): Parameter => ({
          name: String(p["name"]),
          in: p["in"] as Parameter["in"],
          required: p["required"] === true,
          schema: (p["schema"] ?? {}) as Schema,
          ...(p["example"] !== undefined ? { example: p["example"] } : {}),
        }),
      );
      const body = own["requestBody"] as Schema | undefined;
      const bodyContent = (body?.["content"] ?? {}) as Record<string, Schema>;
      const responses = new Map(
        Object.entries(own["responses"] as Record<string, Schema>).map(([status, response]) => [
          Number(status),
          {
            content: new Map(Object.entries((response["content"] ?? {}) as Record<string, Schema>).map(([type, media]) => [type, media["schema"] as Schema | undefined])),
            requiredHeaders: Object.entries((response["headers"] ?? {}) as Record<string, Schema>)
              .filter(([, header]) => header["required"] === true)
              .map(([header]) => header.toLowerCase()),
          },
        ]),
      );
      return {
        document: name,
        operationId: String(own["operationId"]),
        method: method.toUpperCase() as Operation["method"],
        path,
        tags: (own["tags"] ?? []) as string[],
        security: securityOf(document, own),
        parameters,
        requestBody:
          body === undefined
            ? undefined
            : {
                required: body["required"] === true,
                content: new Map(Object.entries(bodyContent).map(([type, media]) => [type, media["schema"] as Schema | undefined])),
                examples: Object.values(bodyContent).flatMap(examplesOf),
              },
        responses,
        aliases: path.includes("/notifications") ? ["/api"] : [],
      };
    }),
  );
}

/** Every operation of both documents, in document order. */
export const operations: Operation[] = [...operationsOfDocument(openapi, "openapi"), ...operationsOfDocument(sandbox, "sandbox")];

/** A component schema of the registry spec by name (e.g. `Problem`). */
export function componentSchema(name: string): Schema {
  const schema = (openapi["components"] as { schemas: Record<string, Schema> }).schemas[name];
  if (schema === undefined) throw new Error(`no component schema ${name} in the spec`);
  return schema;
}

/** The problem codes of the spec's catalogue (`x-lrg-problem-codes`) with their statuses. */
export const problemCodes = new Map(
  Object.entries(openapi["x-lrg-problem-codes"] as Record<string, { status: number }>).map(([code, entry]) => [code, entry.status]),
);

const matchers = operations.flatMap((operation) =>
  ["", ...operation.aliases].map((prefix) => ({
    operation,
    // An empty segment still reaches the operation (the router takes it as an empty parameter).
    pattern: new RegExp(`^${prefix}${operation.path.replace(/\{\w+\}/g, "[^/]*")}$`),
  })),
);

/** The operation a request addresses (HEAD addresses the GET of its path), or undefined for an unmatched route. */
export function operationFor(method: string, pathname: string): Operation | undefined {
  const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  return matchers.find((m) => m.operation.method === wanted && m.pattern.test(pathname))?.operation;
}
