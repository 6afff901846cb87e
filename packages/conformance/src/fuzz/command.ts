// `lrg-conformance --fuzz N`: the long fuzzing run (`npm run fuzz`: 100,000 requests against a gateway started in
// this process). Prints progress, the counts at the end and every violation found; writes the report (JSON) to
// --report. Exits 1 on a violation (and, with --strict, on a known departure).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { TargetName } from "../session.js";
import { remoteOptionsFromEnv, startGateway, startPrism, type StartedTarget } from "../targets.js";
import { describeFuzz, runFuzz, type FuzzScope, type FuzzSummary } from "./runner.js";

/** What the command line asks of a fuzzing run. */
export interface FuzzCommand {
  target: TargetName;
  url: string | undefined;
  requests: number;
  /** Random when absent; printed, so that the same requests can be drawn again. */
  seed: number | undefined;
  concurrency: number;
  /** Requests per epoch (each epoch starts from its own sandbox settings). */
  epochSize: number;
  /** Known departures fail the run too. */
  strict: boolean;
  /** Where the report goes. */
  report: string;
}

/** The report's default place, relative to the working directory. */
export const DEFAULT_FUZZ_REPORT = "results/fuzz/latest.json";

/** How much of the interface each target lets the fuzzer touch. */
const SCOPES: Record<TargetName, FuzzScope> = {
  // Everything, state set up and changed through the control plane.
  gateway: "full",
  // Prism has no control plane and no state: the registry interface's requests, one at a time as drawn.
  mock: "stateless",
  // An environment that is observed only: GET requests, the user's own credentials or none that name a user.
  remote: "observe",
};

async function reach(command: FuzzCommand): Promise<{
  url: string;
  sandboxToken?: string;
  credentials?: { username: string; password: string };
  stop: StartedTarget["stop"];
}> {
  const nothing = async () => {};
  switch (command.target) {
    case "gateway": {
      if (command.url === undefined) return startGateway();
      const sandboxToken = process.env["LRG_SANDBOX_TOKEN"];
      if (sandboxToken === undefined)
        throw new Error(
          "--fuzz against --target gateway --url needs the control plane's bearer token in LRG_SANDBOX_TOKEN",
        );
      return { url: command.url, sandboxToken, stop: nothing };
    }
    case "mock": {
      const credentials = { username: "conformance", password: "any-password" };
      if (command.url === undefined) return { ...(await startPrism()), credentials };
      return { url: command.url, credentials, stop: nothing };
    }
    case "remote": {
      const remote = remoteOptionsFromEnv(process.env, command.url);
      if (Object.keys(remote.tls ?? {}).length > 0)
        throw new Error("--fuzz speaks plain HTTP: it cannot reach a remote target that needs a client certificate");
      return {
        url: remote.baseUrl,
        credentials: { username: remote.username, password: remote.password },
        stop: nothing,
      };
    }
  }
}

/** Runs the fuzzer as the command line asks; answers the exit code. */
export async function runFuzzCommand(command: FuzzCommand, progress: (line: string) => void): Promise<number> {
  const seed = command.seed ?? Math.floor(Math.random() * 2 ** 31);
  const scope = SCOPES[command.target];
  progress(
    `fuzz: ${command.requests.toLocaleString("en")} requests against ${command.target} (${scope}), seed ${seed} (--seed ${seed} draws the same requests), ${command.concurrency} in flight`,
  );
  const target = await reach(command);
  let summary: FuzzSummary;
  try {
    summary = await runFuzz({
      url: target.url,
      target: command.target,
      scope,
      ...(target.sandboxToken !== undefined ? { sandboxToken: target.sandboxToken } : {}),
      ...(target.credentials !== undefined ? { credentials: target.credentials } : {}),
      requests: command.requests,
      seed,
      concurrency: command.concurrency,
      epochSize: command.epochSize,
      progressEvery: 5000,
      onProgress: (p) =>
        progress(
          `fuzz: ${p.requests.toLocaleString("en")}/${p.target.toLocaleString("en")} requests, ${(p.requests / Math.max(p.seconds, 0.001)).toFixed(0)}/s, ` +
            `${p.violations} violations, ${p.injected503} injected 503s`,
        ),
    });
  } finally {
    await target.stop();
  }
  const file = resolve(command.report);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, target: command.target, scope, ...summary }, null, 2)}\n`,
  );
  process.stdout.write(`${describeFuzz(summary)}\nreport: ${file}\n`);
  // Known departures (known-departures.ts) are reported but fail the run only with --strict.
  const known = Object.values(summary.known).reduce((total, k) => total + k.count, 0);
  return summary.violationCount > 0 || (command.strict && known > 0) ? 1 : 0;
}
