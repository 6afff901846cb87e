// How `lrg replay` finds the recorded exchange that answers a request: by operation (the spec's paths, through the
// matcher `lrg drift` uses), then by path parameters, query parameters and body. Ids and timestamps match loosely: a
// recorded value that is a UUID, a hex id (16 hexadecimal digits or more), a date-time or a date matches any value of
// the same kind, and a value the recording redacted or masked matches any value; an exact match is preferred to a
// loose one. Headers are never compared (the recording redacted or hashed those that vary).
import type { Operation } from "@lrg/spec";
import { pathParameters } from "@lrg/conformance/drift";
import { MASKED, REDACTED } from "../record/redaction.js";

/** A request's body as replay compares it: its size and SHA-256, and its text when it is whole and text. */
export interface BodyFacts {
  readonly size: number;
  readonly sha256: string;
  /** The body's text; absent when only its facts are known (a recorded PDF). */
  readonly text?: string;
}

/** A request as replay compares it (the recorded one, or the one being answered). */
export interface RequestFacts {
  readonly method: string;
  /** The path below the recording's base. */
  readonly pathname: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly body: BodyFacts | undefined;
  readonly operation: Operation | undefined;
}

/** One way a request departs from a recorded one: a JSON pointer into the request, and what differs. */
export interface Difference {
  /** `/request/method`, `/request/operation`, `/request/path/{name}`, `/request/query/{name}`, `/request/body/...`. */
  readonly pointer: string;
  readonly detail: string;
}

/** How a request compares with a recorded one: what differs, and how many values matched only loosely. */
export interface Comparison {
  readonly differences: readonly Difference[];
  readonly loose: number;
  /** The operations differ (the method or the path's template): the request is far from this exchange. */
  readonly otherOperation: boolean;
}

