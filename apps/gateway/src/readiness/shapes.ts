// What readiness keeps as plain JSON (a run's stimulus and result, the settings a run keeps for its unit) is read back
// through a check of its shape, never a cast: a value of another shape (an older build's, a hand-edited store) is
// refused where it is read, not found wrong three calls later.
import { componentSchema } from "@lrg/spec";
import { validatorOf } from "@lrg/spec/check";
import type { CheckName, Kept, Stimulus, Verdict } from "./check.js";
import { RULES } from "./check.js";
import type { SandboxComponents } from "../operation-types.js";

/** A check of a value's shape that tells the type checker what it found. */
export type Guard<T> = (value: unknown) => value is T;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
export const isString = (value: unknown): value is string => typeof value === "string";
export const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
export const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** An object with (at least) these members, each of the shape its guard checks. */
export function objectOf<T>(members: { [K in keyof T]-?: Guard<T[K]> }): Guard<T> {
  const entries: [string, Guard<unknown>][] = Object.entries(members);
  return (value): value is T => isRecord(value) && entries.every(([name, guard]) => guard(value[name]));
}

/** A name of the spec's `ReadinessCheckName`. */
export const isCheckName = (value: unknown): value is CheckName => isString(value) && Object.hasOwn(RULES, value);

const isKept = (value: unknown): value is Kept =>
  isRecord(value) &&
  isStringArray(value["notificationIds"]) &&
  (value["downloadIds"] === undefined || isStringArray(value["downloadIds"]));

/** A run's stimulus as `service.ts` keeps it: what each check raised, by check name. */
export const isStimulus = (value: unknown): value is Stimulus =>
  isRecord(value) && Object.entries(value).every(([name, kept]) => isCheckName(name) && isKept(kept));

/** The verdicts kept with a run once it ended. */
export interface Result {
  verdict: Verdict;
  checks: SandboxComponents["schemas"]["ReadinessCheckResult"][];
}

/** The kept verdicts, by the spec's ReadinessVerdict and ReadinessCheckResult. */
const validResult = validatorOf({
  type: "object",
  required: ["verdict", "checks"],
  properties: {
    verdict: componentSchema("ReadinessVerdict", "sandbox"),
    checks: { type: "array", items: componentSchema("ReadinessCheckResult", "sandbox") },
  },
});
export const isResult = (value: unknown): value is Result => validResult(value);

/** `value` when `is` says it has its shape; else an error that names what it was read as. */
export function shaped<T>(value: unknown, is: Guard<T>, what: string): T {
  if (!is(value)) throw new Error(`${what} is not in the shape readiness keeps`);
  return value;
}
