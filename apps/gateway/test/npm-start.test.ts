// What a newcomer sees around `npm start`: no warning from its first install, and on Ctrl-C a graceful stop with exit
// code 0 and no `ELIFECYCLE Command failed.` or `npm error` lines. The bootstrap's `serve` runs the gateway as `start`
// does after its install and build (which a test must not repeat in the checkout it runs in).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO, SANDBOX_TOKEN } from "./support/gateway.js";

const root = join(import.meta.dirname, "..", "..", "..");
const bootstrap = join(root, "tooling", "scripts", "bootstrap.mjs");
const dirs: string[] = [];
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lrg-npm-start-"));
  dirs.push(dir);
  return dir;
};

/**
 * Runs `command` in a process group of its own (as a terminal runs a foreground job), the gateway on free ports and
 * a fresh data directory; answers once the gateway's banner is printed, with what it printed so far and its end.
 */
async function started(command: string, args: string[], cwd: string) {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: "0",
      LRG_HTTPS_PORT: "off",
      LRG_DATA_DIR: newDir(),
      LRG_SANDBOX_TOKEN: SANDBOX_TOKEN,
      LRG_DEMO_PASSWORD: DEMO.password,
      npm_config_update_notifier: "false",
    },
  });
  running.push(child);
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  await new Promise<void>((resolve, reject) => {
    const banner = () => /listening on http:\/\/\S+[^]*\n\n/.test(output) && resolve();
    child.stdout.on("data", banner);
    void exited.then(([code]) => reject(new Error(`it ended (${String(code)}) before the banner: ${output}`)));
  });
  return { child, output: () => output, exited };
}

describe("npm start's gateway", () => {
  it("stops gracefully on a Ctrl-C, exit code 0, with no ELIFECYCLE or npm error line", async () => {
    // npm runs the bootstrap as `npm start` would run it; the terminal's Ctrl-C is a SIGINT to the whole foreground
    // group (npm, its shell, the bootstrap), and npm passes it on once more.
    // The root's own start script, with `serve` for `start`.
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const start = scripts["start"]?.replace("tooling/scripts/bootstrap.mjs start", `${bootstrap} serve`);
    expect(start).toMatch(/ serve$/);
    const project = newDir();
    writeFileSync(join(project, "package.json"), JSON.stringify({ private: true, scripts: { start } }));
    const npm = await started("npm", ["start"], project);
    process.kill(-npm.child.pid!, "SIGINT");
    const [code, signal] = await npm.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(npm.output()).toContain("SIGINT: finishing in-flight requests, then stopping.");
    expect(npm.output()).not.toMatch(/ELIFECYCLE|npm error|command failed/i);
  });

  it.each([
    ["SIGINT", "SIGINT"],
    ["SIGTERM", "SIGTERM"],
    ["SIGHUP", "SIGTERM"],
  ] as const)(
    "passes a %s sent to the bootstrap alone on to the gateway (as %s), which stops gracefully",
    async (sent, passed) => {
      const run = await started(process.execPath, [bootstrap, "serve"], newDir());
      run.child.kill(sent);
      const [code, signal] = await run.exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(run.output()).toContain(`${passed}: finishing in-flight requests, then stopping.`);
    },
  );
});

describe("a first install", () => {
  /** Every workspace package (pnpm-workspace.yaml's folders and `folder/*` globs) and its `bin` map. */
  const packages = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")
    .split(/^catalog:/m)[0]!
    .split("\n")
    .flatMap((line) => /^\s+- (\S+)$/.exec(line)?.[1] ?? [])
    .flatMap((entry) =>
      entry.endsWith("/*")
        ? readdirSync(join(root, entry.slice(0, -2)), { withFileTypes: true })
            .filter((child) => child.isDirectory())
            .map((child) => join(entry.slice(0, -2), child.name))
        : [entry],
    )
    .filter((folder) => existsSync(join(root, folder, "package.json")))
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8")) as {
        bin?: Record<string, string>;
      };
      return [folder, Object.entries(manifest.bin ?? {})] as const;
    });

  it("links every package's bins without a warning: each names a file in the checkout, none a build output", () => {
    // pnpm links the bins of workspace packages at install, before any build: a bin in dist/ is missing then, and
    // pnpm warns "Failed to create bin" once for each package that depends on it.
    expect(packages.map(([folder]) => folder)).toContain(join("apps", "gateway"));
    for (const [folder, bins] of packages) {
      for (const [name, target] of bins) {
        expect(target, `${folder} ${name}`).not.toMatch(/^(\.\/)?(dist|build)\//);
        expect(existsSync(join(root, folder, target)), `${folder} ${name}: ${target}`).toBe(true);
      }
    }
  });
});
