// lrg conformance: runs the property-based conformance suite (@lrg/conformance) against the connection's gateway.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Option, type Command } from "commander";
import type { Connection } from "../config.js";
import { ExitWith, UsageError } from "../conventions.js";
import { runtimeOf, subcommand } from "../runtime.js";

interface ConformanceFlags {
  readonly target?: "mock" | "gateway" | "remote";
  readonly junit?: string;
  readonly runs?: string;
  readonly seed?: string;
  readonly only?: string;
}

/** The suite's own command line (dist/cli.js beside the package's entry point). */
function suiteCli(): string {
  return fileURLToPath(new URL("./cli.js", import.meta.resolve("@lrg/conformance")));
}

export function registerConformance(program: Command): void {
  subcommand(
    program,
    "conformance [extra...]",
    "Run the conformance suite: against the connection's gateway (with its control plane when a sandbox token is known, else observing only), or a gateway it starts itself when no address is configured",
    [
      "lrg conformance --junit conformance.xml",
      "lrg --url https://test.registry.example conformance --target remote",
      "lrg conformance --only notifications -- --runs 5",
    ],
  )
    .addOption(
      new Option("--target <target>", "mock, gateway or remote (default: from the connection)").choices([
        "mock",
        "gateway",
        "remote",
      ]),
    )
    .option("--junit <file>", "write JUnit XML to this file")
    .option("--runs <n>", "runs of every property")
    .option("--seed <seed>", "seed of every property, to replay a failure")
    .option("--only <text>", "only the properties whose id contains this")
    .action(async (extra: string[], flags: ConformanceFlags, command: Command) => {
      const runtime = runtimeOf(command);
      const { out } = runtime;
      const env: NodeJS.ProcessEnv = { ...process.env };
      let target = flags.target;
      let url: string | undefined;
      let configured: Connection | undefined;
      try {
        configured = runtime.connection();
      } catch (error) {
        // No address anywhere: the suite starts its own gateway. Any other problem of the profile is the user's.
        if (!(error instanceof UsageError && /no gateway address/.test(error.message))) throw error;
      }
      if (configured !== undefined && target !== "mock") {
        url = configured.baseUrl;
        let token: string | undefined;
        try {
          token = configured.sandboxToken();
        } catch {
          token = undefined;
        }
        target ??= token === undefined ? "remote" : "gateway";
        env.LRG_BASE_URL = url;
        if (token !== undefined) env.LRG_SANDBOX_TOKEN = token;
        if (target === "remote") {
          env.LRG_USERNAME = configured.username();
          env.LRG_PASSWORD = await configured.password();
        }
      }
      target ??= "gateway";
      const junit =
        flags.junit ?? (out.json ? join(mkdtempSync(join(tmpdir(), "lrg-conformance-")), "junit.xml") : undefined);
      const args = [
        suiteCli(),
        "--target",
        target,
        ...(url === undefined ? [] : ["--url", url]),
        ...(junit === undefined ? [] : ["--junit", resolve(junit)]),
        ...(flags.runs === undefined ? [] : ["--runs", flags.runs]),
        ...(flags.seed === undefined ? [] : ["--seed", flags.seed]),
        ...(flags.only === undefined ? [] : ["--only", flags.only]),
        ...extra,
      ];
      // The suite prints its own progress and summary; with --json they go to stderr and stdout gets one result.
      const child = spawn(process.execPath, args, {
        env,
        stdio: ["ignore", out.json ? process.stderr : "inherit", "inherit"],
      });
      const code = await new Promise<number>((done, fail) => {
        child.on("error", fail);
        child.on("close", (status) => done(status ?? 1));
      });
      if (out.json)
        out.data({ ok: code === 0, exit_code: code, target, junit: junit === undefined ? null : resolve(junit) });
      if (code !== 0) throw new ExitWith(code);
    });
}
