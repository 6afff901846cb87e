import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { BENCH_ROOT } from "../options.js";
import type { CannedAnswer } from "./bare-child.js";

/** A server in a child process. */
export interface ServerProcess {
  url: string;
  pid: number;
  close(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** Forks a TypeScript entry of this package (through tsx), waits for it to report `{ url }` over IPC. */
async function startChild(entry: string, args: string[], init?: unknown): Promise<ServerProcess> {
  const child = fork(join(BENCH_ROOT, "src", "servers", entry), args, {
    cwd: BENCH_ROOT,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => children.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start within ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS);
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
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send("close");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The gateway (createServer from @lrg/gateway) on a data directory, in its own process. */
export function startGateway(dataDir: string): Promise<ServerProcess> {
  return startChild("gateway-child.ts", [dataDir]);
}

/** A bare node:http server answering `routes` ("METHOD /path" → captured answer), in its own process. */
export function startBareServer(routes: Record<string, CannedAnswer>): Promise<ServerProcess> {
  return startChild("bare-child.ts", [], routes);
}
