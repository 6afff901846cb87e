import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { serveRuntime } from "../../src/testing.js";
import { DEMO, SANDBOX_TOKEN } from "./gateway.js";

const main = join(import.meta.dirname, "..", "..", "dist", "main.js");
/** The runtime settings of the `serve` script (package.json). */
const runtime = serveRuntime();

/** Whom a gateway process runs as (a root test runner starts it as another user to meet permissions). */
export interface RunAs {
  uid: number;
  gid: number;
}

/** `dist/main.js` as a child process, with the tests' settings and then `env`; stdout piped, stderr as asked. */
function spawnGateway(
  dataDir: string,
  env: Record<string, string>,
  stderr: "inherit" | "pipe",
  as: RunAs | undefined = undefined,
  cwd?: string,
): ChildProcess {
  return spawn(process.execPath, [...runtime.flags, main], {
    ...as,
    ...(cwd !== undefined ? { cwd } : {}),
    env: {
      ...process.env,
      ...runtime.env,
      PORT: "0",
      LRG_HTTPS_PORT: "off",
      LRG_DATA_DIR: dataDir,
      LRG_SANDBOX_TOKEN: SANDBOX_TOKEN,
      LRG_DEMO_PASSWORD: DEMO.password,
      LRG_LOG: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", stderr],
  });
}

/**
 * Runs `dist/main.js` expecting it to stop by itself (a start that must fail): its exit code and what it printed.
 * `as`: another user to run it as (the test runner must be root).
 */
export async function runGatewayToExit(
  dataDir: string,
  env: Record<string, string>,
  as?: RunAs,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnGateway(dataDir, env, "pipe", as);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

/** The built gateway running as its own process (for kill -9 and memory measurements). */
export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  /** What it printed so far (the start banner). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `dist/main.js` on a free port with the given data directory (read from `cwd`, the test's own unless given),
 * without the mutual TLS listener unless `env` asks for it; answers once the start banner is printed.
 */
export async function startGatewayProcess(
  dataDir: string,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<GatewayProcess> {
  const child = spawnGateway(dataDir, env, "inherit", undefined, cwd);
  let output = "";
  child.stdout?.setEncoding("utf8");
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: string) => {
      output += chunk;
      // The banner is done at its closing blank line.
      const match = /listening on (http:\/\/\S+)[^]*\n\n/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`gateway exited with ${String(code)}: ${output}`)));
  });
  return {
    child,
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
