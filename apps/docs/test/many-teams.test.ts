// The many-teams guide's blocks need PostgreSQL and a balancer, so the example run skips them (not-run): what can be
// checked without them is checked here, against the built gateway.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codeBlocks, REPO_ROOT } from "./support/examples.js";
import { SANDBOX_TOKEN } from "./support/gateway.js";

const guide = codeBlocks(readFileSync(join(REPO_ROOT, "apps", "docs", "guides", "many-teams.md"), "utf8"));
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** The guide's shell line that runs `command`. */
function lineRunning(command: string): string {
  const line = guide
    .filter((block) => block.lang === "sh")
    .flatMap((block) => block.code.split("\n"))
    .find((candidate) => candidate.includes(command));
  if (line === undefined) throw new Error(`the many-teams guide runs no ${command}`);
  return line;
}

/** Runs a command with bash in `cwd`: its exit code and what it printed. */
async function bash(script: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const child = spawn("bash", ["-c", script], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, output };
}

describe("the many-teams guide", () => {
  it("starts the instances of one machine each on ports of its own, the mutual TLS one included", () => {
    const starts = guide
      .filter((block) => block.lang === "sh")
      .flatMap((block) => block.code.split("\n"))
      .filter((line) => line.includes("apps/gateway/dist/main.js"));
    expect(starts.length).toBeGreaterThanOrEqual(2);
    const ports = starts.flatMap((line) => [
      /\bPORT=(\d+)/.exec(line)?.[1] ?? `no PORT in: ${line}`,
      // `off`: no mutual TLS listener; unset, every instance would take 8443 and the second would stop.
      ...(/\bLRG_HTTPS_PORT=off\b/.test(line)
        ? []
        : [/\bLRG_HTTPS_PORT=(\d+)/.exec(line)?.[1] ?? `no LRG_HTTPS_PORT in: ${line}`]),
    ]);
    expect(ports.filter((port) => !/^\d+$/.test(port))).toEqual([]);
    expect(new Set(ports).size, `ports: ${ports.join(", ")}`).toBe(ports.length);
  });

  it(
    "copies npm start's data to PostgreSQL with a command that finds it from the repository root",
    { timeout: 120_000 },
    async () => {
      // The repository root as npm start leaves it: the gateway started in apps/gateway with its default data directory.
      const root = realpathSync(mkdtempSync(join(tmpdir(), "lrg-docs-many-teams-")));
      scratch.push(root);
      mkdirSync(join(root, "apps", "gateway"), { recursive: true });
      const gateway = spawn(process.execPath, [join(REPO_ROOT, "apps", "gateway", "dist", "main.js")], {
        cwd: join(root, "apps", "gateway"),
        env: {
          PATH: process.env["PATH"] ?? "/usr/bin:/bin",
          PORT: "0",
          LRG_HTTPS_PORT: "off",
          HOST: "127.0.0.1",
          LRG_SANDBOX_TOKEN: SANDBOX_TOKEN,
          LRG_LOG: "off",
        },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let banner = "";
      const dataDir = await new Promise<string>((found, failed) => {
        gateway.stdout.on("data", (chunk: Buffer) => {
          banner += chunk.toString();
          const named = /listening on \S+ +\(data in ([^,)]+)/.exec(banner)?.[1];
          if (named !== undefined) found(named);
        });
        gateway.once("exit", (code) => failed(new Error(`the gateway exited (${code}):\n${banner}`)));
      });
      gateway.kill("SIGTERM");
      await once(gateway, "exit");

      // The banner names the directory in full; the guide's command names the same one from the repository root.
      expect(dataDir).toBe(join(root, "apps", "gateway", ".data"));
      const command = lineRunning("copy-to-postgres.js");
      expect(resolve(root, /--data-dir (\S+)/.exec(command)?.[1] ?? "(none)")).toBe(dataDir);
      // Run as it is (the script from this checkout): it finds the SQLite file and goes on to the database, which
      // does not answer here (nothing listens on port 1), rather than stopping at "no gateway.sqlite".
      const run = await bash(
        command
          .replace("node apps/gateway/dist/", `"${process.execPath}" ${join(REPO_ROOT, "apps", "gateway", "dist")}/`)
          .replace(/postgres:\/\/\S+/, "postgres://lrg:secret@127.0.0.1:1/lrg"),
        root,
      );
      expect(run.output).not.toContain("no gateway.sqlite");
      expect(run.output).toMatch(/ECONNREFUSED/);
      expect(run.code).not.toBe(0);
    },
  );
});
