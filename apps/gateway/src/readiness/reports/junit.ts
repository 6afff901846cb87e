// A readiness run as JUnit XML: one test case per check, for the test report of a CI.
import {
  escapeMarkup as x,
  secondsBetween,
  timelineLine,
  type ReadinessCheckResult,
  type ReadinessRun,
} from "./escape.js";

/** The class name every check's test case carries (CI tools group test cases by it). */
const CLASS_NAME = "readiness";

/** What a check's `<system-out>` holds: the rule, how to pass, the instructions while it runs, the timeline. */
function systemOut(check: ReadinessCheckResult, startedAt: string): string {
  const lines = [
    `rule: ${check.rule}`,
    `how to pass: ${check.how_to_pass}`,
    ...(check.instructions === null ? [] : [`instructions: ${check.instructions}`]),
    `expected: ${check.evidence.expected}`,
    `found: ${check.evidence.found}`,
    `observed requests (${check.evidence.requests.length}, times on the business unit's clock):`,
    ...check.evidence.requests.map((observation) => `  ${timelineLine(observation, startedAt)}`),
  ];
  return lines.join("\n");
}

/** The element that gives a check's verdict: `<failure>`, `<skipped>`, or none for a check that passed. */
function verdictElement(check: ReadinessCheckResult): string {
  switch (check.verdict) {
    case "passed":
      return "";
    case "failed":
      return `      <failure message="${x(check.evidence.found)}" type="failed">${x(`found: ${check.evidence.found}\nexpected: ${check.evidence.expected}`)}</failure>\n`;
    case "not_exercised":
      return `      <skipped message="${x(`not exercised: ${check.evidence.found}`)}"/>\n`;
    case "running":
      return `      <skipped message="${x(`running: not decided yet. ${check.instructions ?? check.evidence.found}`)}"/>\n`;
  }
}

/**
 * The run as a JUnit XML document (UTF-8): a `<testsuites>` holding one `<testsuite>` for the run, one `<testcase>`
 * per check in the run's order. A failed check is a `<failure>`; `not_exercised`, and `running` while the run runs,
 * are `<skipped>` with a message that says which. Every text is escaped; a pure function of the run.
 */
export function junitReport(run: ReadinessRun): string {
  const count = (verdict: ReadinessCheckResult["verdict"]) => run.checks.filter((c) => c.verdict === verdict).length;
  const tests = run.checks.length;
  const failures = count("failed");
  const skipped = count("not_exercised") + count("running");
  const time = run.ended_at === null ? "" : ` time="${secondsBetween(run.started_at, run.ended_at).toFixed(3)}"`;
  const totals = `tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}"${time}`;
  const properties = [
    ["run_id", run.run_id],
    ["business_unit_id", run.business_unit_id],
    ["status", run.status],
    ["verdict", run.verdict],
    ["started_at", run.started_at],
    ["deadline", run.deadline],
    ["ended_at", run.ended_at ?? ""],
    ["observations_recorded", String(run.observations.recorded)],
    ["observations_dropped", String(run.observations.dropped)],
  ]
    .map(([name, value]) => `      <property name="${x(name ?? "")}" value="${x(value ?? "")}"/>\n`)
    .join("");
  const cases = run.checks
    .map(
      (check) =>
        `    <testcase name="${x(check.name)}" classname="${CLASS_NAME}">\n${verdictElement(check)}      <system-out>${x(systemOut(check, run.started_at))}</system-out>\n    </testcase>\n`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="readiness run ${x(run.run_id)}" ${totals}>\n` +
    `  <testsuite name="readiness run ${x(run.run_id)}" ${totals} timestamp="${x(run.started_at)}">\n` +
    `    <properties>\n${properties}    </properties>\n` +
    cases +
    `  </testsuite>\n` +
    `</testsuites>\n`
  );
}
