// lrg readiness run --expect-failures FILE: the checks a team has accepted as known failures, each with its reason;
// how each check of an ended run stands against them (what gates the exit code), and the JUnit report marked to match.
import { readFileSync } from "node:fs";
import type { SandboxComponents } from "@lrg/client";
import { enums } from "@lrg/spec/constants";
import { EXIT, UsageError } from "../conventions.js";

type Schemas = SandboxComponents["schemas"];
type Run = Schemas["ReadinessRun"];
type CheckName = Schemas["ReadinessCheckName"];
type Verdict = Schemas["ReadinessVerdict"];

/** The checks a team expects to fail, each with the reason it accepted the failure, and the file that says so. */
export interface ExpectedFailures {
  readonly file: string;
  readonly reasons: ReadonlyMap<CheckName, string>;
}

/** What FILE holds, in words, for the error that refuses a file of another shape. */
const SHAPE = `{ "checks": { "<check name>": "the reason your team accepted its failure" } }`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isCheckName = (name: string): name is CheckName => (enums.ReadinessCheckName as readonly string[]).includes(name);

/** The text of a file the command line named; one it cannot read is a UsageError (exit 2) naming it and why. */
export function readGivenFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Reads and checks an expected-failures file: a JSON object whose one member `checks` maps each check name to the
 * reason, a string that is not empty. With `runChecks` (the run's `--checks`), every check listed must be among them:
 * a check the run does not examine could never fail as expected. Any mistake is a UsageError (exit 2, no run started).
 */
export function readExpectedFailures(file: string, runChecks: readonly string[] | undefined): ExpectedFailures {
  const text = readGivenFile(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message}); it must hold ${SHAPE}`);
  }
  if (!isObject(parsed) || !isObject(parsed["checks"])) throw new UsageError(`${file} must hold ${SHAPE}`);
  const others = Object.keys(parsed).filter((name) => name !== "checks");
  if (others.length > 0)
    throw new UsageError(
      `${file}: unknown member ${others.map((name) => `"${name}"`).join(", ")}; it must hold ${SHAPE}`,
    );
  const reasons = new Map<CheckName, string>();
  for (const [name, reason] of Object.entries(parsed["checks"])) {
    if (!isCheckName(name))
      throw new UsageError(
        `${file}: checks.${name} is not a readiness check (the checks: ${enums.ReadinessCheckName.join(", ")})`,
      );
    if (typeof reason !== "string" || reason.trim() === "")
      throw new UsageError(
        `${file}: checks.${name} must give the reason your team accepted its failure (a string that is not empty)`,
      );
    if (runChecks !== undefined && !runChecks.includes(name))
      throw new UsageError(
        `${file}: checks.${name} is not among --checks (${runChecks.join(", ")}): a check the run does not examine cannot fail as expected`,
      );
    reasons.set(name, reason.trim());
  }
  return { file, reasons };
}

/**
 * How a check of an ended run stands: `ok` (passed; or not exercised, without --strict), `failed` (failed, or not
 * exercised with --strict, and not listed), `expected-failure` (listed, and failed), `did-not-fail` (listed, but
 * passed, was not exercised, or was not in the run). `failed` and `did-not-fail` fail the run.
 */
export type Standing = "ok" | "failed" | "expected-failure" | "did-not-fail";

/** One check's standing, with the reason it was expected to fail when it was listed. */
export interface CheckStanding {
  readonly name: CheckName;
  /** The check's verdict; null for a listed check the run did not examine. */
  readonly verdict: Verdict | null;
  readonly standing: Standing;
  readonly reason: string | undefined;
}

/** Every check's standing: the run's checks in its order, then any listed check the run did not examine. */
export function standingsOf(
  run: { readonly checks: readonly Pick<Run["checks"][number], "name" | "verdict">[] },
  options: { strict: boolean; expected?: ExpectedFailures | undefined },
): CheckStanding[] {
  const reasons = options.expected?.reasons ?? new Map<CheckName, string>();
  const standings = run.checks.map(({ name, verdict }): CheckStanding => {
    const reason = reasons.get(name);
    const failing = verdict === "failed" || (options.strict && verdict !== "passed");
    const standing: Standing =
      reason !== undefined ? (verdict === "failed" ? "expected-failure" : "did-not-fail") : failing ? "failed" : "ok";
    return { name, verdict, standing, reason };
  });
  for (const [name, reason] of reasons)
    if (!run.checks.some((check) => check.name === name))
      standings.push({ name, verdict: null, standing: "did-not-fail", reason });
  return standings;
}

/** The exit code of an ended run: 0 when no check stands `failed` or `did-not-fail`, else 1. */
export function exitCodeOf(standings: readonly CheckStanding[]): number {
  return standings.some(({ standing }) => standing === "failed" || standing === "did-not-fail") ? 1 : EXIT.ok;
}

/** What a listed check that did not fail is told, naming the file to remove it from. */
export function didNotFailText(standing: CheckStanding, file: string): string {
  const what =
    standing.verdict === "passed"
      ? "passed"
      : standing.verdict === null
        ? "was not in the run"
        : "was not exercised (let your software do what it needs)";
  return `expected to fail but ${what}: remove it from ${file}`;
}

/** `text` safe in a double-quoted XML attribute; characters XML 1.0 cannot hold become U+FFFD. */
function xmlAttribute(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids are what this replaces
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "\uFFFD")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
  );
}

/** A test case's verdict element as the gateway writes it: a `<failure>` with its text, or a `<skipped/>`. */
const VERDICT_ELEMENT = /\n {6}<(?:failure\b[^>]*>[^<]*<\/failure>|skipped\b[^>]*\/>)/;

/**
 * The run's JUnit report (as `getReadinessRunJunit` renders it) marked with the expected failures, as pytest marks an
 * expected failure: a listed check that failed is `<skipped type="expected_failure">` with the reason (no longer a
 * failure); a listed check that did not fail is a `<failure type="expected_failure_did_not_fail">` that says to remove
 * it from FILE. The suite's counts of failures and skips follow. Other test cases are left as they are.
 */
export function markExpectedFailures(xml: string, standings: readonly CheckStanding[], file: string): string {
  const elements = new Map<string, string>();
  for (const standing of standings) {
    if (standing.standing === "expected-failure")
      elements.set(
        standing.name,
        `<skipped type="expected_failure" message="${xmlAttribute(`expected failure (${file}): ${standing.reason ?? ""}`)}"/>`,
      );
    if (standing.standing === "did-not-fail" && standing.verdict !== null)
      elements.set(
        standing.name,
        `<failure type="expected_failure_did_not_fail" message="${xmlAttribute(`${didNotFailText(standing, file)} (expected because: ${standing.reason ?? ""})`)}"/>`,
      );
  }
  const marked = xml.replace(
    /(<testcase name="([^"]+)"[^>]*>)([\s\S]*?)(<\/testcase>)/g,
    (whole, open: string, name: string, body: string, close: string) => {
      const element = elements.get(name);
      return element === undefined ? whole : `${open}\n      ${element}${body.replace(VERDICT_ELEMENT, "")}${close}`;
    },
  );
  const failures = (marked.match(/<testcase [\s\S]*?<\/testcase>/g) ?? []).filter((testCase) =>
    testCase.includes("<failure "),
  ).length;
  const skipped = (marked.match(/<testcase [\s\S]*?<\/testcase>/g) ?? []).filter((testCase) =>
    testCase.includes("<skipped "),
  ).length;
  return marked.replace(
    / failures="\d+" errors="0" skipped="\d+"/g,
    ` failures="${failures}" errors="0" skipped="${skipped}"`,
  );
}