/** The kinds of value matched loosely, by the form of the recorded value. */
const LOOSE_KINDS: readonly (readonly [string, RegExp])[] = [
  ["UUID", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ["hex id", /^[0-9a-f]{16,}$/i],
  ["date-time", /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/],
  ["date", /^\d{4}-\d{2}-\d{2}$/],
];

const kindOf = (value: string): string | undefined => LOOSE_KINDS.find(([, form]) => form.test(value))?.[0];

/** `exact`, `loose` (same kind of id or timestamp, or a value the recording redacted or masked) or `differs`. */
export function compareValue(recorded: string, given: string): "exact" | "loose" | "differs" {
  if (recorded === given) return "exact";
  if (recorded === REDACTED || recorded === MASKED) return "loose";
  const kind = kindOf(recorded);
  return kind !== undefined && kind === kindOf(given) ? "loose" : "differs";
}

const escapePointer = (name: string): string => name.replace(/~/g, "~0").replace(/\//g, "~1");
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? "nothing";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

interface Tally {
  differences: Difference[];
  loose: number;
}

function compareJson(recorded: unknown, given: unknown, pointer: string, tally: Tally): void {
  if (typeof recorded === "string" && typeof given === "string") {
    const result = compareValue(recorded, given);
    if (result === "loose") tally.loose += 1;
    if (result === "differs")
      tally.differences.push({ pointer, detail: `recorded ${shown(recorded)}, got ${shown(given)}` });
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(given)) {
    if (recorded.length !== given.length) {
      tally.differences.push({ pointer, detail: `recorded ${recorded.length} items, got ${given.length}` });
      return;
    }
    recorded.forEach((item, index) => compareJson(item, given[index], `${pointer}/${index}`, tally));
    return;
  }
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (isObject(recorded) && isObject(given)) {
    for (const name of new Set([...Object.keys(recorded), ...Object.keys(given)])) {
      const at = `${pointer}/${escapePointer(name)}`;
      if (!(name in given)) tally.differences.push({ pointer: at, detail: "recorded, but not sent" });
      else if (!(name in recorded)) tally.differences.push({ pointer: at, detail: "sent, but not recorded" });
      else compareJson(recorded[name], given[name], at, tally);
    }
    return;
  }
  if (JSON.stringify(recorded) !== JSON.stringify(given))
    tally.differences.push({ pointer, detail: `recorded ${shown(recorded)}, got ${shown(given)}` });
}

function parsedJson(text: string | undefined): { value: unknown } | undefined {
  if (text === undefined) return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function compareBody(recorded: BodyFacts | undefined, given: BodyFacts | undefined, tally: Tally): void {
  const pointer = "/request/body";
  const recordedSize = recorded?.size ?? 0;
  const givenSize = given?.size ?? 0;
  if (recordedSize === 0 || givenSize === 0) {
    if (recordedSize !== givenSize)
      tally.differences.push({ pointer, detail: `recorded ${recordedSize} bytes, got ${givenSize}` });
    return;
  }
  const recordedJson = parsedJson(recorded!.text);
  const givenJson = parsedJson(given!.text);
  if (recordedJson !== undefined && givenJson !== undefined)
    return compareJson(recordedJson.value, givenJson.value, pointer, tally);
  // A body kept whole as text is compared as text; one kept only as its facts (a PDF) by its SHA-256.
  if (recorded!.text !== undefined && given!.text !== undefined) {
    if (recorded!.text !== given!.text) tally.differences.push({ pointer, detail: "the text differs" });
    return;
  }
  if (recorded!.sha256 !== given!.sha256)
    tally.differences.push({
      pointer,
      detail: `its SHA-256 differs from the recorded body's (${recorded!.sha256.slice(0, 12)}..., ${recorded!.size} bytes)`,
    });
}

const valuesOf = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** How `given` compares with the recorded request `recorded`. */
export function compareRequest(recorded: RequestFacts, given: RequestFacts): Comparison {
  const tally: Tally = { differences: [], loose: 0 };
  const method = recorded.method.toUpperCase() !== given.method.toUpperCase();
  if (method)
    tally.differences.push({ pointer: "/request/method", detail: `recorded ${recorded.method}, got ${given.method}` });
  const operation = recorded.operation?.operationId !== given.operation?.operationId;
  if (operation || (recorded.operation === undefined && recorded.pathname !== given.pathname)) {
    const name = (facts: RequestFacts) =>
      facts.operation === undefined
        ? `${facts.pathname} (no operation)`
        : `${facts.operation.operationId} (${facts.operation.path})`;
    if (!method || recorded.pathname !== given.pathname)
      tally.differences.push({
        pointer: "/request/operation",
        detail: `recorded ${name(recorded)}, got ${name(given)}`,
      });
    return { differences: tally.differences, loose: 0, otherOperation: true };
  }
  if (recorded.operation !== undefined && given.operation !== undefined) {
    const recordedParams = pathParameters(recorded.operation, recorded.pathname);
    const givenParams = pathParameters(given.operation, given.pathname);
    for (const [name, value] of Object.entries(recordedParams)) {
      const result = compareValue(value, givenParams[name] ?? "");
      if (result === "loose") tally.loose += 1;
      if (result === "differs")
        tally.differences.push({
          pointer: `/request/path/${escapePointer(name)}`,
          detail: `recorded ${shown(value)}, got ${shown(givenParams[name])}`,
        });
    }
  }
  for (const name of new Set([...Object.keys(recorded.query), ...Object.keys(given.query)])) {
    const recordedValues = valuesOf(recorded.query[name]);
    const givenValues = valuesOf(given.query[name]);
    const pointer = `/request/query/${escapePointer(name)}`;
    const shownValues = (values: string[]) => (values.length === 0 ? "none" : values.map((v) => shown(v)).join(", "));
    const results = recordedValues.map((value, index) =>
      index < givenValues.length ? compareValue(value, givenValues[index]!) : "differs",
    );
    if (recordedValues.length !== givenValues.length || results.includes("differs"))
      tally.differences.push({
        pointer,
        detail: `recorded ${shownValues(recordedValues)}, got ${shownValues(givenValues)}`,
      });
    else tally.loose += results.filter((result) => result === "loose").length;
  }
  compareBody(recorded.body, given.body, tally);
  return { differences: tally.differences, loose: tally.loose, otherOperation: false };
}

/** What answers a request: the recorded exchanges that match it, best first, or the closest one and what differs. */
export type Choice =
  | { readonly matched: true; readonly indexes: readonly number[] }
  | { readonly matched: false; readonly closest: number; readonly differences: readonly Difference[] }
  | { readonly matched: false; readonly closest: undefined };

/**
 * The recorded requests that match `given`: those that match exactly when there are any, else those that match with
 * the fewest loose values; all in the recording's order. When none matches, the closest: the same operation before
 * another, then the fewest differences, then the earliest.
 */
export function choose(recorded: readonly RequestFacts[], given: RequestFacts): Choice {
  const compared = recorded.map((facts, index) => ({ index, ...compareRequest(facts, given) }));
  const matching = compared.filter((c) => c.differences.length === 0);
  if (matching.length > 0) {
    const fewest = Math.min(...matching.map((c) => c.loose));
    return { matched: true, indexes: matching.filter((c) => c.loose === fewest).map((c) => c.index) };
  }
  const [closest] = compared.sort(
    (a, b) =>
      Number(a.otherOperation) - Number(b.otherOperation) ||
      a.differences.length - b.differences.length ||
      a.index - b.index,
  );
  if (closest === undefined) return { matched: false, closest: undefined };
  return { matched: false, closest: closest.index, differences: closest.differences };
}
