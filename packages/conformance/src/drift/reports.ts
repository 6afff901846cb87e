// What `lrg drift` writes: lines for a person, and JSON, JUnit XML and HTML reports (the escaping and the page shell are
// the readiness reports', from `@lrg/spec/markup`). Each report is a pure function of the drift report.
import { badge, escapeMarkup as x, htmlPage } from "@lrg/spec/markup";
import type { DriftReport, Finding } from "./drift.js";

/** The report formats `--report` takes. */
export const REPORT_FORMATS = ["json", "junit", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** One finding on one line: `#12 registry getThing /response/body/data/x: message`. */
export function findingLine(finding: Finding): string {
  return `#${finding.exchange} ${finding.side} ${finding.operation ?? "-"} ${finding.rule} ${finding.pointer}: ${finding.message}`;
}

/** The closing line: how many exchanges, and the findings by side. */
export function summaryLine(report: DriftReport): string {
  const count = (side: Finding["side"]) => report.findings.filter((f) => f.side === side).length;
  return `${report.exchanges} exchanges (${report.matched} matched to an operation of spec ${report.spec_version}): ${report.findings.length} findings (${count("registry")} registry, ${count("software")} software)`;
}

/** The drift report as JSON (what `--json` prints, and `--report json` writes). */
export function jsonReport(report: DriftReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Findings grouped by the operation they were found on (undocumented endpoints under `(undocumented)`), in order. */
function byOperation(findings: readonly Finding[]): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const name = finding.operation ?? "(undocumented)";
    groups.set(name, [...(groups.get(name) ?? []), finding]);
  }
  return groups;
}

/**
 * JUnit XML: one test suite for the recording, a test case per operation that has findings (each a `<failure>` listing
 * them, one a line) and one `clean` case that passes when there is none, so that a clean recording still shows a test.
 */
export function junitReport(report: DriftReport): string {
  const groups = byOperation(report.findings);
  const cases = [...groups].map(
    ([operation, findings]) =>
      `    <testcase name="${x(operation)}" classname="drift">\n      <failure message="${x(`${findings.length} finding${findings.length === 1 ? "" : "s"}: ${findings[0]?.message ?? ""}`)}" type="drift">${x(findings.map(findingLine).join("\n"))}</failure>\n    </testcase>\n`,
  );
  if (cases.length === 0) cases.push(`    <testcase name="clean" classname="drift"/>\n`);
  const totals = `tests="${cases.length}" failures="${groups.size}" errors="0" skipped="0"`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="lrg drift" ${totals}>\n` +
    `  <testsuite name="lrg drift (spec ${x(report.spec_version)}, ${report.exchanges} exchanges)" ${totals}>\n` +
    cases.join("") +
    `  </testsuite>\n` +
    `</testsuites>\n`
  );
}

const SIDES = { registry: "#cf222e", software: "#9a6700" } as const;

/** The report as one self-contained HTML page: the summary, then a table of the findings. */
export function htmlReport(report: DriftReport): string {
  const rows = report.findings.map(
    (f) =>
      `<tr><td>${f.exchange}</td><td>${badge(f.side, SIDES[f.side])}</td><td><code>${x(f.operation ?? "-")}</code></td><td>${x(f.rule)}</td><td><code>${x(f.pointer)}</code></td><td>${x(f.message)}</td></tr>`,
  );
  const table =
    rows.length === 0
      ? "<p>No finding: every exchange is one the spec allows.</p>"
      : `<table class="summary"><thead><tr><th>Exchange</th><th>Side</th><th>Operation</th><th>Rule</th><th>Pointer</th><th>Finding</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  return htmlPage(
    `lrg drift: ${report.findings.length} findings`,
    `<h1>Drift ${badge(report.findings.length === 0 ? "clean" : `${report.findings.length} findings`, report.findings.length === 0 ? "#1a7f37" : "#cf222e")}</h1>
<p>${x(summaryLine(report))}. <strong>registry</strong>: the upstream answered what the spec does not allow (the registry or the spec changed); <strong>software</strong>: the client sent what the spec does not allow.</p>
${table}`,
  );
}

/** The report in a format. */
export function reportIn(format: ReportFormat, report: DriftReport): string {
  return { json: jsonReport, junit: junitReport, html: htmlReport }[format](report);
}
