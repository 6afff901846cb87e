import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadResult } from "./load.js";
import type { machine } from "./options.js";

/** The servers compared on each operation. */
export type Target = "gateway" | "prism" | "bare";
export type Operation = "list" | "acknowledge";

/** A figure compared with its target: at least (`min`) or at most (`max`) the target; no target is informative. */
export interface Ratio {
  name: string;
  value: number;
  unit: "×" | "ms";
  target?: number;
  kind?: "min" | "max";
  met?: boolean;
}

/** Everything one run of `npm run bench` measured. */
export interface BenchResults {
  generatedAt: string;
  quick: boolean;
  machine: ReturnType<typeof machine>;
  load: { connections: number; warmupSeconds: number; durationSeconds: number; slices: number };
  /** 1-minute load average at the start and the end: the machine is shared, and other work skews the figures. */
  loadAverage: { start: number; end: number };
  dataSet: { units: number; notifications: number; newNotifications: number; applications: number; busyUnits: number; seededAt: string };
  operations: Record<Operation, { request: string; rotatedUnits: number; results: Record<Target, LoadResult> }>;
  /** Acknowledge through the gateway's storage without HTTP; requestsPerSecond counts transactions of 100 ids. */
  sqliteDirect: LoadResult;
  gatewayStartup: { primedCredentials: number; primingSeconds: number };
  ratios: Ratio[];
  notes: string[];
}

const TARGET_NAMES: Record<Target, string> = { gateway: "gateway", prism: "Prism (static examples)", bare: "bare node:http (same bytes)" };
const OPERATION_NAMES: Record<Operation, string> = { list: "GET /v1/notifications", acknowledge: "POST /v1/notifications/acknowledge" };

/** Gateway against Prism and the bare server on both operations, acknowledge against SQLite, and the p99 target. */
export function ratiosOf(results: Pick<BenchResults, "operations" | "sqliteDirect">): Ratio[] {
  const ratios: Ratio[] = [];
  const check = (ratio: Ratio): Ratio =>
    ratio.target === undefined ? ratio : { ...ratio, met: ratio.kind === "max" ? ratio.value < ratio.target : ratio.value >= ratio.target };
  for (const operation of ["list", "acknowledge"] as const) {
    const { gateway, prism, bare } = results.operations[operation].results;
    ratios.push(check({ name: `${operation}: gateway / Prism`, value: gateway.requestsPerSecond / prism.requestsPerSecond, unit: "×", target: 10, kind: "min" }));
    ratios.push(check({ name: `${operation}: gateway / bare node:http`, value: gateway.requestsPerSecond / bare.requestsPerSecond, unit: "×", target: 0.5, kind: "min" }));
    ratios.push(check({ name: `${operation}: gateway p99`, value: gateway.latencyMs.p99, unit: "ms", target: 25, kind: "max" }));
  }
  ratios.push({
    name: "acknowledge: gateway / SQLite direct",
    value: results.operations.acknowledge.results.gateway.requestsPerSecond / results.sqliteDirect.requestsPerSecond,
    unit: "×",
  });
  return ratios;
}

const fixed = (value: number, digits = 1) => value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** A ratio or latency as the tables show it. */
export const ratioText = (ratio: Ratio) =>
  ratio.unit === "ms" ? `${fixed(ratio.value)} ms` : ratio.value < 0.1 ? `${Number(ratio.value.toPrecision(2))}×` : `${fixed(ratio.value, ratio.value < 10 ? 2 : 1)}×`;

