// What the CLI tests share: a real gateway (@lrg/gateway, built) on 127.0.0.1 and a free port over a temporary
// data directory, and the BUILT `lrg` run as a child process with its own config and state directories.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect } from "vitest";
import type { Fetch, GatewayClient, NotificationV1 } from "@lrg/client";
import {
  SANDBOX_TOKEN,
  smallPdf,
  startGateway,
  submission,
  type Credentials,
  type RunningGateway,
} from "../../client/test/integration/gateway-support.js";

export const LRG = join(import.meta.dirname, "..", "bin", "lrg.js");

// The gateway the client's integration tests start (createServer from @lrg/gateway on port 0, in a temp dir).
export {
  IN_SERVICE_HOURS,
  SANDBOX_TOKEN,
  searchOf,
  smallPdf,
  startGateway,
  submission,
  type Credentials,
  type RunningGateway,
} from "../../client/test/integration/gateway-support.js";

/** A home for lrg: its own config and state directories, removed by `remove`. */
export interface Home {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  remove(): void;
}

export function makeHome(extra: NodeJS.ProcessEnv = {}): Home {
  const dir = mkdtempSync(join(tmpdir(), "lrg-cli-home-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_STATE_HOME: join(dir, "state"),
    NO_COLOR: "1",
    ...extra,
  };
  return { dir, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment that points lrg at a gateway as a user, without a profile. */
export function connectionEnv(gateway: RunningGateway, credentials: Credentials): NodeJS.ProcessEnv {
  return {
    LRG_BASE_URL: gateway.url,
    LRG_USERNAME: credentials.username,
    LRG_PASSWORD: credentials.password,
    LRG_SANDBOX_TOKEN: SANDBOX_TOKEN,
  };
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built lrg to its end. */
export function lrg(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; input?: string; cwd?: string },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LRG, ...args], {
      env: options.env,
      cwd: options.cwd ?? tmpdir(),
      stdio: "pipe",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** A long-running lrg (tail, forward): its output lines as they come. */
export interface Follower {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  readonly stderr: string[];
  /** Resolves when `count` lines have been printed on stdout. */
  waitForLines(count: number): Promise<string[]>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

export function follow(args: readonly string[], env: NodeJS.ProcessEnv): Follower {
  const child = spawn(process.execPath, [LRG, ...args], { env, stdio: "pipe" });
  child.stdin.end();
  const lines: string[] = [];
  const stderr: string[] = [];
  const waiters: { count: number; resolve: (lines: string[]) => void }[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((w) => lines.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve([...lines]);
    }
  });
  createInterface({ input: child.stderr }).on("line", (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    lines,
    stderr,
    exited,
    waitForLines: (count) =>
      lines.length >= count
        ? Promise.resolve([...lines])
        : new Promise((resolve, reject) => {
            waiters.push({ count, resolve });
            void exited.then((code) =>
              reject(new Error(`lrg exited (${code}) after ${lines.length} lines; stderr: ${stderr.join(" | ")}`)),
            );
          }),
  };
}

export function writePdf(dir: string, name: string, label?: string): string {
  const path = join(dir, name);
  writeFileSync(path, smallPdf(label));
  return path;
}

/** What one submission with one document produces: the document's check (attachment-success) and the acceptance. */
export const NOTIFICATIONS_PER_SUBMISSION = 2;

/** Uploads a document and submits an application through the client; answers the application's id. */
export async function submitThroughClient(client: GatewayClient, reference?: string): Promise<string> {
  const uploaded = await client.uploadDocument(smallPdf(reference), { documentType: "TR1" });
  const submitted = await client.applications.submit(submission(uploaded.document_id, reference));
  return submitted.application_request_id;
}

/** Waits (polling, no time limit of its own) until the user has at least `count` NEW notifications. */
export async function waitForNew(client: GatewayClient, count: number): Promise<NotificationV1[]> {
  for (;;) {
    const all: NotificationV1[] = [];
    for await (const notification of client.notifications.listAll({ status: "NEW" })) all.push(notification);
    if (all.length >= count) return all;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a test file shares: its gateway, lrg's home, one business unit's user and the environment that connects as it. */
export interface Suite {
  gateway: RunningGateway;
  home: Home;
  user: Credentials;
  env: NodeJS.ProcessEnv;
}

/**
 * Starts a gateway (no duplicate deliveries), a home and a business unit before the file's tests, and removes them
 * after. The fields are set once `beforeAll` has run.
 */
export function useSuite(): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    suite.gateway = await startGateway();
    await suite.gateway.settings({ duplicate_rate: 0 });
    suite.home = makeHome();
    suite.user = await suite.gateway.newBusinessUnit();
    suite.env = { ...suite.home.env, ...connectionEnv(suite.gateway, suite.user) };
  });
  afterAll(async () => {
    suite.home?.remove();
    await suite.gateway?.stop();
  });
  return suite;
}

/** Starts a long-running lrg that prints its loopback address first (record, replay); answers it and the process. */
export async function listening(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ address: string; process: Follower }> {
  const process = follow(args, env);
  const [address] = await process.waitForLines(1);
  expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  return { address: address!, process };
}

/** Stops a long-running lrg with SIGINT; answers its exit code. */
export async function interrupted(follower: Follower): Promise<number | null> {
  follower.child.kill("SIGINT");
  return follower.exited;
}

/** A fetch that keeps the address of every request the client made (the signed upload and download addresses too). */
export function keepingAddresses(): { fetch: Fetch; addresses: string[] } {
  const addresses: string[] = [];
  return {
    addresses,
    fetch: (request) => {
      addresses.push(request.url);
      return globalThis.fetch(request);
    },
  };
}
