// fast-check arbitraries drawn from the spec's JSON Schemas: values that should pass a schema (`validValue`) and
// values that break it in one place (`brokenValue`). Only the keywords the spec uses are understood; where a
// generated string cannot meet every constraint (a pattern and a length at once), the schema's example stands in.
import fc from "fast-check";
import type { SpecNode as Schema } from "@lrg/spec";

type Arb = fc.Arbitrary<unknown>;

const MAX_DEPTH = 10;
/** Generated collections stay small: the point is shape, not size (sizes are probed at their bounds). */
const MAX_GENERATED_ITEMS = 4;
const MAX_GENERATED_STRING = 40;
/** Longer maximum lengths are not drawn at their bound. */
const MAX_PROBED_LENGTH = 4096;

const brokenCache = new WeakMap<Schema, Arb>();

/**
 * Generators of named members that replace what their schemas would give, wherever the name appears (the fuzzer keeps
 * `latency_ms` small so that a run stays fast). Passed to `validValue` by the caller that wants them.
 */
export type ValueOverrides = Readonly<Record<string, Arb>>;

/** No overrides: every value from its schema. */
const FROM_SCHEMAS: ValueOverrides = {};

/** The arbitraries built so far for each set of overrides, by schema (they are immutable, so shared). */
const built = new WeakMap<ValueOverrides, WeakMap<Schema, Arb>>();

function typesOf(schema: Schema): string[] {
  const type = schema["type"];
  if (Array.isArray(type)) return type as string[];
  if (typeof type === "string") return [type];
  if (schema["properties"] !== undefined || schema["additionalProperties"] !== undefined) return ["object"];
  if (schema["items"] !== undefined) return ["array"];
  if (schema["pattern"] !== undefined || schema["format"] !== undefined) return ["string"];
  return [];
}

/** The schema with its `allOf` members merged in (properties and required lists joined; its own keywords win). */
function merged(schema: Schema): Schema {
  const parts = schema["allOf"] as Schema[] | undefined;
  if (parts === undefined) return schema;
  const rest: Schema = { ...schema };
  delete rest["allOf"];
  return [...parts.map(merged), rest].reduce<Schema>(
    (into, part) => ({
      ...into,
      ...part,
      properties: { ...(into["properties"] as Schema | undefined), ...(part["properties"] as Schema | undefined) },
      required: [
        ...((into["required"] as string[] | undefined) ?? []),
        ...((part["required"] as string[] | undefined) ?? []),
      ],
    }),
    {},
  );
}

