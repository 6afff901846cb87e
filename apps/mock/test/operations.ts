// Turns each operation of the bundled spec (read through @lrg/spec) into valid requests and the answers it documents.
import type { Json, JsonObject, Operation, Parameter } from "@lrg/spec";

export type { Json, JsonObject };

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

function firstExampleOf(holder: JsonObject): Json | undefined {
  if (holder["example"] !== undefined) return holder["example"];
  const examples = holder["examples"];
  if (Array.isArray(examples)) return examples[0];
  if (isObject(examples)) {
    const first = Object.values(examples)[0];
    return isObject(first) ? first["value"] : undefined;
  }
  return undefined;
}

/** Last resort for a schema with nothing better: a value of its format or type that meets its minimums. */
function fromType(schema: JsonObject): Json | undefined {
  if (schema["format"] === "uuid") return "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";
  if (schema["type"] === "integer" || schema["type"] === "number")
    return typeof schema["minimum"] === "number" ? schema["minimum"] : 1;
  if (schema["type"] === "string")
    return "a".repeat(Math.max(1, typeof schema["minLength"] === "number" ? schema["minLength"] : 1));
  return undefined;
}

/** A value for a parameter: its example, its schema's example, default or first enum value, one made from the pattern, or one of its type. */
export function sampleParameter(parameter: Parameter): string {
  const schema = parameter.schema as JsonObject;
  const candidates = [
    firstExampleOf(parameter.spec as JsonObject),
    firstExampleOf(schema),
    schema["default"],
    Array.isArray(schema["enum"]) ? schema["enum"][0] : undefined,
    typeof schema["pattern"] === "string" ? sampleFromPattern(schema["pattern"]) : undefined,
  ];
  const value = candidates.find((candidate) => candidate !== undefined && candidate !== null) ?? fromType(schema);
  if (value === undefined)
    throw new Error(`no example, default, enum or simple pattern for parameter ${parameter.name}`);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Credentials the mock accepts (Prism checks that Basic credentials are present, not what they are). */
export const BASIC_AUTHORIZATION = `Basic ${Buffer.from("conveyancer:correct-horse").toString("base64")}`;

/** Bytes that stand for an uploaded file. */
const SAMPLE_FILE = Buffer.from("%PDF-1.7\n% a tiny stand-in for a scanned deed\n%%EOF\n");

/** A request that the operation accepts: path, required query and header parameters, a body from its examples, credentials. */
export function validRequest(
  op: Operation,
  baseUrl: string,
  options: { credentials?: boolean } = {},
): { url: string; init: RequestInit & { headers: Record<string, string> } } {
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of op.parameters) {
    if (parameter.in === "path")
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(sampleParameter(parameter)));
    else if (parameter.in === "query" && parameter.required) query.set(parameter.name, sampleParameter(parameter));
    else if (
      parameter.in === "header" &&
      (parameter.required || firstExampleOf(parameter.spec as JsonObject) !== undefined)
    ) {
      headers[parameter.name.toLowerCase()] = sampleParameter(parameter);
    }
  }
  let body: string | Buffer | undefined;
  const [mediaType] = op.requestBody?.content.keys() ?? [];
  if (mediaType !== undefined) {
    headers["content-type"] = mediaType;
    if (mediaType.endsWith("json")) {
      const example = op.requestBody?.examples[0];
      if (example === undefined) throw new Error(`${op.operationId}: no request body example`);
      body = JSON.stringify(example);
    } else {
      body = SAMPLE_FILE;
    }
  }
  if ((options.credentials ?? true) && op.security === "basic") headers["authorization"] = BASIC_AUTHORIZATION;
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
export function documentedAnswers(op: Operation): DocumentedAnswer[] {
  return [...op.responses].flatMap(([status, response]) => {
    const headerExamples: Record<string, string> = {};
    for (const [name, header] of Object.entries((response.spec["headers"] ?? {}) as Record<string, JsonObject>)) {
      const example = firstExampleOf(header);
      if (example !== undefined) headerExamples[name.toLowerCase()] = String(example);
    }
    const base = { operationId: op.operationId, status, headerExamples };
    const content = (response.spec["content"] ?? {}) as Record<string, JsonObject>;
    if (Object.keys(content).length === 0) {
      return [
        { ...base, mediaType: undefined, exampleName: undefined, example: undefined, alternativeMediaType: false },
      ];
    }
    return Object.entries(content).flatMap(([mediaType, media], index): DocumentedAnswer[] => {
      const examples = (media["examples"] ?? {}) as Record<string, JsonObject>;
      const named = Object.entries(examples).map(([exampleName, example]) => ({
        ...base,
        alternativeMediaType: index > 0,
        mediaType,
        exampleName,
        example: example["value"],
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
