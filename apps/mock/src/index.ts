// The programmatic mock: other packages' tests start a real Prism process on a free port and stop it after.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { defaultSpec, MOCK_HOST, prismArgs } from "./prism.js";

export { DEFAULT_PORT, defaultSpec, MOCK_HOST } from "./prism.js";

/** How to start a mock. */
export interface MockOptions {
  /** Port to listen on; 0 or absent picks a free port. */
  port?: number;
  /** Generate responses from the schemas (json-schema-faker) instead of answering the documented examples. */
  dynamic?: boolean;
  /** OpenAPI document to serve; the bundled openapi.yaml of @lrg/spec when absent. */
  spec?: string;
}

/** A running Prism process. */
export interface RunningMock {
  /** Base address, e.g. `http://127.0.0.1:43117` (no trailing slash). */
  url: string;
  /** Stops Prism (its whole process group) and resolves once it has exited. Safe to call twice. */
  close(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const FREE_PORT_ATTEMPTS = 3;
const READY_LINE = "Prism is listening on";

/** Process groups still running, killed if this process exits without closing them. */
const running = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pid of running) killGroup(pid, "SIGKILL");
  });
}

/** Asks the kernel for a port that is free on the mock's host right now. */
export async function findFreePort(host: string = MOCK_HOST): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === "object") resolvePort(address.port);
        else reject(new Error("could not read the port of a probe listener"));
      });
    });
  });
}

/** The last lines Prism printed, kept for error messages. */
class OutputTail {
  private lines: string[] = [];
  private partial = "";

  constructor(private readonly limit = 40) {}

  push(chunk: Buffer): void {
    const parts = (this.partial + chunk.toString("utf8")).split("\n");
    this.partial = parts.pop() ?? "";
    this.lines.push(...parts);
    if (this.lines.length > this.limit) this.lines.splice(0, this.lines.length - this.limit);
  }

  text(): string {
    return [...this.lines, this.partial].join("\n").trim();
  }
}

interface Attempt {
  child: ChildProcess;
  output: OutputTail;
}

function spawnPrism(port: number, options: MockOptions): Attempt {
  const args = prismArgs({
    port,
    dynamic: options.dynamic ?? false,
    spec: options.spec === undefined ? defaultSpec() : resolve(options.spec),
    verboseLevel: "info",
  });
  // detached: Prism leads its own process group, so close() can stop it and anything it forks at once.
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const output = new OutputTail();
  // Keep draining both pipes for the whole life of the process, or Prism blocks once a pipe fills.
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
  return { child, output };
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** Resolves once Prism announced it listens and answers HTTP; rejects if it exits first or takes too long. */
async function waitUntilAnswering(url: string, attempt: Attempt): Promise<void> {
  const { child, output } = attempt;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.exitCode !== null ? `code ${child.exitCode}` : `signal ${child.signalCode}`;
      throw new Error(`Prism exited with ${how} before answering on ${url}:\n${output.text()}`);
    }
    if (output.text().includes(READY_LINE) && (await answers(url))) return;
    await sleep(100);
  }
  throw new Error(`Prism did not answer on ${url} within ${STARTUP_TIMEOUT_MS} ms:\n${output.text()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    killGroup(pid, "SIGTERM");
    const timer = setTimeout(() => killGroup(pid, "SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  // Prism runs no helper processes by default, but make sure nothing of the group outlives close().
  killGroup(pid, "SIGKILL");
  running.delete(pid);
}

/**
 * Starts Prism (`prism mock`) as a child process on 127.0.0.1 and resolves once it answers.
 *
 * @example
 * const mock = await startMock();            // bundled spec, static examples, free port
 * const res = await fetch(`${mock.url}/v1/notifications`, { headers: { authorization: "Basic dTpw" } });
 * await mock.close();
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const pickPort = options.port === undefined || options.port === 0;
  const attempts = pickPort ? FREE_PORT_ATTEMPTS : 1;
  let lastError: unknown;
  for (let i = 0; i < attempts; i += 1) {
    const port = pickPort ? await findFreePort() : (options.port as number);
    const url = `http://${MOCK_HOST}:${port}`;
    const attempt = spawnPrism(port, options);
    if (attempt.child.pid !== undefined) running.add(attempt.child.pid);
    installExitHook();
    try {
      await waitUntilAnswering(url, attempt);
    } catch (error) {
      await stop(attempt.child);
      lastError = error;
      // Another process may have taken the probed port before Prism bound it: try another one.
      if (pickPort && attempt.output.text().includes("EADDRINUSE")) continue;
      throw error;
    }
    let closing: Promise<void> | undefined;
    return {
      url,
      close: () => (closing ??= stop(attempt.child)),
    };
  }
  throw lastError;
}
