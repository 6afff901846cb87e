/**
 * What the audit trail keeps of a request's body: enough to tell what was asked, never a secret, and bounded
 * whatever was sent (a refused request is recorded too, so its body may be anything the JSON parser took).
 */

/** Member names that suggest a secret: their values are never kept. */
const SECRET_NAME = /pass|token|secret|authori[sz]ation|credential|private|(^|[_-])key$/i;
/** Longest string or member name kept (longer ones are cut, ending in "…"). */
const MAX_STRING = 200;
/** Most items of an array, or members of an object, kept. */
const MAX_ITEMS = 20;
/** Deepest nesting kept (the body itself is level 1). */
const MAX_DEPTH = 4;
/** Most values kept in all, so that wide and deep bodies together stay small. */
const MAX_VALUES = 100;

export const REDACTED = "[redacted]";
export const NESTED = "[nested]";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const cut = (text: string): string => (text.length > MAX_STRING ? `${text.slice(0, MAX_STRING - 1)}…` : text);

/** A redacted, bounded copy of a request's JSON body; null when the body is not a JSON object. */
export function summariseRequestBody(body: unknown): Record<string, unknown> | null {
  if (!isObject(body)) return null;
  return summariseObject(body, 1, { left: MAX_VALUES });
}

function summariseObject(
  object: Record<string, unknown>,
  depth: number,
  budget: { left: number },
): Record<string, unknown> {
  const members: [string, unknown][] = [];
  for (const [name, value] of Object.entries(object).slice(0, MAX_ITEMS)) {
    if (budget.left <= 0) break;
    budget.left -= 1;
    members.push([cut(name), SECRET_NAME.test(name) ? REDACTED : summariseValue(value, depth + 1, budget)]);
  }
  // fromEntries defines own members, so a member named __proto__ stays data.
  return Object.fromEntries(members);
}

function summariseValue(value: unknown, depth: number, budget: { left: number }): unknown {
  if (typeof value === "string") return cut(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_DEPTH) return NESTED;
  if (!Array.isArray(value)) return summariseObject(value as Record<string, unknown>, depth, budget);
  const items: unknown[] = [];
  for (const item of value.slice(0, MAX_ITEMS)) {
    if (budget.left <= 0) break;
    budget.left -= 1;
    items.push(summariseValue(item, depth + 1, budget));
  }
  return items;
}
