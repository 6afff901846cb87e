// The gateway as `npm start` runs it (apps/gateway/dist/main.js, built by turbo before this package's tests), on
// free ports over a temporary data directory, with the demo login and the sandbox token the guides assume.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./examples.js";

/** The token the guides' sandbox commands read from LRG_SANDBOX_TOKEN. */
export const SANDBOX_TOKEN = "docs-examples-sandbox-token";

/** A gateway started for one page: its plain and mutual TLS addresses, and its demo certificates. */
export interface StartedGateway {
  /** `http://127.0.0.1:<port>`, in place of the documented `http://127.0.0.1:8080`. */
  url: string;
  /** `https://127.0.0.1:<port>`, in place of the documented `https://127.0.0.1:8443`. */
  tlsUrl: string;
  /** The directory of the demo certificates, in place of the documented `apps/gateway/.data/tls`. */
  certificates: string;
  /** The documented defaults and what replaces them in the blocks this gateway runs. */
  substitutions: [string, string][];
  stop(): Promise<void>;
}

/** Starts `apps/gateway/dist/main.js` with PORT=0 and LRG_HTTPS_PORT=0, and reads its addresses from the banner. */
export async function startDocsGateway(): Promise<StartedGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), "lrg-docs-gateway-"));
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, "apps", "gateway", "dist", "main.js")], {
    cwd: dataDir,
    env: {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      PORT: "0",
      LRG_HTTPS_PORT: "0",
      HOST: "127.0.0.1",
      LRG_DATA_DIR: dataDir,
      LRG_SANDBOX_TOKEN: SANDBOX_TOKEN,
      LRG_LOG: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const banner = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Mutual TLS:.*\n/.test(output) && /Certificates:.*\n/.test(output)) resolve(output);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the gateway exited (${code}) before it was ready:\n${output}`)));
  });
  const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
  const tlsUrl = /Mutual TLS:\s+(https:\/\/\S+)/.exec(banner)?.[1];
  const certificates = /Certificates:\s+(\S+)/.exec(banner)?.[1];
  if (url === undefined || tlsUrl === undefined || certificates === undefined)
    throw new Error(`unexpected banner:\n${banner}`);
  return {
    url,
    tlsUrl,
    certificates,
    substitutions: [
      ["http://127.0.0.1:8080", url],
      ["https://127.0.0.1:8443", tlsUrl],
      ["apps/gateway/.data/tls", certificates],
      // The pages' placeholder for the token the banner prints.
      ["<the token npm start printed>", SANDBOX_TOKEN],
    ],
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a page may change only for a business unit of its own, as the admin token reads it. */
export interface GlobalSandboxState {
  /** The sandbox's own settings, which every business unit follows unless it set its own. */
  settings: Record<string, unknown>;
  /** Whether the registry-wide day list is open. */
  dayListOpen: boolean;
  /** The global clock, rounded to the minute it is off real time by (0 unless someone moved it). */
  clockOffsetMinutes: number;
}

/** Reads the gateway's global sandbox state with the admin token. */
export async function globalSandboxState(url: string): Promise<GlobalSandboxState> {
  const read = async (path: string): Promise<Record<string, unknown>> => {
    const response = await fetch(`${url}/sandbox/v1${path}`, { headers: { authorization: `Bearer ${SANDBOX_TOKEN}` } });
    if (!response.ok) throw new Error(`GET /sandbox/v1${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const [settings, dayList, clock] = await Promise.all([read("/settings"), read("/day-list"), read("/clock")]);
  return {
    settings,
    dayListOpen: dayList["open"] === true,
    // `|| 0`: -0, a clock a few milliseconds behind, is no offset either.
    clockOffsetMinutes: Math.round((Date.parse(String(clock["now"])) - Date.now()) / 60_000) || 0,
  };
}
