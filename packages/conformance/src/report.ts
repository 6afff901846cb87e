// What a run of the suite reports: a summary table for people and JUnit XML for CI.
import type { PropertyResult } from "./runner.js";

/** Characters XML 1.0 cannot hold at all (control characters other than tab, line feed and carriage return). */
const forbidden = (char: string) => {
  const code = char.charCodeAt(0);
  return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
};

function escapeXml(text: string): string {
  return [...text]
    .filter((char) => !forbidden(char))
    .join("")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** JUnit XML of one run: a test suite per target, a test case per property. */
export function junitXml(results: readonly PropertyResult[]): string {
  const targets = [...new Set(results.map((r) => r.target))];
  const suites = targets.map((target) => {
    const own = results.filter((r) => r.target === target);
    const seconds = (ms: number) => (ms / 1000).toFixed(3);
    const cases = own.map((r) => {
      const head = `    <testcase classname="lrg-conformance.${escapeXml(target)}" name="${escapeXml(r.name)}" time="${seconds(r.durationMs)}">`;
      const properties = `\n      <properties><property name="id" value="${escapeXml(r.id)}"/><property name="runs" value="${r.runs}"/><property name="requests" value="${r.calls}"/>${r.seed !== undefined ? `<property name="seed" value="${r.seed}"/>` : ""}</properties>`;
      if (r.outcome === "skipped")
        return `${head}${properties}\n      <skipped message="${escapeXml(r.message ?? "")}"/>\n    </testcase>`;
      if (r.outcome === "failed") {
        const first = (r.message ?? "failed").split("\n")[0] ?? "failed";
        return `${head}${properties}\n      <failure message="${escapeXml(first)}">${escapeXml(r.message ?? "")}</failure>\n    </testcase>`;
      }
      return `${head}${properties}\n    </testcase>`;
    });
    const count = (outcome: string) => own.filter((r) => r.outcome === outcome).length;
    const time = seconds(own.reduce((sum, r) => sum + r.durationMs, 0));
    return `  <testsuite name="lrg-conformance (${escapeXml(target)})" tests="${own.length}" failures="${count("failed")}" errors="0" skipped="${count("skipped")}" time="${time}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="lrg-conformance">\n${suites.join("\n")}\n</testsuites>\n`;
}

/** A plain-text table: property, target, runs, result. */
export function summaryTable(results: readonly PropertyResult[]): string {
  const rows = results.map((r) => [
    r.id,
    r.target,
    String(r.runs),
    r.outcome === "skipped" ? "skipped" : `${r.outcome} (${(r.durationMs / 1000).toFixed(1)} s)`,
  ]);
  const header = ["property", "target", "runs", "result"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 2 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const count = (outcome: string) => results.filter((r) => r.outcome === outcome).length;
  return [
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    "",
    `${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped`,
  ].join("\n");
}
