// Registers the suite's properties as vitest tests against one target: each property is one test named by its
// traceability rows; a property the target cannot run is a skipped test whose name says why.
import { afterAll, beforeAll, expect, it } from "vitest";
import { allProperties } from "../../src/properties/index.js";
import { propertyName, type Property, type RunOptions } from "../../src/property.js";
import { runProperty, skipReason } from "../../src/runner.js";
import type { Session, TargetName } from "../../src/session.js";
import { TARGET_CAPABILITIES } from "../../src/targets.js";

/**
 * Properties that fail on a target because of a defect reported to its owner: they run as expected failures, so
 * the suite stays green and the test turns red the day the defect is fixed (then remove the entry).
 */
const KNOWN_DEFECTS: Partial<Record<TargetName, Record<string, string>>> = {
  // None known. An entry here runs its property as an expected failure, with the reason in its name.
};

function runOptions(): RunOptions {
  const runs = process.env["LRG_CONFORMANCE_RUNS"];
  const maxRuns = process.env["LRG_CONFORMANCE_MAX_RUNS"];
  const seed = process.env["LRG_CONFORMANCE_SEED"];
  return {
    ...(runs ? { runs: Number(runs) } : {}),
    ...(maxRuns ? { maxRuns: Number(maxRuns) } : {}),
    ...(seed ? { seed: Number(seed) } : {}),
  };
}

/**
 * Declares one test per property against the target that `open` starts; `defaults` are run options the environment
 * (LRG_CONFORMANCE_*) may override. Files share their module state (vitest's isolate: false), so a file passes its
 * options here rather than through process.env, which would reach the files run after it.
 */
export function describeTarget(
  target: TargetName,
  open: () => Promise<Session>,
  properties: readonly Property[] = allProperties,
  defaults: RunOptions = {},
): void {
  let session: Session | undefined;
  beforeAll(async () => {
    session = await open();
  });
  afterAll(async () => {
    await session?.close();
  });
  // Skips are decided when the tests are collected, before any target starts.
  const offered = new Set(TARGET_CAPABILITIES[target]);
  for (const property of properties) {
    const name = `${propertyName(property)} (${target})`;
    const missing = property.requires.filter((capability) => !offered.has(capability));
    if (missing.length > 0) {
      it.skip(`${name} — skipped: needs ${missing.join(", ")}`, () => {});
      continue;
    }
    const defect = KNOWN_DEFECTS[target]?.[property.id];
    (defect === undefined ? it : it.fails)(
      defect === undefined ? name : `${name} — known defect: ${defect}`,
      async (test) => {
        if (!session) throw new Error(`the ${target} target did not start`);
        // A property changing registry-wide state is skipped in a session that shares its gateway (not exclusive).
        if (property.exclusive !== undefined && !session.exclusive) {
          test.skip(skipReason(property, session));
          return;
        }
        expect(skipReason(property, session)).toBeUndefined();
        const result = await runProperty(property, session, { ...defaults, ...runOptions() });
        if (result.outcome === "failed") throw new Error(result.message);
        expect(result.outcome).toBe("passed");
      },
    );
  }
}
