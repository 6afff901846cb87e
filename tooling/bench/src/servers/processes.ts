import { fork, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { BENCH_ROOT } from "../options.js";
import type { Composition } from "@lrg/gateway";
import { serveRuntime } from "@lrg/gateway/testing";
import type { CannedAnswer } from "./bare-child.js";

/** A server in a child process. */
export interface ServerProcess {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/** A gateway in a child process that also takes connections accepted elsewhere (see startHandoverBalancer). */
export interface GatewayProcess extends ServerProcess {
  /** Passes an accepted connection to the child, which reads and answers on it. */
  handOver(socket: Socket): void;
}

const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** A server in a child process of this one, which can be sent messages (and sockets) over IPC. */
interface ChildServer extends ServerProcess {
  send(message: string, socket?: Socket): void;
}

/** How a child runs beside its entry: Node.js flags and environment settings added to this process's. */
interface ChildRuntime {
  flags: string[];
  env: Record<string, string>;
}

/** Forks a TypeScript entry of this package (through tsx), waits for it to report `{ url }` over IPC. */
async function startChild(
  entry: string,
  args: string[],
  init?: unknown,
  runtime: ChildRuntime = { flags: [], env: {} },
): Promise<ChildServer> {
  const child = fork(join(BENCH_ROOT, "src", "servers", entry), args, {
    cwd: BENCH_ROOT,
    env: { ...process.env, ...runtime.env },
    // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
    execArgv: [
      ...runtime.flags,
      "--import",
      "tsx",
      ...(process.env["BENCH_CPU_PROF"] ? ["--cpu-prof", `--cpu-prof-dir=${process.env["BENCH_CPU_PROF"]}`] : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => children.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${entry} did not start within ${STARTUP_TIMEOUT_MS} ms`)),
      STARTUP_TIMEOUT_MS,
    );
    child.once("message", (message: { url: string }) => {
      clearTimeout(timer);
      resolve(message.url);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before it listened`));
    });
    if (init !== undefined) child.send(init as object);
  });
  return {
    url,
    pid: child.pid as number,
    send: (message, socket) => child.send(message, socket),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send("close");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** What a gateway child is told beside its store (gateway-child.ts reads it over IPC before it starts). */
export interface GatewayChildInit {
  /** The control plane's admin token. Default: a fresh one nobody is told. */
  sandboxToken?: string;
  /** How the gateway is composed (createServer's `Composition`): a feature may be left out. */
  composition?: Composition;
}

/**
 * The gateway (createServer from @lrg/gateway) on a data directory (or a PostgreSQL database), in its own process; on
 * PostgreSQL, `acknowledgeStatements` at once (LRG_DATABASE_ACKNOWLEDGE_STATEMENTS; the gateway's default when unset).
 * `serve`: run as the gateway's `serve` script runs it (SERVE_FLAGS, SERVE_ENV).
 */
export async function startGateway(
  dataDir: string,
  databaseUrl?: string,
  acknowledgeStatements?: number,
  { init = {}, serve = false }: { init?: GatewayChildInit; serve?: boolean } = {},
): Promise<GatewayProcess> {
  const args = databaseUrl
    ? [dataDir, databaseUrl, ...(acknowledgeStatements ? [String(acknowledgeStatements)] : [])]
    : [dataDir];
  const child = await startChild(
    "gateway-child.ts",
    args,
    init,
    serve ? { flags: SERVE_FLAGS, env: SERVE_ENV } : undefined,
  );
  return { ...child, handOver: (socket) => child.send("connection", socket) };
}

/**
 * A loopback round-robin balancer that hands each connection it accepts to the next of `instances`, as Node's
 * cluster module hands connections to its workers: the instance's process then reads and answers on it, and no byte
 * of a request or an answer passes through the balancer. It runs in this process (only a process's parent can pass it
 * a socket), at a cost per connection, not per request: the load generator's 32 keep-alive connections of a slice go
 * 16 to each of two instances.
 */
export async function startHandoverBalancer(instances: GatewayProcess[]): Promise<ServerProcess> {
  let next = 0;
  // Paused: nothing is read here, so the instance gets every byte the client sent.
  const server = createServer({ pauseOnConnect: true }, (socket) => {
    const instance = instances[next] as GatewayProcess;
    next = (next + 1) % instances.length;
    instance.handOver(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pid: process.pid,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A bare node:http server answering `routes` ("METHOD /path" → captured answer), in its own process. */
export function startBareServer(routes: Record<string, CannedAnswer>): Promise<ServerProcess> {
  return startChild("bare-child.ts", [], routes);
}

/** The gateway's own entry (`apps/gateway/dist/main.js`), run as `npm run serve` runs it. */
export interface GatewayMainProcess extends ServerProcess {
  sandboxToken: string;
}

/** The runtime settings of the gateway's `serve` script (see `serveRuntime`). */
const runtime = serveRuntime();
export const SERVE_FLAGS = runtime.flags;
export const SERVE_ENV = runtime.env;

/**
 * Starts `apps/gateway/dist/main.js` (or `main`, another build's) as the gateway's `serve` script does (SERVE_ENV,
 * SERVE_FLAGS) on 127.0.0.1, a free port and `dataDir`, logs off; answers once it listens.
 */
export async function startGatewayMain(
  dataDir: string,
  env: Record<string, string> = {},
  main = join(dirname(createRequire(import.meta.url).resolve("@lrg/gateway")), "main.js"),
): Promise<GatewayMainProcess> {
  const sandboxToken = randomBytes(18).toString("base64url");
  const child = spawn(process.execPath, [...SERVE_FLAGS, main], {
    env: {
      ...process.env,
      ...SERVE_ENV,
      PORT: "0",
      HOST: "127.0.0.1",
      LRG_DATA_DIR: dataDir,
      LRG_SANDBOX_TOKEN: sandboxToken,
      LRG_LOG: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => children.delete(child));
  let output = "";
  child.stdout?.setEncoding("utf8");
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the gateway did not start within ${STARTUP_TIMEOUT_MS} ms: ${output}`)),
      STARTUP_TIMEOUT_MS,
    );
    child.stdout?.on("data", (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited with ${String(code)} before it listened: ${output}`));
    });
  });
  child.stdout?.resume();
  return {
    url,
    pid: child.pid as number,
    sandboxToken,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
