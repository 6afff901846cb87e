// The bad input of a request, drawn from the operation's own constraints in the spec: parameters and bodies that
// break their schemas, JSON that does not parse, content types that are not JSON, query parameters the operation
// does not define. The negative properties send these one at a time and demand a documented 4xx; the fuzzer mixes
// them with valid requests at volume. A value drawn here is checked against the spec first (Ajv), so a valid one
// is never passed off as bad.
import { createValidator, validatorOf } from "@lrg/spec/check";
import type { Operation, SpecNode } from "@lrg/spec";
import type { ValidateFunction } from "ajv/dist/2020.js";
import fc from "fast-check";
import { brokenValue, junkText } from "./values.js";

/** The JSON schema of the operation's request body, if it takes JSON. */
export function jsonBodySchemaOf(operation: Operation): SpecNode | undefined {
  return operation.requestBody?.content.get("application/json");
}

// Parameters arrive as text: a value is valid when the text coerces to something the schema admits.
const coercing = createValidator({ coerceTypes: true });
const parameterValidators = new WeakMap<SpecNode, ValidateFunction>();

/** Whether a JSON body is valid against the schema. */
export function isValidBody(schema: SpecNode, value: unknown): boolean {
  return validatorOf(schema)(structuredClone(value));
}

/** Whether a parameter's text is valid against its schema. */
export function isValidParameter(schema: SpecNode, text: string): boolean {
  let validate = parameterValidators.get(schema);
  if (!validate) {
    validate = coercing.compile({ type: "object", properties: { value: schema } });
    parameterValidators.set(schema, validate);
  }
  return validate({ value: text });
}

/** A value as it goes into a path, query or header: strings as they are, anything else as JSON. */
export const parameterText = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? "");

/** Path segments a router takes as one parameter (unreserved and sub-delimiter characters, not only dots). */
export const routableSegment = fc
  .string({ unit: fc.constantFrom(..."ABCXYZabcxyz0189-._~!$'()*+,;=:@".split("")), minLength: 1, maxLength: 80 })
  .filter((s) => !/^\.+$/.test(s));

/** Texts that commonly slip past a loose parser: numbers out of range, wrong case, impossible dates, very long. */
const trickyText = fc.oneof(
  routableSegment,
  fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
  fc.constantFrom("", "1.5", "-1", "0", "true", "NEW ", "new", "2025-13-40T25:61:61", "2025-02-20", "x".repeat(300)),
);

/**
 * Texts for a parameter that its schema refuses: the schema broken in one place, tricky texts, junk. With
 * `routable`, only texts a router still takes as one path segment (else the answer is an unmatched route's);
 * `allowEmpty: false` leaves out the empty text; `unchecked` skips the check against the schema (for a schema that
 * admits any text, where no invalid value exists to find).
 */
export function badParameterText(
  schema: SpecNode,
  options: { routable?: boolean; allowEmpty?: boolean; unchecked?: boolean } = {},
): fc.Arbitrary<string> {
  const drawn = fc.oneof(
    { weight: 2, arbitrary: brokenValue(schema).map(parameterText) },
    { weight: 2, arbitrary: trickyText },
    { weight: 1, arbitrary: junkText },
  );
  const routable = /^[A-Za-z0-9\-._~!$'()*+,;=:@]+$/;
  const fits = (text: string) =>
    (options.routable !== true || (routable.test(text) && !/^\.+$/.test(text))) &&
    (options.allowEmpty !== false || text !== "");
  const texts = options.routable === true ? fc.oneof(drawn, routableSegment) : drawn;
  return options.unchecked === true ? texts : texts.filter((text) => fits(text) && !isValidParameter(schema, text));
}

/** Values that replace one member of a valid body. */
const REPLACEMENTS = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(
    "",
    "x".repeat(400),
    -1,
    0,
    1.5,
    1e12,
    null,
    [],
    {},
    true,
    "not-a-uuid",
    Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`),
  ),
);

/** Every member of a JSON value, as paths. */
function membersOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, i) => membersOf(item, [...path, i]))];
  if (value !== null && typeof value === "object")
    return [path, ...Object.entries(value).flatMap(([k, v]) => membersOf(v, [...path, k]))];
  return [path];
}

type Change = "replace" | "delete" | "add";

function changed(body: unknown, path: (string | number)[], change: Change, replacement: unknown): unknown {
  const copy = structuredClone(body);
  if (path.length === 0) return change === "replace" ? replacement : copy;
  let holder = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (change === "replace") holder[last] = replacement;
  else if (change === "delete" && !Array.isArray(holder)) delete holder[last];
  else if (
    change === "add" &&
    holder[last] !== null &&
    typeof holder[last] === "object" &&
    !Array.isArray(holder[last])
  )
    (holder[last] as Record<string, unknown>)["unexpected_member"] = replacement;
  return copy;
}

/** A body that breaks its schema, and how it was made (for a counterexample's report). */
export interface BadBody {
  value: unknown;
  change: string;
}

/**
 * Bodies the schema refuses: one member of a valid example replaced, deleted or joined by an unknown one, or the
 * schema broken in one place (a wrong type, a bound passed by one, a member missing). Never `undefined` (that
 * would be no body at all), and never a JSON null where the body is optional (a null body reads as none).
 */
export function badBody(schema: SpecNode, example: unknown, bodyRequired: boolean): fc.Arbitrary<BadBody> {
  const fromSchema = brokenValue(schema).map((value): BadBody => ({ value, change: "the schema broken in one place" }));
  const fromExample =
    example === undefined
      ? undefined
      : fc
          .tuple(
            fc.constantFrom(...membersOf(example)),
            fc.constantFrom<Change>("replace", "delete", "add"),
            REPLACEMENTS,
          )
          .map(([path, change, replacement]): BadBody => ({
            value: changed(example, path, change, replacement),
            change: `${change} /${path.join("/")}`,
          }));
  const drawn =
    fromExample === undefined
      ? fromSchema
      : fc.oneof({ weight: 3, arbitrary: fromExample }, { weight: 2, arbitrary: fromSchema });
  return drawn.filter(
    ({ value }) => value !== undefined && !(value === null && !bodyRequired) && !isValidBody(schema, value),
  );
}

/** Texts that are not JSON at all: cut short, single quotes, trailing commas, control characters. */
export const malformedJson: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(
      "{",
      '{"data": [}',
      '{"data":',
      "[1, 2",
      "nul",
      '{"data": "\u0000',
      "{'data': []}",
      '{"a":1}}',
      "\u0000",
    ),
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.jsonValue({ maxDepth: 2 }).map((value) => `${JSON.stringify(value)},`),
  )
  .filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });

/** Content types that are not JSON, for a body that is. */
export const notJsonContentTypes = fc.constantFrom(
  "text/plain",
  "application/xml",
  "application/x-www-form-urlencoded",
);

/**
 * Names of query parameters that operations do not define: the other version's (v0 has no `subject_type` and
 * spells `occured_*` with one r), paging words, any word.
 */
export const unknownQueryNames = fc.oneof(
  fc.constantFrom("subject_type", "occured_after", "occurred_before", "page", "offset", "colour"),
  fc.stringMatching(/^[a-z][a-z_]{0,19}$/),
);
