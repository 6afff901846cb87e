// Runs properties against one session, one after another (they share the session's business unit, its clock and
// settings, and in an exclusive session the registry-wide day list), and reports each as passed, failed or skipped
// with the reason.
import { propertyName, PropertyContext, PropertyFailure, type Property, type RunOptions } from "./property.js";
import type { Session } from "./session.js";

export type Outcome = "passed" | "failed" | "skipped";

/** The result of one property against one target. */
export interface PropertyResult {
  id: string;
  name: string;
  rows: readonly string[];
  target: string;
  outcome: Outcome;
  runs: number;
  /** Requests sent to the target. */
  calls: number;
  durationMs: number;
  /** Why it was skipped, or the failure report. */
  message?: string;
  seed?: number;
  counterexample?: unknown;
}

/** Why a property cannot run against this session, or undefined when it can. */
export function skipReason(property: Property, session: Session): string | undefined {
  const missing = property.requires.filter((capability) => !session.has(capability));
  if (missing.length === 0)
    return property.exclusive === undefined || session.exclusive
      ? undefined
      : `${session.target}: ${property.exclusive}: run with --exclusive on a gateway of your own`;
  const why: Record<string, string> = {
    "control-plane": "needs the sandbox control plane to set up state",
    semantics: "checks behaviour the schemas cannot express (a mock only validates and echoes examples)",
    writes:
      "creates or changes data or a user's state (failed logins), or may be charged for (observational properties only on this target)",
  };
  return `${session.target}: ${missing.map((capability) => why[capability] ?? capability).join("; ")}`;
}

/** Runs one property; never throws (the failure is in the result). */
export async function runProperty(
  property: Property,
  session: Session,
  options: RunOptions = {},
): Promise<PropertyResult> {
  const base = { id: property.id, name: propertyName(property), rows: property.rows, target: session.target };
  const reason = skipReason(property, session);
  if (reason !== undefined) return { ...base, outcome: "skipped", runs: 0, calls: 0, durationMs: 0, message: reason };
  const context = new PropertyContext(session, options, property.runs);
  const started = performance.now();
  const callsBefore = session.calls;
  // What the property cost, passed or failed: read when it ends.
  const spent = () => ({
    runs: context.runs,
    calls: session.calls - callsBefore,
    durationMs: performance.now() - started,
  });
  try {
    await session.beforeEachProperty?.();
    await property.check(context);
    return { ...base, outcome: "passed", ...spent() };
  } catch (error) {
    const failure = error instanceof PropertyFailure ? error : undefined;
    return {
      ...base,
      outcome: "failed",
      ...spent(),
      message: error instanceof Error ? `${error.message}${failure ? "" : `\n${error.stack ?? ""}`}` : String(error),
      ...(failure ? { seed: failure.seed, counterexample: failure.counterexample } : {}),
    };
  }
}

/** Runs every property in order; `onProgress` hears of each before and after. */
export async function runProperties(
  properties: readonly Property[],
  session: Session,
  options: RunOptions = {},
  onProgress?: (event: { index: number; total: number; property: Property; result?: PropertyResult }) => void,
): Promise<PropertyResult[]> {
  const results: PropertyResult[] = [];
  for (const [index, property] of properties.entries()) {
    onProgress?.({ index, total: properties.length, property });
    const result = await runProperty(property, session, options);
    results.push(result);
    onProgress?.({ index, total: properties.length, property, result });
  }
  return results;
}
