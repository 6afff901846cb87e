// A readiness run as one self-contained HTML page for people: a verdict per check with its rule, how to fix it and
// the evidence as a timeline.
import { READINESS_BOUNDS } from "@lrg/spec";
import {
  carried,
  escapeMarkup as x,
  queryText,
  secondsBetween,
  type ReadinessCheckResult,
  type ReadinessRun,
} from "./escape.js";
import { badge as colouredBadge, htmlPage } from "@lrg/spec/markup";

/** Words and colours of each verdict (the overall one and each check's). */
const VERDICTS: Record<ReadinessCheckResult["verdict"], { label: string; colour: string }> = {
  passed: { label: "passed", colour: "#1a7f37" },
  failed: { label: "failed", colour: "#cf222e" },
  not_exercised: { label: "not exercised", colour: "#9a6700" },
  running: { label: "running", colour: "#0969da" },
};

function badge(verdict: ReadinessCheckResult["verdict"]): string {
  const { label, colour } = VERDICTS[verdict];
  return colouredBadge(label, colour);
}

function definitions(rows: [string, string | null][]): string {
  return `<dl>${rows
    .filter((row): row is [string, string] => row[1] !== null)
    .map(([term, text]) => `<dt>${x(term)}</dt><dd>${x(text)}</dd>`)
    .join("")}</dl>`;
}

/** The observed requests of a check, oldest first, with their time on the unit's clock and since the run started. */
function timeline(check: ReadinessCheckResult, startedAt: string): string {
  if (check.evidence.requests.length === 0) return "<p>No observed request bears on this check.</p>";
  const head = ["#", "At (unit's clock)", "Since start", "Request", "Status", "Carried"];
  const rows = check.evidence.requests.map((observation) =>
    [
      String(observation.sequence),
      observation.at,
      `+${secondsBetween(startedAt, observation.at).toFixed(3)} s`,
      `${observation.method} ${observation.operation_id}${queryText(observation)}`,
      String(observation.status),
      carried(observation).join("; "),
    ]
      .map((cell, index) => (index === 3 ? `<td><code>${x(cell)}</code></td>` : `<td>${x(cell)}</td>`))
      .join(""),
  );
  return `<div class="timeline"><table><thead><tr>${head.map((cell) => `<th>${x(cell)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row}</tr>`)
    .join("")}</tbody></table></div>`;
}

/** Longest text of what was found that the summary shows on its one line (the check's card shows it whole). */
const SUMMARY_FOUND_LENGTH = 160;

/** What was found, on one line: spaces collapsed, cut with an ellipsis past `SUMMARY_FOUND_LENGTH` characters. */
function oneLine(text: string): string {
  // By code points, so that the cut never splits a character in two.
  const characters = Array.from(text.replace(/\s+/g, " ").trim());
  return characters.length <= SUMMARY_FOUND_LENGTH
    ? characters.join("")
    : `${characters.slice(0, SUMMARY_FOUND_LENGTH - 1).join("")}…`;
}

/** The table the page opens with: one row per check, in the run's order, with its verdict and what was found. */
function summaryTable(run: ReadinessRun): string {
  const rows = run.checks.map(
    (check) =>
      `<tr><td><code>${x(check.name)}</code></td><td>${badge(check.verdict)}</td><td>${x(oneLine(check.evidence.found))}</td></tr>`,
  );
  return `<table class="summary"><thead><tr><th>Check</th><th>Verdict</th><th>Found</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function checkSection(check: ReadinessCheckResult, startedAt: string): string {
  return `<section id="check-${x(check.name)}">
<h2><code>${x(check.name)}</code> ${badge(check.verdict)}</h2>
${definitions([
  ["Rule", check.rule],
  ["Expected", check.evidence.expected],
  ["Found", check.evidence.found],
  ["How to fix", check.how_to_pass],
  ["Do now", check.instructions],
])}
<h3>Evidence: ${check.evidence.requests.length} observed request${check.evidence.requests.length === 1 ? "" : "s"}</h3>
${timeline(check, startedAt)}
</section>`;
}

/**
 * The run as one HTML document: the overall verdict, a summary table (each check's verdict and what was found, on
 * one line), the run's details, then each check's card: its verdict, rule, expected and found, how to fix, its
 * instructions while it runs, and its observed requests as a timeline. Self-contained (inline style, nothing loaded,
 * a Content-Security-Policy that forbids loading anything) and every text escaped; a pure function of the run.
 */
export function htmlReport(run: ReadinessRun): string {
  const details = definitions([
    ["Run", run.run_id],
    ["Business unit", run.business_unit_id],
    ["Status", run.status],
    ["Started", `${run.started_at} (the business unit's clock)`],
    ["Deadline", run.deadline],
    ["Ended", run.ended_at],
    ["Time limit", `${run.time_limit_seconds} s`],
    [
      "Observed requests",
      `${run.observations.recorded} recorded${run.observations.dropped > 0 ? `, ${run.observations.dropped} not kept (over ${READINESS_BOUNDS.observationsKept.toLocaleString("en-GB")})` : ""}`,
    ],
  ]);
  return htmlPage(
    `Readiness run ${run.run_id}: ${VERDICTS[run.verdict].label}`,
    `<h1>Readiness run ${badge(run.verdict)}</h1>
${summaryTable(run)}
${details}
${run.checks.map((check) => checkSection(check, run.started_at)).join("\n")}`,
  );
}