/** The results as Markdown tables. */
export function markdownOf(results: BenchResults): string {
  const lines = [
    `# Notification benchmarks${results.quick ? " (quick mode)" : ""}`,
    "",
    `${results.generatedAt} · Node ${results.machine.node} · ${results.machine.cpus} × ${results.machine.cpuModel} (load average ${results.loadAverage.start} → ${results.loadAverage.end}) · ` +
      `${results.load.connections} connections, ${results.load.warmupSeconds} s warm-up + ${results.load.durationSeconds} s per server in ${results.load.slices} interleaved slices · ` +
      `${results.dataSet.notifications.toLocaleString("en")} notifications (${results.dataSet.newNotifications.toLocaleString("en")} NEW) ` +
      `across ${results.dataSet.units.toLocaleString("en")} business units`,
    "",
    "| Operation | Server | req/s | p50 ms | p99 ms | max ms | non-2xx / errors |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const operation of ["list", "acknowledge"] as const) {
    for (const target of ["gateway", "prism", "bare"] as const) {
      const r = results.operations[operation].results[target];
      lines.push(
        `| ${OPERATION_NAMES[operation]} | ${TARGET_NAMES[target]} | ${fixed(r.requestsPerSecond, 0)} | ${fixed(r.latencyMs.p50)} | ${fixed(r.latencyMs.p99)} | ${fixed(r.latencyMs.max)} | ${r.non2xx} / ${r.errors + r.timeouts}${r.stoppedEarly ? " (ids used up)" : ""} |`,
      );
    }
  }
  const direct = results.sqliteDirect;
  lines.push(
    `| POST /v1/notifications/acknowledge | SQLite directly: the gateway's storage, no HTTP (one caller) | ${fixed(direct.requestsPerSecond, 0)} | ${fixed(direct.latencyMs.p50, 2)} | ${fixed(direct.latencyMs.p99, 2)} | ${fixed(direct.latencyMs.max, 2)} | – |`,
    "",
    "| Ratio | Value | Target | Met |",
    "|---|---:|---:|:---:|",
  );
  for (const ratio of results.ratios) {
    const target = ratio.target === undefined ? "–" : `${ratio.kind === "max" ? "<" : "≥"} ${ratio.unit === "ms" ? `${ratio.target} ms` : `${ratio.target}×`}`;
    lines.push(`| ${ratio.name} | ${ratioText(ratio)} | ${target} | ${ratio.met === undefined ? "–" : ratio.met ? "yes" : "**no**"} |`);
  }
  if (results.notes.length > 0) lines.push("", ...results.notes.map((note) => `- ${note}`));
  return `${lines.join("\n")}\n`;
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A horizontal bar chart of the ratios on a logarithmic axis, each with its target marked; a latency is drawn as
 * its headroom (target ÷ p99), so that for every bar "at or right of the mark" means the target is met.
 */
export function svgOf(results: BenchResults): string {
  const bars = results.ratios.map((ratio) => {
    const headroom = ratio.unit === "ms";
    return {
      label: headroom ? ratio.name.replace("gateway p99", `${ratio.target} ms ÷ gateway p99`) : ratio.name,
      value: headroom && ratio.target !== undefined ? ratio.target / Math.max(ratio.value, 0.001) : ratio.value,
      mark: headroom ? 1 : ratio.target,
      text: headroom ? `p99 ${ratioText(ratio)}` : ratioText(ratio),
      met: ratio.met,
    };
  });
  const values = bars.flatMap((bar) => [bar.value, bar.mark ?? bar.value]).filter((v) => v > 0);
  const low = Math.floor(Math.log10(Math.min(0.01, ...values)));
  const high = Math.ceil(Math.log10(Math.max(100, ...values)));
  const [left, plot, rowHeight, top] = [300, 440, 30, 56];
  const width = left + plot + 90;
  const height = top + bars.length * rowHeight + 40;
  const x = (value: number) => left + ((Math.log10(Math.max(value, 10 ** low)) - low) / (high - low)) * plot;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600">Gateway notification benchmarks: ratios${results.quick ? " (quick mode)" : ""}</text>`,
    `<text x="12" y="40" fill="#555">${escape(`${results.generatedAt.slice(0, 16).replace("T", " ")} UTC · ${results.load.connections} connections · ${results.dataSet.notifications.toLocaleString("en")} notifications · log scale; black mark = target; green met, red missed`)}</text>`,
  ];
  for (let decade = low; decade <= high; decade += 1) {
    const gx = x(10 ** decade);
    parts.push(`<line x1="${gx}" y1="${top - 6}" x2="${gx}" y2="${top + bars.length * rowHeight}" stroke="#ddd"/>`);
    parts.push(`<text x="${gx}" y="${top + bars.length * rowHeight + 16}" text-anchor="middle" fill="#555">${10 ** decade >= 1 ? 10 ** decade : (10 ** decade).toFixed(-decade)}×</text>`);
  }
  bars.forEach((bar, index) => {
    const y = top + index * rowHeight;
    const colour = bar.met === undefined ? "#607d8b" : bar.met ? "#2e7d32" : "#c62828";
    parts.push(`<text x="${left - 8}" y="${y + 19}" text-anchor="end">${escape(bar.label)}</text>`);
    parts.push(`<rect x="${left}" y="${y + 6}" width="${Math.max(1, x(bar.value) - left).toFixed(1)}" height="${rowHeight - 12}" fill="${colour}"/>`);
    if (bar.mark !== undefined) {
      const mx = x(bar.mark).toFixed(1);
      parts.push(`<line x1="${mx}" y1="${y + 2}" x2="${mx}" y2="${y + rowHeight - 2}" stroke="#000" stroke-width="2"/>`);
    }
    parts.push(`<text x="${(Math.max(x(bar.value), bar.mark !== undefined ? x(bar.mark) : 0) + 6).toFixed(1)}" y="${y + 19}">${escape(bar.text)}</text>`);
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** Writes latest.json, latest.md and latest.svg into `dir`; answers their paths. */
export function writeResults(dir: string, results: BenchResults): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ["latest.json", `${JSON.stringify(results, null, 2)}\n`],
    ["latest.md", markdownOf(results)],
    ["latest.svg", svgOf(results)],
  ];
  return files.map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
}
