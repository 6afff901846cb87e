#!/usr/bin/env node
// lrg-conformance: runs the suite against a mock, a gateway or a remote environment, with a live progress line,
// a summary table and JUnit XML; exits non-zero when a property fails.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_FUZZ_REPORT, runFuzzCommand } from "./fuzz/command.js";
import { allProperties } from "./properties/index.js";
import type { RunOptions } from "./property.js";
import { junitXml, summaryTable } from "./report.js";
import { runProperties, type PropertyResult } from "./runner.js";
import type { Session, TargetName } from "./session.js";
import { MissingTargetPackageError, openGateway, openMock, openRemote, remoteOptionsFromEnv } from "./targets.js";

const USAGE = `Usage: lrg-conformance --target mock|gateway|remote [--url URL [--exclusive]] [--runs N] [--seed S [--path P]] [--junit FILE] [--only TEXT]
       lrg-conformance --target mock|gateway|remote [--url URL] --fuzz N [--seed S] [--concurrency C] [--epoch E] [--strict] [--report FILE]

Checks the Land Registration Gateway interface against its spec with property-based tests.
  --target mock      Prism serving the bundled spec (started here unless --url): stateless properties only
  --target gateway   the gateway and its sandbox control plane (started in this process unless --url;
                     with --url the control plane's admin token comes from LRG_SANDBOX_TOKEN). The suite
                     creates its own business units and drives each through its own unit token: other
                     runs on the same gateway keep their clocks and settings
  --exclusive        with --target gateway --url: the gateway is this run's alone, so the properties that
                     change registry-wide state (the day list, the global clock, the failed-login budget
                     of this address) run too; without it they are skipped. Implied without --url
  --target remote    an environment observed only (never changed): LRG_BASE_URL (or --url), LRG_USERNAME,
                     LRG_PASSWORD, and optionally LRG_CLIENT_CERT, LRG_CLIENT_KEY, LRG_CA for mutual TLS
  --runs N           runs of every property (default: each property's own)
  --seed S           seed of every property, to replay a failure (the report of a failure prints it)
  --path P           with --seed and --only, the reported path: replays the shrunk counterexample directly
  --junit FILE       write JUnit XML
  --only TEXT        run only the properties whose id contains TEXT (several: TEXT,TEXT,...)

Fuzzing (instead of the properties): N requests drawn from the seed, valid and invalid, every answer checked
against the spec; no 5xx but the sandbox's injected 503s. The gateway gets every operation of both documents
(it resets the sandbox now and then: give --url only of a gateway the fuzzer may have to itself), the mock the
registry interface's, a remote target its GET requests only.
  --fuzz N           send N requests (npm run fuzz: 100000 against a gateway started in this process)
  --seed S           seed of the run (random when absent; printed, to draw the same requests again)
  --concurrency C    requests in flight at once (default 4; changes of the sandbox go alone)
  --epoch E          requests per epoch, each starting from its own sandbox settings (default 250)
  --strict           known departures (listed in src/fuzz/known-departures.ts) fail the run too
  --report FILE      where the JSON report goes (default ${DEFAULT_FUZZ_REPORT})
`;