/** The branches of a `oneOf`/`anyOf`, each merged with the members beside it. */
function branchesOf(schema: Schema): Schema[] | undefined {
  const branches = (schema["oneOf"] ?? schema["anyOf"]) as Schema[] | undefined;
  if (branches === undefined) return undefined;
  const base: Schema = { ...schema };
  delete base["oneOf"];
  delete base["anyOf"];
  delete base["discriminator"];
  return branches.map((branch) =>
    merged({
      ...base,
      ...branch,
      properties: { ...(base["properties"] as Schema | undefined), ...(branch["properties"] as Schema | undefined) },
    }),
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Date-times in the shapes the spec's patterns admit, the first one the pattern accepts. */
function dateTimeText(date: Date, shape: number): string {
  const d = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const t = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  const ms = `.${pad(date.getUTCMilliseconds(), 3)}`;
  const shapes = [
    `${d}T${t}${ms}Z`,
    `${d}T${t}Z`,
    `${d}T${t}${ms}`,
    `${d}T${t}`,
    `${d}T${t}+01:00`,
    `${d}T${t}${ms}123456Z`,
  ];
  return shapes[shape % shapes.length] as string;
}

const dates = fc.date({
  min: new Date("2020-01-01T00:00:00Z"),
  max: new Date("2030-12-31T23:59:59Z"),
  noInvalidDate: true,
});

function stringValue(schema: Schema): Arb {
  const min = (schema["minLength"] as number | undefined) ?? 0;
  const max = (schema["maxLength"] as number | undefined) ?? Math.max(min, MAX_GENERATED_STRING);
  const pattern = schema["pattern"] as string | undefined;
  const regex = pattern === undefined ? undefined : new RegExp(pattern, "u");
  const example = typeof schema["example"] === "string" ? schema["example"] : undefined;
  const fits = (text: string) => text.length >= min && text.length <= max && (regex === undefined || regex.test(text));
  const orExample = (arb: fc.Arbitrary<string>) =>
    arb.map((text) => (fits(text) || example === undefined ? text : example));
  const format = schema["format"] as string | undefined;
  let arb: fc.Arbitrary<string>;
  if (format === "uuid") arb = fc.uuid();
  else if (
    format === "date" ||
    (pattern !== undefined && /^\^?\[0-9\]\{4\}-\[0-9\]\{2\}-\[0-9\]\{2\}\$$/.test(pattern))
  ) {
    arb = dates.map((date) => date.toISOString().slice(0, 10));
  } else if (format === "date-time" || (pattern !== undefined && pattern.includes("[0-9]{4}-[0-9]{2}-[0-9]{2}"))) {
    arb = fc.tuple(dates, fc.nat(5)).map(([date, shape]) => {
      for (let offset = 0; offset < 6; offset += 1) {
        const text = dateTimeText(date, shape + offset);
        if (fits(text)) return text;
      }
      return dateTimeText(date, shape);
    });
  } else if (format === "email") arb = fc.emailAddress();
  else if (format === "uri" || format === "uri-reference") arb = fc.webUrl();
  else if (regex !== undefined) arb = fc.stringMatching(regex);
  else {
    const cap = Math.min(max, Math.max(min, MAX_GENERATED_STRING));
    const short = fc.string({ minLength: min, maxLength: cap });
    // A string at its maximum length, unless the maximum is only a size guard (a megabyte per item of a list of
    // a hundred takes seconds to draw and is refused as too large before the schema is read).
    arb =
      max > MAX_PROBED_LENGTH
        ? short
        : fc.oneof(
            { weight: 4, arbitrary: short },
            { weight: 1, arbitrary: fc.string({ minLength: max, maxLength: max, unit: "grapheme-ascii" }) },
          );
  }
  const values = orExample(arb);
  return example === undefined
    ? values
    : fc.oneof({ weight: 3, arbitrary: values }, { weight: 1, arbitrary: fc.constant(example) });
}

function numberValue(schema: Schema, integer: boolean): Arb {
  const minimum = schema["minimum"] as number | undefined;
  const maximum = schema["maximum"] as number | undefined;
  if (integer) return fc.integer({ min: minimum ?? -1_000_000, max: maximum ?? 1_000_000 });
  return fc.double({ min: minimum ?? -1e9, max: maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
}

function objectValue(schema: Schema, depth: number, overrides: ValueOverrides): Arb {
  const properties = (schema["properties"] ?? {}) as Record<string, Schema>;
  const required = new Set((schema["required"] as string[] | undefined) ?? []);
  const additional = schema["additionalProperties"];
  const names = Object.keys(properties);
  if (names.length === 0 && typeof additional === "object" && additional !== null) {
    const names = (schema["propertyNames"] as Schema | undefined) ?? {
      type: "string",
      pattern: "^[a-z][a-z0-9-]{0,15}$",
    };
    const minKeys = (schema["minProperties"] as number | undefined) ?? 0;
    const maxKeys = Math.min(
      (schema["maxProperties"] as number | undefined) ?? MAX_GENERATED_ITEMS,
      Math.max(minKeys, MAX_GENERATED_ITEMS),
    );
    return fc.dictionary(
      stringValue(names) as fc.Arbitrary<string>,
      valueAt(additional as Schema, depth + 1, overrides),
      {
        minKeys,
        maxKeys,
      },
    );
  }
  const model = Object.fromEntries(
    names.map((name) => [name, overrides[name] ?? valueAt(properties[name] as Schema, depth + 1, overrides)]),
  );
  return fc.record(model, { requiredKeys: names.filter((name) => required.has(name)) }).map((value) => {
    const minProperties = (schema["minProperties"] as number | undefined) ?? 0;
    if (Object.keys(value).length >= minProperties || names.length === 0) return value;
    return {
      ...value,
      [names[0] as string]: (schema["example"] as Record<string, unknown> | undefined)?.[names[0] as string] ?? null,
    };
  });
}

function arrayValue(schema: Schema, depth: number, overrides: ValueOverrides): Arb {
  const items = (schema["items"] ?? {}) as Schema;
  const minLength = (schema["minItems"] as number | undefined) ?? 0;
  const maxItems = (schema["maxItems"] as number | undefined) ?? MAX_GENERATED_ITEMS;
  const maxLength = Math.max(minLength, Math.min(maxItems, MAX_GENERATED_ITEMS));
  const item = valueAt(items, depth + 1, overrides);
  return schema["uniqueItems"] === true
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
    : fc.array(item, { minLength, maxLength });
}

function valueAt(raw: Schema, depth: number, overrides: ValueOverrides = FROM_SCHEMAS): Arb {
  const cache = built.get(overrides) ?? new WeakMap<Schema, Arb>();
  built.set(overrides, cache);
  const cached = cache.get(raw);
  if (cached !== undefined) return cached;
  const schema = merged(raw);
  let arb: Arb;
  const branches = branchesOf(schema);
  if (depth > MAX_DEPTH) arb = fc.constant(schema["example"] ?? null);
  else if (schema["const"] !== undefined) arb = fc.constant(schema["const"]);
  else if (Array.isArray(schema["enum"])) arb = fc.constantFrom(...(schema["enum"] as unknown[]));
  else if (branches !== undefined) arb = fc.oneof(...branches.map((branch) => valueAt(branch, depth + 1, overrides)));
  else {
    const kinds = typesOf(schema).map((type): Arb => {
      switch (type) {
        case "string":
          return stringValue(schema);
        case "integer":
          return numberValue(schema, true);
        case "number":
          return numberValue(schema, false);
        case "boolean":
          return fc.boolean();
        case "null":
          return fc.constant(null);
        case "array":
          return arrayValue(schema, depth, overrides);
        case "object":
          return objectValue(schema, depth, overrides);
        default:
          return fc.jsonValue({ maxDepth: 2 });
      }
    });
    arb =
      kinds.length === 0 ? fc.jsonValue({ maxDepth: 2 }) : kinds.length === 1 ? (kinds[0] as Arb) : fc.oneof(...kinds);
  }
  cache.set(raw, arb);
  return arb;
}

/**
 * Values that should validate against `schema` (built from its keywords, with its examples mixed in); members named
 * in `overrides` take the values of their generators instead.
 */
export function validValue(schema: Schema, overrides: ValueOverrides = FROM_SCHEMAS): Arb {
  return valueAt(schema, 0, overrides);
}

/** Strings that no reasonable pattern admits: control characters, path tricks, injection, very long, non-ASCII. */
export const junkText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\t\n",
    "../../etc/passwd",
    "%00",
    "%2F",
    "' OR 1=1 --",
    "<script>",
    "null",
    "undefined",
    "NaN",
    "-1",
    "1e309",
    "😀",
    "ß",
    "\u202e",
    "{}",
    "[]",
  ),
  // Any code points, lone surrogates included. (fc.string's "binary" unit draws the same but takes the best part of
  // a second to prepare, paid by every command that loads this module, --help included.)
  fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 30 }).map((points) => String.fromCodePoint(...points)),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.nat(5_000).map((n) => "x".repeat(n + 1)),
);

