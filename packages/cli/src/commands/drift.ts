// lrg drift FILE.har: a recording of the software's exchanges judged against the spec and the registry's behaviour
// rules, each finding classified by who departed from the spec (`@lrg/conformance/drift`).
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { ExitWith, UsageError } from "../conventions.js";
// The drift judges (the conformance suite's) are loaded when a recording is judged, not when lrg starts.
import type { Exchange, ReportFormat } from "@lrg/conformance/drift";
import { runtimeOf, subcommand } from "../runtime.js";
import { readGivenFile } from "./readiness-expectations.js";

/** The reports `--report` writes (the drift module's REPORT_FORMATS, which `drift.test.ts` compares with this). */
export const REPORT_FORMATS: readonly ReportFormat[] = ["json", "junit", "html"];

interface DriftFlags {
  readonly spec?: string;
  readonly report?: string;
  readonly out?: string;
  readonly server?: string;
}

/** Only the exchanges under `server` (a base URL), with its path taken off theirs; all of them without it. */
export function underServer(exchanges: Exchange[], server: string | undefined): Exchange[] {
  if (server === undefined) return exchanges;
  let base: URL;
  try {
    base = new URL(server);
  } catch {
    throw new UsageError(`--server is not an absolute URL: ${server}`);
  }
  const prefix = base.pathname.replace(/\/$/, "");
  return exchanges
    .filter((e) => e.url.startsWith(`${base.origin}${prefix}/`) || e.url === `${base.origin}${prefix}`)
    .map((e) => ({ ...e, pathname: e.pathname.slice(prefix.length) || "/" }));
}

export function registerDrift(program: Command): void {
  subcommand(
    program,
    "drift <file.har>",
    "Judge a HAR recording of your software's exchanges against the spec (each request and answer, with the checks the gateway uses) and the registry's behaviour rules (page size and order, acknowledged notifications, Retry-After, deferred searches); each finding says who departed: the registry (its answer) or the software (its request). Exit 0: no finding; 1: findings; 2: the file cannot be read as HAR",
    [
      "lrg drift recording.har",
      "lrg drift recording.har --report junit --out drift.xml",
      "lrg drift recording.har --server https://registry.example/bg2test --json | jq '.findings[].rule'",
    ],
  )
    .option(
      "--spec <file>",
      "judge against this bundled registry document (JSON) instead of the spec lrg was built with",
    )
    .option("--report <format>", `also write a report: ${REPORT_FORMATS.join(", ")} (with --out)`)
    .option("--out <file>", "where --report writes")
    .option("--server <url>", "only the exchanges under this base URL, its path taken off theirs")
    .action(async (file: string, flags: DriftFlags, command: Command) => {
      const { out } = runtimeOf(command);
      const { builtSpec, drift, findingLine, HarError, readHar, reportIn, specFromFile, summaryLine } =
        await import("@lrg/conformance/drift");
      if ((flags.report === undefined) !== (flags.out === undefined))
        throw new UsageError("--report and --out go together");
      if (flags.report !== undefined && !(REPORT_FORMATS as readonly string[]).includes(flags.report))
        throw new UsageError(`--report is one of ${REPORT_FORMATS.join(", ")} (got ${flags.report})`);
      let spec = builtSpec;
      if (flags.spec !== undefined) {
        try {
          spec = specFromFile(flags.spec);
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      }
      let exchanges: Exchange[];
      try {
        exchanges = readHar(readGivenFile(file));
      } catch (error) {
        if (error instanceof HarError) throw new UsageError(`${file} cannot be read: ${error.message}`);
        throw error;
      }
      const report = drift(spec, underServer(exchanges, flags.server));
      if (flags.report !== undefined && flags.out !== undefined) {
        try {
          writeFileSync(flags.out, reportIn(flags.report as ReportFormat, report));
        } catch (error) {
          throw new UsageError(
            `cannot write ${flags.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
          );
        }
        if (!out.json) out.note(`lrg: wrote ${flags.out}`);
      }
      if (out.json) out.data(report);
      else {
        for (const finding of report.findings) out.line(findingLine(finding));
        out.line(summaryLine(report));
      }
      if (report.findings.length > 0) throw new ExitWith(1);
    });
}
