// Reads the bundled spec and turns each operation into valid requests and the answers it documents.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** spec/dist/openapi.json, parsed. */
export function loadSpec(): JsonObject {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve("@lrg/spec/openapi.json"), "utf8")) as JsonObject;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows local `$ref`s (`#/components/...`) until a value that is not a reference. */
export function deref(spec: JsonObject, value: Json | undefined): Json | undefined {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current["$ref"] === "string"; hops += 1) {
    if (hops > 20) throw new Error(`reference cycle at ${current["$ref"]}`);
    const ref = current["$ref"];
    if (!ref.startsWith("#/")) throw new Error(`only local references are expected in the bundle: ${ref}`);
    current = ref
      .slice(2)
      .split("/")
      .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<Json | undefined>((node, token) => (isObject(node) ? node[token] : undefined), spec);
    if (current === undefined) throw new Error(`unresolved reference ${ref}`);
  }
  return current;
}

function derefObject(spec: JsonObject, value: Json | undefined): JsonObject {
  const resolved = deref(spec, value);
  return isObject(resolved) ? resolved : {};
}

/** One operation of the spec and where it sits. */
export interface Operation {
  operationId: string;
  method: string;
  path: string;
  operation: JsonObject;
  /** Path-level parameters followed by the operation's own, dereferenced. */
  parameters: JsonObject[];
}

/** Every operation of the document, in document order. */
export function operationsOf(spec: JsonObject): Operation[] {
  const paths = spec["paths"] as Record<string, JsonObject>;
  return Object.entries(paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => isObject(item[method])).map((method) => {
      const operation = item[method] as JsonObject;
      const shared = (item["parameters"] as Json[] | undefined) ?? [];
      const own = (operation["parameters"] as Json[] | undefined) ?? [];
      return {
        operationId: String(operation["operationId"]),
        method: method.toUpperCase(),
        path,
        operation,
        parameters: [...shared, ...own].map((parameter) => derefObject(spec, parameter)),
      };
    }),
  );
}

/**
 * A string that matches a simple pattern made of literals and character classes with counts, such as
 * `^[0-9a-f]{64}$` or `^[A-Z]{2}[0-9]{6}$`: each class contributes its first character. Undefined for
 * anything richer (alternation, groups), where an example must be given instead.
 */
export function sampleFromPattern(pattern: string): string | undefined {
  const body = pattern.replace(/^\^/, "").replace(/\$$/, "");
  const token = /(\[(\^?)([^\]]+)\]|\\d|[A-Za-z0-9_-])(?:\{(\d+)(?:,(\d*))?\}|([+*?]))?/y;
  let out = "";
  let index = 0;
  while (index < body.length) {
    token.lastIndex = index;
    const match = token.exec(body);
    if (match === null) return undefined;
    const [whole, atom = "", negated, members, min, , quantifier] = match;
    if (negated === "^") return undefined;
    const char = atom === "\\d" ? "0" : members !== undefined ? members.charAt(0) : atom;
    const count = min !== undefined ? Number(min) : quantifier === "*" || quantifier === "?" ? 0 : 1;
    out += char.repeat(count);
    index += whole.length;
  }
  return out;
}

function firstExampleOf(spec: JsonObject, holder: JsonObject): Json | undefined {
  if (holder["example"] !== undefined) return holder["example"];
  const examples = holder["examples"];
  if (Array.isArray(examples)) return examples[0];
  if (isObject(examples)) {
    const first = Object.values(examples)[0];
    return first === undefined ? undefined : derefObject(spec, first)["value"];
  }
  return undefined;
}

/** Last resort for a schema with nothing better: a value of its format or type that meets its minimums. */
function fromType(schema: JsonObject): Json | undefined {
  if (schema["format"] === "uuid") return "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";
  if (schema["type"] === "integer" || schema["type"] === "number") return typeof schema["minimum"] === "number" ? schema["minimum"] : 1;
  if (schema["type"] === "string") return "a".repeat(Math.max(1, typeof schema["minLength"] === "number" ? schema["minLength"] : 1));
  return undefined;
}