/** A value of another JSON type than `types` allows. */
function wrongType(types: string[]): Arb {
  const all: [string, Arb][] = [
    ["string", fc.constantFrom("1", "true", "", "text")],
    ["integer", fc.constantFrom(0, -1, 1, 2 ** 53)],
    ["number", fc.constantFrom(1.5, -0.5, 1e300)],
    ["boolean", fc.boolean()],
    ["null", fc.constant(null)],
    ["array", fc.constant([])],
    ["object", fc.constant({})],
  ];
  const allowed = new Set(types.flatMap((type) => (type === "number" ? ["number", "integer"] : [type])));
  const others = all.filter(([type]) => !allowed.has(type)).map(([, arb]) => arb);
  return others.length > 0 ? fc.oneof(...others) : fc.constant({ unexpected: true });
}

function brokenString(schema: Schema): Arb {
  const min = (schema["minLength"] as number | undefined) ?? 0;
  const max = schema["maxLength"] as number | undefined;
  const example = typeof schema["example"] === "string" ? schema["example"] : "x";
  const choices: Arb[] = [junkText, wrongType(["string"])];
  if (max !== undefined) choices.push(fc.constant(example.padEnd(max + 1, "x")), fc.constant("x".repeat(max * 2 + 1)));
  if (min > 0) choices.push(fc.constant(example.slice(0, min - 1)));
  if (schema["pattern"] !== undefined || schema["format"] !== undefined) {
    choices.push(
      fc.constant(`${example} `),
      fc.constant(example.toLowerCase() === example ? example.toUpperCase() : example.toLowerCase()),
      fc.constant(`${example}\n`),
    );
  }
  return fc.oneof(...choices);
}

