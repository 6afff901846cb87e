import type { RuleError, Verdict } from "./validation-rules.js";

/** What the registry's automatic processing decides for an application whose checks have finished. */
export type Decision =
  | { to: "VALIDATION_FAILED"; errors: RuleError[] }
  | { to: "ACCEPTED_PRIORITY_PROTECTED" | "ACCEPTED_AWAITING_PRIORITY" };

/**
 * The registry's decision on a checked application: refused with the failed rules, else accepted, with priority
 * protected while the day list is open and queued for it while it is closed. Undefined while a document's checks
 * are still running.
 */
export function decide(verdict: Verdict, dayListOpen: boolean): Decision | undefined {
  if (verdict.kind === "pending") return undefined;
  if (verdict.kind === "failed") return { to: "VALIDATION_FAILED", errors: verdict.errors };
  return { to: dayListOpen ? "ACCEPTED_PRIORITY_PROTECTED" : "ACCEPTED_AWAITING_PRIORITY" };
}