/** A value for a parameter: its example, its schema's example, default or first enum value, one made from the pattern, or one of its type. */
export function sampleParameter(spec: JsonObject, parameter: JsonObject): string {
  const schema = derefObject(spec, parameter["schema"]);
  const candidates = [
    firstExampleOf(spec, parameter),
    firstExampleOf(spec, schema),
    schema["default"],
    Array.isArray(schema["enum"]) ? schema["enum"][0] : undefined,
    typeof schema["pattern"] === "string" ? sampleFromPattern(schema["pattern"]) : undefined,
  ];
  const value = candidates.find((candidate) => candidate !== undefined && candidate !== null) ?? fromType(schema);
  if (value === undefined) throw new Error(`no example, default, enum or simple pattern for parameter ${String(parameter["name"])}`);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Credentials the mock accepts (Prism checks that Basic credentials are present, not what they are). */
export const BASIC_AUTHORIZATION = `Basic ${Buffer.from("conveyancer:correct-horse").toString("base64")}`;

/** Whether the operation asks for HTTP Basic (the pre-signed upload and download addresses do not). */
export function needsBasicAuth(spec: JsonObject, op: Operation): boolean {
  const security = (op.operation["security"] ?? spec["security"] ?? []) as JsonObject[];
  return security.some((requirement) => "basicAuth" in requirement);
}

/** Bytes that stand for an uploaded file. */
const SAMPLE_FILE = Buffer.from("%PDF-1.7\n% a tiny stand-in for a scanned deed\n%%EOF\n");

/** A request that the operation accepts: path, required query and header parameters, a body from its examples, credentials. */
export function validRequest(
  spec: JsonObject,
  op: Operation,
  baseUrl: string,
  options: { credentials?: boolean } = {},
): { url: string; init: RequestInit & { headers: Record<string, string> } } {
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of op.parameters) {
    const name = String(parameter["name"]);
    const required = parameter["required"] === true;
    const where = parameter["in"];
    if (where === "path") path = path.replace(`{${name}}`, encodeURIComponent(sampleParameter(spec, parameter)));
    else if (where === "query" && required) query.set(name, sampleParameter(spec, parameter));
    else if (where === "header" && (required || firstExampleOf(spec, parameter) !== undefined)) {
      headers[name.toLowerCase()] = sampleParameter(spec, parameter);
    }
  }
  let body: string | Buffer | undefined;
  const requestBody = derefObject(spec, op.operation["requestBody"]);
  const content = requestBody["content"];
  if (isObject(content)) {
    const [mediaType, media] = Object.entries(content)[0] ?? [];
    if (mediaType !== undefined) {
      headers["content-type"] = mediaType;
      if (mediaType.endsWith("json")) {
        const example = firstExampleOf(spec, derefObject(spec, media));
        if (example === undefined) throw new Error(`${op.operationId}: no request body example`);
        body = JSON.stringify(example);
      } else {
        body = SAMPLE_FILE;
      }
    }
  }
  if ((options.credentials ?? true) && needsBasicAuth(spec, op)) headers["authorization"] = BASIC_AUTHORIZATION;
  const search = query.size > 0 ? `?${query.toString()}` : "";
  const init: RequestInit & { headers: Record<string, string> } = { method: op.method, headers, redirect: "manual" };
  if (body !== undefined) init.body = body;
  return { url: `${baseUrl}${path}${search}`, init };
}

/** One documented answer: a status, a media type (none for an empty body) and, when given, a named example. */
export interface DocumentedAnswer {
  operationId: string;
  status: number;
  mediaType: string | undefined;
  exampleName: string | undefined;
  example: Json | undefined;
  /** Whether another media type comes first for this status (Prism validates its answer against the first one). */
  alternativeMediaType: boolean;
  /** Response headers that carry an example, with the example as Prism sends it. */
  headerExamples: Record<string, string>;
}

/** Every (status, media type, example) the operation documents, in document order. */
export function documentedAnswers(spec: JsonObject, op: Operation): DocumentedAnswer[] {
  const responses = op.operation["responses"] as JsonObject;
  return Object.entries(responses).flatMap(([status, raw]) => {
    const response = derefObject(spec, raw);
    const headerExamples: Record<string, string> = {};
    for (const [name, header] of Object.entries(derefObject(spec, response["headers"]))) {
      const example = firstExampleOf(spec, derefObject(spec, header));
      if (example !== undefined) headerExamples[name.toLowerCase()] = String(example);
    }
    const base = { operationId: op.operationId, status: Number(status), headerExamples };
    const content = derefObject(spec, response["content"]);
    if (Object.keys(content).length === 0) {
      return [{ ...base, mediaType: undefined, exampleName: undefined, example: undefined, alternativeMediaType: false }];
    }
    return Object.entries(content).flatMap(([mediaType, rawMedia], index): DocumentedAnswer[] => {
      const examples = derefObject(spec, derefObject(spec, rawMedia)["examples"]);
      const named = Object.entries(examples).map(([exampleName, example]) => ({
        ...base,
        alternativeMediaType: index > 0,
        mediaType,
        exampleName,
        example: derefObject(spec, example)["value"],
      }));
      return named.length > 0
        ? named
        : [{ ...base, alternativeMediaType: index > 0, mediaType, exampleName: undefined, example: undefined }];
    });
  });
}

/** One finding of Prism's request or response validation. */
export interface PrismViolation {
  severity: string;
  message: string;
  location?: string[];
}

/** The violations Prism reports in its `sl-violations` header, if any. */
export function prismViolations(response: Response): PrismViolation[] {
  const header = response.headers.get("sl-violations");
  return header === null ? [] : (JSON.parse(header) as PrismViolation[]);
}