function fail(message: string): never {
  process.stderr.write(`lrg-conformance: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) fail(`${name} must be an integer, got ${text}`);
  return value;
}

async function open(target: TargetName, url: string | undefined, exclusive: boolean): Promise<Session> {
  switch (target) {
    case "mock":
      return openMock(url === undefined ? {} : { url });
    case "gateway":
      return openGateway(url === undefined ? {} : { url, exclusive });
    case "remote":
      return openRemote(remoteOptionsFromEnv(process.env, url));
  }
}

/** The fuzzing mode: its own options, the target reached by address or started here. */
async function fuzz(
  target: TargetName,
  values: Record<string, string | boolean | undefined>,
  seed: number | undefined,
): Promise<number> {
  const count = (name: string, fallback: number, min: number) => {
    const value = integer(`--${name}`, values[name] as string | undefined) ?? fallback;
    if (value < min) fail(`--${name} must be at least ${min}`);
    return value;
  };
  for (const name of ["runs", "path", "only", "junit", "exclusive"])
    if (values[name] !== undefined) fail(`--${name} does not go with --fuzz`);
  return runFuzzCommand(
    {
      target,
      url: values["url"] as string | undefined,
      requests: count("fuzz", 0, 1),
      seed,
      concurrency: count("concurrency", 4, 1),
      epochSize: count("epoch", 250, 1),
      strict: values["strict"] === true,
      report: (values["report"] as string | undefined) ?? DEFAULT_FUZZ_REPORT,
    },
    (line) => process.stderr.write(`${line}\n`),
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      target: { type: "string" },
      url: { type: "string" },
      runs: { type: "string" },
      seed: { type: "string" },
      path: { type: "string" },
      junit: { type: "string" },
      only: { type: "string" },
      fuzz: { type: "string" },
      concurrency: { type: "string" },
      epoch: { type: "string" },
      strict: { type: "boolean" },
      report: { type: "string" },
      exclusive: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const target = values.target as TargetName | undefined;
  if (target === undefined || !["mock", "gateway", "remote"].includes(target))
    fail("--target must be mock, gateway or remote");
  const runs = integer("--runs", values.runs);
  if (runs !== undefined && runs < 1) fail("--runs must be at least 1");
  const seed = integer("--seed", values.seed);
  if (values.fuzz !== undefined) {
    process.exitCode = await fuzz(target, values, seed);
    return;
  }
  if (values.path !== undefined && seed === undefined) fail("--path needs --seed");
  const options: RunOptions = {
    ...(runs !== undefined ? { runs } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(values.path !== undefined ? { path: values.path } : {}),
  };
  const only = values.only?.split(",").filter(Boolean);
  const properties = allProperties.filter((p) => only === undefined || only.some((text) => p.id.includes(text)));
  if (properties.length === 0) fail(`no property id contains ${values.only ?? ""}`);

  if (values.exclusive === true && (target !== "gateway" || values.url === undefined))
    fail("--exclusive goes with --target gateway --url (a gateway started here is always the run's alone)");
  if (target === "gateway" && values.url !== undefined && !process.env["LRG_SANDBOX_TOKEN"]) {
    fail("--target gateway --url needs the gateway's control-plane token in LRG_SANDBOX_TOKEN (npm start prints it)");
  }

  const started = performance.now();
  const session = await open(target, values.url, values.exclusive === true);
  const unit = session.credentials.business_unit_id;
  process.stdout.write(
    `lrg-conformance: ${properties.length} properties against ${target} at ${session.baseUrl}${seed !== undefined ? ` (seed ${seed})` : ""}${unit !== undefined ? `, business unit ${unit}${session.exclusive ? ", exclusive" : ""}` : ""}\n`,
  );
  const live = process.stdout.isTTY === true;
  let results: PropertyResult[];
  try {
    results = await runProperties(properties, session, options, ({ index, total, property, result }) => {
      const position = `[${index + 1}/${total}]`;
      if (!result) {
        if (live) process.stdout.write(`\r\u001b[2K${position} ${property.id} …`);
        return;
      }
      const outcome =
        result.outcome === "skipped"
          ? `skipped (${result.message ?? ""})`
          : `${result.outcome} in ${(result.durationMs / 1000).toFixed(1)} s, ${result.runs} runs`;
      process.stdout.write(`${live ? "\r\u001b[2K" : ""}${position} ${property.id}: ${outcome}\n`);
      // The report without stack frames; the JUnit XML keeps them.
      const report = (result.message ?? "").split("\n").filter((line) => !/^\s+at /.test(line));
      if (result.outcome === "failed") process.stdout.write(`${report.map((line) => `    ${line}`).join("\n")}\n`);
    });
  } finally {
    await session.close();
  }
  process.stdout.write(
    `\n${summaryTable(results)}\nwall time ${((performance.now() - started) / 1000).toFixed(1)} s, ${session.calls} requests\n`,
  );
  if (values.junit !== undefined) {
    const file = resolve(values.junit);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, junitXml(results));
    process.stdout.write(`JUnit XML: ${file}\n`);
  }
  process.exitCode = results.some((r) => r.outcome === "failed") ? 1 : 0;
}

main().catch((error: unknown) => {
  if (error instanceof MissingTargetPackageError) fail(error.message);
  // A message, not a stack trace: what went wrong is the user's to fix (LRG_CONFORMANCE_DEBUG=1 shows the stack).
  const debug = process.env["LRG_CONFORMANCE_DEBUG"] === "1";
  process.stderr.write(
    `lrg-conformance: ${error instanceof Error ? (debug ? (error.stack ?? error.message) : error.message) : String(error)}\n`,
  );
  process.exit(2);
});
