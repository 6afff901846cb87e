// lrg readiness ...: readiness runs of the sandbox, which examine the integrator's own software on one business unit
// (start one and follow it to its verdict, show, list, cancel), and their JUnit and HTML reports.
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { unwrap, type SandboxClient, type SandboxComponents } from "@lrg/client";
import { enums } from "@lrg/spec/constants";
import { EXIT, ExitWith, parseDuration, reportOf, table, UsageError, type Output } from "../conventions.js";
import { runtimeOf, subcommand } from "../runtime.js";

type Schemas = SandboxComponents["schemas"];
type Run = Schemas["ReadinessRun"];
type Verdict = Schemas["ReadinessVerdict"];

/** What `run` asks for: without `time_limit_seconds` the spec's default (one hour), as `run` without `--time-limit`. */
type RunRequest = Schemas["ReadinessRunRequest"];

/** Report files to write: `--junit FILE`, `--html FILE`. */
interface ReportFlags {
  readonly junit?: string;
  readonly html?: string;
}

/** Writes the run's reports the API renders (`getReadinessRunJunit`, `getReadinessRunHtml`) to the files named. */
async function writeReports(sandbox: SandboxClient, out: Output, runId: string, flags: ReportFlags): Promise<void> {
  const params = { params: { path: { run_id: runId } }, parseAs: "text" as const };
  const reports = [
    [flags.junit, () => sandbox.GET("/sandbox/v1/readiness-runs/{run_id}/junit", params)],
    [flags.html, () => sandbox.GET("/sandbox/v1/readiness-runs/{run_id}/html", params)],
  ] as const;
  for (const [file, fetchReport] of reports) {
    if (file === undefined) continue;
    const text = await unwrap(fetchReport());
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new UsageError(
        `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (!out.json) out.note(`lrg: wrote ${file}`);
  }
}

/**
 * The exit code of an ended run: 0 when every check passed or was not exercised (with `strict`, not exercised fails
 * too), 1 when any check failed.
 */
export function exitCodeOf(run: Pick<Run, "checks">, strict: boolean): number {
  const failing = (verdict: Verdict) => verdict === "failed" || (strict && verdict !== "passed");
  return run.checks.some((check) => failing(check.verdict)) ? 1 : EXIT.ok;
}

const VERDICT_STYLE = { passed: "green", failed: "red", not_exercised: "yellow", running: "cyan" } as const;

function paintVerdict(out: Output, verdict: Verdict): string {
  return out.paint(VERDICT_STYLE[verdict], verdict);
}

/** One line per check: its name, its verdict and what was found. */
function checkLines(out: Output, run: Run): string[] {
  const rows = run.checks.map((check) => [check.name, check.verdict, check.evidence.found]);
  return table([["CHECK", "VERDICT", "FOUND"], ...rows]).map((line, index) => {
    const check = run.checks[index - 1];
    return check === undefined ? line : line.replace(` ${check.verdict} `, ` ${paintVerdict(out, check.verdict)} `);
  });
}

function printRun(out: Output, run: Run): void {
  out.line(
    `readiness run ${run.run_id} on business unit ${run.business_unit_id}: ${run.status}, verdict ${paintVerdict(out, run.verdict)}`,
  );
  out.line(
    `started ${run.started_at}, deadline ${run.deadline}${run.ended_at === null ? "" : `, ended ${run.ended_at}`} (the unit's clock); ${run.observations.recorded} requests observed`,
  );
  for (const line of checkLines(out, run)) out.line(line);
  for (const check of run.checks)
    if (check.verdict === "failed") out.line(`${check.name}: how to pass: ${check.how_to_pass}`);
}

function printInstructions(out: Output, run: Run): void {
  for (const check of run.checks)
    if (check.instructions !== null) out.line(`  ${out.paint("bold", check.name)}: ${check.instructions}`);
}

/** How often a run is read while it runs: `2s`, `500ms`, or seconds. */
function parseInterval(text: string): number {
  const millis = /^(\d+)ms$/.exec(text);
  const ms = millis ? Number(millis[1]) : parseDuration(text) * 1000;
  if (ms < 100) throw new UsageError(`--interval must be at least 100ms (got ${text})`);
  return ms;
}

/**
 * Shows each check's verdict as it changes: on a terminal, one block redrawn in place; otherwise (a CI log, a pipe)
 * one line per change; with --json one JSON line per change.
 */
class Progress {
  readonly #out: Output;
  readonly #terminal: boolean;
  #shown = new Map<string, Verdict>();
  #drawn = 0;

  constructor(out: Output, terminal: boolean) {
    this.#out = out;
    this.#terminal = terminal && !out.json;
  }

  update(run: Run): void {
    const changed = run.checks.filter((check) => this.#shown.get(check.name) !== check.verdict);
    if (changed.length === 0 && this.#drawn > 0) return;
    for (const check of changed) {
      const before = this.#shown.get(check.name);
      this.#shown.set(check.name, check.verdict);
      if (this.#out.json) this.#out.data({ event: "check", name: check.name, verdict: check.verdict });
      else if (!this.#terminal && before !== undefined)
        this.#out.line(`${check.name}: ${before} -> ${paintVerdict(this.#out, check.verdict)}`);
    }
    if (!this.#terminal) return;
    const lines = run.checks.map(
      (check) => `  ${check.name.padEnd(24)} ${paintVerdict(this.#out, check.verdict)}  ${check.evidence.found}`,
    );
    // Back to the block's first line, cleared to the end of the screen, then drawn again.
    const rewind = this.#drawn > 0 ? `\u001b[${this.#drawn}A\u001b[J` : "";
    process.stdout.write(`${rewind}${lines.join("\n")}\n`);
    this.#drawn = lines.length;
  }
}

/** Starts a run: its refusal (409 a run is running, 400 bad input, 401, 404) is exit code 2, the run never started. */
async function start(sandbox: SandboxClient, body: RunRequest, out: Output): Promise<Run> {
  try {
    return await unwrap(sandbox.POST("/sandbox/v1/readiness-runs", { body }));
  } catch (error) {
    const report = reportOf(error);
    if (report.exitCode !== EXIT.refused) throw error;
    if (out.json) out.note(JSON.stringify({ ...report.json, started: false }));
    else for (const line of [...report.lines, "lrg: the readiness run did not start"]) out.note(line);
    throw new ExitWith(EXIT.usage);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function registerReadiness(program: Command): void {
  const readiness = subcommand(
    program,
    "readiness",
    "Readiness runs: the sandbox examines your own software on a business unit and answers a verdict per check (a unit profile, or the admin token with --unit)",
    ["lrg readiness run --junit readiness.xml --html readiness.html"],
  );

  subcommand(
    readiness,
    "run",
    `Start a readiness run, print what your software must do, follow each check's verdict until the run ends, write the reports. Exit 0: every check passed or was not exercised (with --strict, not exercised fails); 1: a check failed; 2: the run did not start. Checks: ${enums.ReadinessCheckName.join(", ")}`,
    [
      "lrg readiness run --time-limit 30m --junit readiness.xml --html readiness.html",
      "lrg readiness run --checks paging,duplicates --strict",
    ],
  )
    .option("--checks <names>", "the checks to run, separated by commas (default: every check)")
    .option("--time-limit <duration>", "how long the run lasts on the unit's clock (1m to 7d; default 1h)")
    .option("--unit <business_unit_id>", "the business unit (needed with the admin token)")
    .option("--junit <file>", "write the JUnit XML report here when the run ends")
    .option("--html <file>", "write the HTML report here when the run ends")
    .option("--strict", "a check not exercised fails the run (exit 1)")
    .option("--interval <duration>", "how often the run is read (2s, 500ms)", "2s")
    .action(
      async (
        flags: ReportFlags & {
          checks?: string;
          timeLimit?: string;
          unit?: string;
          strict?: boolean;
          interval: string;
        },
        command: Command,
      ) => {
        const runtime = runtimeOf(command);
        const { out } = runtime;
        const interval = parseInterval(flags.interval);
        const body: RunRequest = {
          ...(flags.unit !== undefined && { business_unit_id: flags.unit }),
          ...(flags.checks !== undefined && {
            checks: flags.checks.split(",").map((name) => name.trim()) as Schemas["ReadinessCheckName"][],
          }),
          ...(flags.timeLimit !== undefined && { time_limit_seconds: parseDuration(flags.timeLimit) }),
        };
        const sandbox = runtime.sandbox();
        let run = await start(sandbox, body, out);
        if (out.json) out.data({ event: "started", run });
        else {
          out.line(
            `readiness run ${run.run_id} started on business unit ${run.business_unit_id}; it ends at ${run.deadline} on the unit's clock`,
          );
          out.line("Now let your software work as it does in production. Each check needs:");
          printInstructions(out, run);
        }
        const progress = new Progress(out, process.stdout.isTTY === true);
        progress.update(run);
        while (run.status === "running") {
          await sleep(interval);
          run = await unwrap(
            sandbox.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: run.run_id } } }),
          );
          progress.update(run);
        }
        await writeReports(sandbox, out, run.run_id, flags);
        if (out.json) out.data({ event: "ended", run });
        else printRun(out, run);
        const code = exitCodeOf(run, flags.strict === true);
        if (code !== EXIT.ok) throw new ExitWith(code);
      },
    );

  subcommand(
    readiness,
    "show <run_id>",
    "Show a run: each check's verdict and what was found (--json: the whole run with its evidence)",
    [
      "lrg readiness show 0b6f3c1e-7a2d-4e8f-9c1b-5d4e3f2a1b0c",
      "lrg readiness show 0b6f3c1e-7a2d-4e8f-9c1b-5d4e3f2a1b0c --json | jq '.checks[].verdict'",
    ],
  )
    .option("--junit <file>", "also write the JUnit XML report here")
    .option("--html <file>", "also write the HTML report here")
    .action(async (runId: string, flags: ReportFlags, command: Command) => {
      const runtime = runtimeOf(command);
      const sandbox = runtime.sandbox();
      const run = await unwrap(
        sandbox.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: runId } } }),
      );
      await writeReports(sandbox, runtime.out, runId, flags);
      if (runtime.out.json) return runtime.out.data(run);
      printRun(runtime.out, run);
      if (run.status === "running") {
        runtime.out.line("Each check still needs:");
        printInstructions(runtime.out, run);
      }
    });

  subcommand(readiness, "list", "The readiness runs, newest first (a unit's token: its own)", [
    "lrg readiness list",
    "lrg readiness list --unit 3d5e7f90-1a2b-4c3d-8e4f-5a6b7c8d9e0f --json",
  ])
    .option("--unit <business_unit_id>", "only this business unit's runs")
    .action(async (flags: { unit?: string }, command: Command) => {
      const runtime = runtimeOf(command);
      const query = flags.unit === undefined ? {} : { business_unit_id: flags.unit };
      const page = await unwrap(runtime.sandbox().GET("/sandbox/v1/readiness-runs", { params: { query } }));
      if (runtime.out.json) return runtime.out.data(page.data);
      const rows = page.data.map((run) => [
        run.run_id,
        run.status,
        run.verdict,
        run.started_at,
        run.checks.map((check) => `${check.name}:${check.verdict}`).join(" "),
      ]);
      for (const line of table([["RUN", "STATUS", "VERDICT", "STARTED (UNIT'S CLOCK)", "CHECKS"], ...rows]))
        runtime.out.line(line);
    });

  subcommand(readiness, "cancel <run_id>", "End a running run now: checks not decided yet are not exercised", [
    "lrg readiness cancel 0b6f3c1e-7a2d-4e8f-9c1b-5d4e3f2a1b0c",
  ]).action(async (runId: string, _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    const run = await unwrap(
      runtime.sandbox().POST("/sandbox/v1/readiness-runs/{run_id}/cancel", { params: { path: { run_id: runId } } }),
    );
    if (runtime.out.json) return runtime.out.data(run);
    printRun(runtime.out, run);
  });
}