function brokenNumber(schema: Schema): Arb {
  const minimum = schema["minimum"] as number | undefined;
  const maximum = schema["maximum"] as number | undefined;
  const choices: Arb[] = [
    wrongType(typesOf(schema)),
    fc.constantFrom(1.5, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 1e308),
  ];
  if (minimum !== undefined) choices.push(fc.constant(minimum - 1));
  if (maximum !== undefined) choices.push(fc.constant(maximum + 1));
  return fc.oneof(...choices);
}

function brokenObject(schema: Schema, depth: number): Arb {
  const properties = (schema["properties"] ?? {}) as Record<string, Schema>;
  const required = (schema["required"] as string[] | undefined) ?? [];
  const names = Object.keys(properties);
  const whole = valueAt(schema, depth);
  const asObject = (value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const choices: Arb[] = [
    wrongType(["object"]),
    whole.map((value) => ({ ...asObject(value), unexpected_member: "x" })),
  ];
  if (required.length > 0) {
    choices.push(
      fc.tuple(whole, fc.constantFrom(...required)).map(([value, name]) => {
        const copy = { ...asObject(value) };
        delete copy[name];
        return copy;
      }),
    );
  }
  if (names.length > 0 && depth < MAX_DEPTH) {
    choices.push(
      fc
        .constantFrom(...names)
        .chain((name) =>
          fc
            .tuple(whole, brokenAt(properties[name] as Schema, depth + 1))
            .map(([value, bad]) => ({ ...asObject(value), [name]: bad })),
        ),
    );
  }
  const additional = schema["additionalProperties"];
  if (names.length === 0 && typeof additional === "object" && additional !== null && depth < MAX_DEPTH) {
    choices.push(
      fc
        .tuple(whole, brokenAt(additional as Schema, depth + 1))
        .map(([value, bad]) => ({ ...asObject(value), "bad-key": bad })),
    );
    choices.push(whole.map((value) => ({ ...asObject(value), "Not A Key!": {} })));
  }
  return fc.oneof(...choices);
}

function brokenArray(schema: Schema, depth: number): Arb {
  const items = (schema["items"] ?? {}) as Schema;
  const maxItems = schema["maxItems"] as number | undefined;
  const choices: Arb[] = [wrongType(["array"])];
  if (depth < MAX_DEPTH)
    choices.push(
      fc
        .tuple(fc.array(valueAt(items, depth + 1), { maxLength: 3 }), brokenAt(items, depth + 1))
        .map(([good, bad]) => [...good, bad]),
    );
  if (maxItems !== undefined && maxItems <= 1000)
    choices.push(valueAt(items, depth + 1).map((item) => Array.from({ length: maxItems + 1 }, () => item)));
  if (((schema["minItems"] as number | undefined) ?? 0) > 0) choices.push(fc.constant([]));
  return fc.oneof(...choices);
}

function brokenAt(raw: Schema, depth: number): Arb {
  const cached = brokenCache.get(raw);
  if (cached !== undefined) return cached;
  const schema = merged(raw);
  let arb: Arb;
  const branches = branchesOf(schema);
  const types = typesOf(schema);
  if (Array.isArray(schema["enum"]))
    arb = fc.oneof(fc.constantFrom("NOT_A_MEMBER", "", "new", 0), wrongType(types.length > 0 ? types : ["string"]));
  else if (schema["const"] !== undefined) arb = fc.constantFrom("NOT_THE_CONSTANT", null, 0);
  else if (branches !== undefined) arb = fc.oneof(...branches.map((branch) => brokenAt(branch, depth + 1)));
  else if (types.includes("object")) arb = brokenObject(schema, depth);
  else if (types.includes("array")) arb = brokenArray(schema, depth);
  else if (types.includes("string")) arb = brokenString(schema);
  else if (types.includes("integer") || types.includes("number")) arb = brokenNumber(schema);
  else if (types.includes("boolean")) arb = wrongType(types);
  else arb = fc.constant(undefined);
  brokenCache.set(raw, arb);
  return arb;
}

/** Values that break `schema` in one place: a wrong type, a bound passed by one, a member missing or extra. */
export function brokenValue(schema: Schema): Arb {
  return brokenAt(schema, 0);
}
