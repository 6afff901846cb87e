// lrg readiness ...: readiness runs of the sandbox, which examine the integrator's own software on one business unit
// (start one and follow it to its verdict, show, list, cancel), their JUnit and HTML reports, and their evidence
// bundles (saved, and verified).
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { unwrap, type SandboxClient, type SandboxComponents } from "@lrg/client";
import { enums } from "@lrg/spec/constants";
import { evidenceMismatch } from "@lrg/spec/evidence";
import { EXIT, ExitWith, parseDuration, reportOf, table, UsageError, type Output } from "../conventions.js";
import { runtimeOf, subcommand } from "../runtime.js";
import {
  didNotFailText,
  exitCodeOf,
  markExpectedFailures,
  readExpectedFailures,
  readGivenFile,
  standingsOf,
  type CheckStanding,
} from "./readiness-expectations.js";

type Schemas = SandboxComponents["schemas"];
type Run = Schemas["ReadinessRun"];
type Verdict = Schemas["ReadinessVerdict"];

/** What `run` asks for: without `time_limit_seconds` the spec's default (one hour), as `run` without `--time-limit`. */
type RunRequest = Schemas["ReadinessRunRequest"];

/** Files to write: `--junit FILE`, `--html FILE`, `--evidence FILE`. */
interface ReportFlags {
  readonly junit?: string;
  readonly html?: string;
  readonly evidence?: string;
}

