import fc from "fast-check";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import type { Parameter, SpecNode } from "@lrg/spec";

/**
 * What a schema admits as an outside contract tool reads it: draft-07 semantics (Prism's) with every format
 * checked, compiled apart from the gateway's own validators so that their reading is not taken for the spec's.
 */
const reader = new Ajv({ strict: false, validateFormats: true });
addFormats.default(reader);

/** The bounds of an integer with none declared: what a JSON number holds exactly. */
const SAFE = { min: BigInt(Number.MIN_SAFE_INTEGER), max: BigInt(Number.MAX_SAFE_INTEGER) };

/** Candidate values of a schema by its keywords, before the schema itself filters them. */
function candidates(schema: SpecNode): fc.Arbitrary<unknown> {
  if (Array.isArray(schema["enum"])) return fc.constantFrom(...(schema["enum"] as unknown[]));
  switch (schema["type"]) {
    case "integer": {
      const min = typeof schema["minimum"] === "number" ? BigInt(schema["minimum"]) : SAFE.min;
      const max = typeof schema["maximum"] === "number" ? BigInt(schema["maximum"]) : SAFE.max;
      return fc.bigInt({ min, max }).map(Number);
    }
    case "boolean":
      return fc.boolean();
    case "string":
      return typeof schema["pattern"] === "string"
        ? fc.stringMatching(new RegExp(schema["pattern"], "u"))
        : fc.string({
            minLength: typeof schema["minLength"] === "number" ? schema["minLength"] : 0,
            maxLength: typeof schema["maxLength"] === "number" ? schema["maxLength"] : 64,
          });
    default:
      throw new Error(`no value generator for the parameter schema ${JSON.stringify(schema)}`);
  }
}

/** Values a parameter's schema admits, as the text of a query or path member (the schema has the last word). */
export function admittedText(schema: SpecNode): fc.Arbitrary<string> {
  const admits = reader.compile(schema);
  return candidates(schema)
    .filter((value) => admits(value))
    .map((value) => String(value));
}

/**
 * Requests of an operation with parameters its schemas admit: every required parameter, each optional one
 * present or not. Answers the path with its members filled in and the query appended, encoded.
 */
export function admittedRequest(path: string, parameters: readonly Parameter[]): fc.Arbitrary<string> {
  const inPath = parameters.filter((p) => p.in === "path");
  const inQuery = parameters.filter((p) => p.in === "query");
  const member = (p: Parameter) => (p.required ? admittedText(p.schema) : fc.option(admittedText(p.schema)));
  return fc
    .record({
      path: fc.tuple(...inPath.map(member)),
      query: fc.tuple(...inQuery.map(member)),
    })
    .map(({ path: pathValues, query: queryValues }) => {
      const byName = new Map(inPath.map((p, index) => [p.name, pathValues[index]]));
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(byName.get(name) ?? ""));
      const query = inQuery
        .flatMap((p, index) => {
          const value = queryValues[index];
          return value === null || value === undefined ? [] : [`${p.name}=${encodeURIComponent(value)}`];
        })
        .join("&");
      return query === "" ? filled : `${filled}?${query}`;
    });
}