function writeFile(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Writes the run's reports the API renders (`getReadinessRunJunit`, `getReadinessRunHtml`) and its evidence bundle
 * (`getReadinessRunEvidence`) to the files named; `junit` marks the JUnit report first (the expected failures).
 */
async function writeReports(
  sandbox: SandboxClient,
  out: Output,
  runId: string,
  flags: ReportFlags,
  junit: (xml: string) => string = (xml) => xml,
): Promise<void> {
  const params = { params: { path: { run_id: runId } }, parseAs: "text" as const };
  const reports = [
    [flags.junit, async () => junit(await unwrap(sandbox.GET("/sandbox/v1/readiness-runs/{run_id}/junit", params)))],
    [flags.html, () => unwrap(sandbox.GET("/sandbox/v1/readiness-runs/{run_id}/html", params))],
  ] as const;
  for (const [file, fetchReport] of reports) {
    if (file === undefined) continue;
    writeFile(file, await fetchReport());
    if (!out.json) out.note(`lrg: wrote ${file}`);
  }
  if (flags.evidence !== undefined) {
    const { bundle } = await fetchEvidence(sandbox, runId);
    writeFile(flags.evidence, bundle);
    if (!out.json) out.note(`lrg: wrote ${flags.evidence}`);
  }
}

/** A readiness run's evidence bundle, as the gateway answered it, the run it holds and how many observations. */
interface Evidence {
  readonly bundle: string;
  readonly sha256: string;
  readonly run: Run;
  readonly observations: number;
}

/**
 * Fetches a run's evidence bundle (`getReadinessRunEvidence`) and checks its SHA-256 before anything is written: the
 * bytes are kept as the gateway answered them.
 */
async function fetchEvidence(sandbox: SandboxClient, runId: string): Promise<Evidence> {
  const bundle = await unwrap(
    sandbox.GET("/sandbox/v1/readiness-runs/{run_id}/evidence", {
      params: { path: { run_id: runId } },
      parseAs: "text",
    }),
  );
  const parsed = JSON.parse(bundle) as Schemas["ReadinessEvidence"];
  const mismatch = evidenceMismatch(parsed);
  if (mismatch !== null) throw new Error(`the gateway answered an evidence bundle that does not verify: ${mismatch}`);
  return { bundle, sha256: parsed.sha256, run: parsed.run, observations: parsed.observations.length };
}

const VERDICT_STYLE = { passed: "green", failed: "red", not_exercised: "yellow", running: "cyan" } as const;

function paintVerdict(out: Output, verdict: Verdict): string {
  return out.paint(VERDICT_STYLE[verdict], verdict);
}

/** One line per check: its name, its verdict (`failed (expected)` for an expected failure) and what was found. */
function checkLines(out: Output, run: Run, standings: readonly CheckStanding[]): string[] {
  const expected = (name: string) =>
    standings.some((standing) => standing.name === name && standing.standing === "expected-failure");
  const rows = run.checks.map((check) => [
    check.name,
    expected(check.name) ? `${check.verdict} (expected)` : check.verdict,
    check.evidence.found,
  ]);
  return table([["CHECK", "VERDICT", "FOUND"], ...rows]).map((line, index) => {
    const check = run.checks[index - 1];
    return check === undefined ? line : line.replace(` ${check.verdict} `, ` ${paintVerdict(out, check.verdict)} `);
  });
}

/**
 * The run: its status and verdict, a line per check, then how to pass each check that failed. With `expected`, an
 * expected failure's reason instead of how to pass it, and for each listed check that did not fail, that it is to be
 * removed from the file.
 */
function printRun(out: Output, run: Run, expected?: { standings: CheckStanding[]; file: string }): void {
  out.line(
    `readiness run ${run.run_id} on business unit ${run.business_unit_id}: ${run.status}, verdict ${paintVerdict(out, run.verdict)}`,
  );
  out.line(
    `started ${run.started_at}, deadline ${run.deadline}${run.ended_at === null ? "" : `, ended ${run.ended_at}`} (the unit's clock); ${run.observations.recorded} requests observed`,
  );
  printChecks(out, run, expected);
}

/** A line per check, then how to pass each check that failed (see `printRun`). */
function printChecks(out: Output, run: Run, expected?: { standings: CheckStanding[]; file: string }): void {
  const standings = expected?.standings ?? [];
  for (const line of checkLines(out, run, standings)) out.line(line);
  for (const standing of standings) {
    if (standing.standing === "expected-failure")
      out.line(`${standing.name}: expected failure (${expected?.file}): ${standing.reason}`);
    if (standing.standing === "did-not-fail")
      out.line(`${standing.name}: ${out.paint("red", didNotFailText(standing, expected?.file ?? ""))}`);
  }
  const accepted = new Set(standings.filter((s) => s.standing === "expected-failure").map((s) => s.name));
  for (const check of run.checks)
    if (check.verdict === "failed" && !accepted.has(check.name))
      out.line(`${check.name}: how to pass: ${check.how_to_pass}`);
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

/**
 * The readiness checks' judges (`./readiness-judge.js`, on `@lrg/gateway/readiness-judges`) and the HAR reader, loaded
 * when a recording is judged: the gateway is an optional peer of lrg (the tarballs `npm run pack` writes leave it out),
 * so every other command works without it, and starts without either.
 */
async function readinessJudges(): Promise<typeof import("./readiness-judge.js")> {
  try {
    return await import("./readiness-judge.js");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new UsageError(
      "lrg readiness judge needs @lrg/gateway installed beside lrg (it judges with the gateway's own readiness checks): run lrg from the repository's workspace",
    );
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

/** The listed checks' standings, for `--json`: each with its verdict, its reason and whether it failed as expected. */
function listed(standings: readonly CheckStanding[]): object[] {
  return standings
    .filter((standing) => standing.reason !== undefined)
    .map(({ name, verdict, reason, standing }) => ({
      name,
      verdict,
      reason,
      failed_as_expected: standing === "expected-failure",
    }));
}

/**
 * A saved evidence bundle, verified: the bundle, or why it does not verify (not JSON, no `sha256`, a content whose
 * SHA-256 is another, or not a readiness run's bundle). A file that cannot be read is a UsageError (exit 2).
 */
function verifiedBundle(file: string): { bundle: Schemas["ReadinessEvidence"] } | { mismatch: string } {
  const text = readGivenFile(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { mismatch: `it is not JSON (${(error as Error).message})` };
  }
  const mismatch = evidenceMismatch(parsed);
  if (mismatch !== null) return { mismatch };
  const bundle = parsed as Partial<Record<keyof Schemas["ReadinessEvidence"], unknown>>;
  const run = bundle.run as Partial<Run> | undefined;
  if (typeof run?.run_id !== "string" || !Array.isArray(bundle.observations))
    return { mismatch: "its hash is right, but it holds no readiness run (run) and observations" };
  return { bundle: parsed as Schemas["ReadinessEvidence"] };
}

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
    `Start a readiness run, print what your software must do, follow each check's verdict until the run ends, write the reports. Exit 0: every check passed or was not exercised (with --strict, not exercised fails), and with --expect-failures every check listed failed and no other; 1: a check failed (not listed), or a listed check did not fail; 2: the run did not start (or FILE is wrong). Checks: ${enums.ReadinessCheckName.join(", ")}`,
    [
      "lrg readiness run --time-limit 30m --junit readiness.xml --html readiness.html --evidence readiness-evidence.json",
      "lrg readiness run --checks paging,duplicates --strict",
      "lrg readiness run --strict --expect-failures readiness-expected.json --junit readiness.xml",
    ],
  )
    .option("--checks <names>", "the checks to run, separated by commas (default: every check)")
    .option("--time-limit <duration>", "how long the run lasts on the unit's clock (1m to 7d; default 1h)")
    .option("--unit <business_unit_id>", "the business unit (needed with the admin token)")
    .option("--junit <file>", "write the JUnit XML report here when the run ends")
    .option("--html <file>", "write the HTML report here when the run ends")
    .option("--evidence <file>", "save the run's evidence bundle here when the run ends (every observation, a SHA-256)")
    .option(
      "--expect-failures <file>",
      'the checks your team accepts as failing, with the reason: {"checks": {"<check>": "<reason>"}}; each must fail',
    )
    .option("--strict", "a check not exercised fails the run (exit 1)")
    .option("--interval <duration>", "how often the run is read (2s, 500ms)", "2s")
    .action(
      async (
        flags: ReportFlags & {
          checks?: string;
          timeLimit?: string;
          unit?: string;
          strict?: boolean;
          expectFailures?: string;
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
        // Read before the run starts: a wrong file is exit 2 with no run left behind.
        const expected =
          flags.expectFailures === undefined ? undefined : readExpectedFailures(flags.expectFailures, body.checks);
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
        const standings = standingsOf(run, { strict: flags.strict === true, expected });
        await writeReports(sandbox, out, run.run_id, flags, (xml) =>
          expected === undefined ? xml : markExpectedFailures(xml, standings, expected.file),
        );
        if (out.json) out.data({ event: "ended", run, ...(expected && { expected_failures: listed(standings) }) });
        else printRun(out, run, expected && { standings, file: expected.file });
        const code = exitCodeOf(standings);
        if (code !== EXIT.ok) throw new ExitWith(code);
      },
    );

  subcommand(
    readiness,
    "judge <file.har>",
    `Judge a HAR recording of your software's exchanges (lrg record, from any environment) with the readiness checks' own judges, as a finished run: a verdict per check with the exchanges as evidence, not_exercised where the recording met no occasion. Every check is judged offline, on the occasions the recorded answers show (a duplicate or a full page listed, an application shown failed, a submission unanswered, an upload address expired, a 429 or a 503, a search deferred: the README says which, per check), so no readiness run is needed; a recording that holds the sandbox's clock answers or a run's start is timed and bounded as that run was. Needs @lrg/gateway beside lrg (the repository's workspace). Exit 0: no check failed; 1: a check failed; 2: the file cannot be read as HAR`,
    [
      "lrg readiness judge production.har",
      "lrg readiness judge production.har --junit readiness.xml --html readiness.html",
      "lrg readiness judge production.har --json | jq '.checks[] | {name, verdict}'",
    ],
  )
    .option("--junit <file>", "also write the JUnit XML report here")
    .option("--html <file>", "also write the HTML report here")
    .action(async (file: string, flags: Omit<ReportFlags, "evidence">, command: Command) => {
      const { out } = runtimeOf(command);
      const { judgedRecording, htmlReport, junitReport, HarError, readHar } = await readinessJudges();
      let exchanges: ReturnType<typeof readHar>;
      try {
        exchanges = readHar(readGivenFile(file));
      } catch (error) {
        if (error instanceof HarError) throw new UsageError(`${file} cannot be read: ${error.message}`);
        throw error;
      }
      const run = judgedRecording(exchanges);
      for (const [target, render] of [
        [flags.junit, junitReport],
        [flags.html, htmlReport],
      ] as const) {
        if (target === undefined) continue;
        writeFile(target, render(run));
        if (!out.json) out.note(`lrg: wrote ${target}`);
      }
      if (out.json) out.data(run);
      else {
        out.line(
          `${file} judged: verdict ${paintVerdict(out, run.verdict)}; ${exchanges.length} exchanges from ${run.started_at} to ${run.ended_at}, ${run.observations.recorded} of the registry's operations`,
        );
        printChecks(out, run);
      }
      if (run.verdict === "failed") throw new ExitWith(1);
    });

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
    .option("--evidence <file>", "also save the evidence bundle here")
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

  subcommand(
    readiness,
    "evidence <run_id>",
    "Save a run's evidence bundle: the run with every observation (not only each check's first 100) and a SHA-256 of the rest, as one JSON file to hand to a customer; checked before it is written",
    [
      "lrg readiness evidence 0b6f3c1e-7a2d-4e8f-9c1b-5d4e3f2a1b0c -o readiness-evidence.json",
      "lrg readiness verify readiness-evidence.json",
    ],
  )
    .option("-o, --output <file>", "write to this file (default: stdout, when it is not a terminal)")
    .action(async (runId: string, flags: { output?: string }, command: Command) => {
      const runtime = runtimeOf(command);
      const { out } = runtime;
      if (flags.output === undefined && process.stdout.isTTY === true)
        throw new UsageError("stdout is a terminal: name a file with -o FILE");
      const evidence = await fetchEvidence(runtime.sandbox(), runId);
      if (flags.output === undefined) return void process.stdout.write(evidence.bundle);
      writeFile(flags.output, evidence.bundle);
      const { run, observations, sha256 } = evidence;
      if (out.json) out.data({ path: flags.output, run_id: run.run_id, status: run.status, observations, sha256 });
      else
        out.note(
          `saved the evidence of run ${run.run_id} (${run.status}, verdict ${run.verdict}; ${observations} observations; sha256 ${sha256}) to ${flags.output}`,
        );
    });

  subcommand(
    readiness,
    "verify <file>",
    "Verify a saved evidence bundle: its sha256 is the SHA-256 of the canonical JSON (RFC 8785) of the rest of it. Exit 0: it verifies; 1: it does not (a changed value, a member added or removed, not JSON); 2: the file cannot be read",
    ["lrg readiness verify readiness-evidence.json"],
  ).action((file: string, _flags: unknown, command: Command) => {
    const { out } = runtimeOf(command);
    const verified = verifiedBundle(file);
    if ("mismatch" in verified) {
      if (out.json) out.note(JSON.stringify({ error: "not_verified", file, detail: verified.mismatch }));
      else out.note(`lrg: ${file} does not verify: ${verified.mismatch}`);
      throw new ExitWith(1);
    }
    const { run, observations, sha256 } = verified.bundle;
    if (out.json)
      return out.data({
        verified: true,
        file,
        sha256,
        run_id: run.run_id,
        business_unit_id: run.business_unit_id,
        status: run.status,
        verdict: run.verdict,
        observations: observations.length,
      });
    out.line(
      `${file} verifies: run ${run.run_id} on business unit ${run.business_unit_id}, ${run.status}, verdict ${run.verdict}; ${observations.length} observations; sha256 ${sha256}`,
    );
  });
}
