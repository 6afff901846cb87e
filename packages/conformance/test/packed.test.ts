// The suite as an integrator gets it outside this repository: packed into a tarball (pnpm turns `catalog:` and
// `workspace:` ranges into real versions), installed with plain npm into an empty project, and run with npx by
// the Node.js running this test, against a gateway this test starts. Neither @lrg/gateway nor @lrg/mock (the
// in-process targets, optional peers) nor @lrg/spec (the build copies the spec into dist/spec/) is installed
// there. (turbo runs `build` before `test`.)
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestGateway, type TestGateway } from "@lrg/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const rootManifest = JSON.parse(await readFile(new URL("../../../package.json", import.meta.url), "utf8")) as {
  packageManager: string;
};
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
// An integrator's shell: without the NODE_PATH that pnpm's launchers set, through which require() would find the
// workspace's packages (@lrg/spec among them) from the temp project.
const integratorEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_PATH"));
const quietEnv = {
  ...integratorEnv,
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking this process (the gateway it talks to answers from here). */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...quietEnv, ...env }, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const sandboxToken = randomBytes(18).toString("base64url");
let work: string;
let project: string;
let gateway: TestGateway;
let url: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "lrg-conformance-packed-"));
  project = join(work, "project");
  gateway = await startTestGateway({ sandboxToken });
  url = gateway.url;
});

afterAll(async () => {
  await gateway?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("the packed conformance suite", () => {
  let tarball = "";

  it("packs into a tarball with real version ranges, the spec inside and the in-process targets as optional peers", async () => {
    const packed = await run(
      npx,
      ["--yes", rootManifest.packageManager, "pack", "--pack-destination", work],
      packageDir,
    );
    expect(packed.code, packed.stderr).toBe(0);
    const name = (await readdir(work)).find((file) => file.endsWith(".tgz"));
    expect(name).toMatch(/^lrg-conformance-\d+\.\d+\.\d+\.tgz$/);
    tarball = join(work, name as string);
    const manifest = (await run("tar", ["-xzOf", tarball, "package/package.json"], work)).stdout;
    expect(manifest).not.toMatch(/"(catalog|workspace):/);
    const { dependencies, peerDependencies, peerDependenciesMeta } = JSON.parse(manifest) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const range of Object.values(dependencies)) expect(range).toMatch(/^\^?\d+\.\d+\.\d+/);
    expect(Object.keys(dependencies).filter((name) => name.startsWith("@lrg/"))).toEqual([]);
    expect(Object.keys(peerDependencies).sort()).toEqual(["@lrg/gateway", "@lrg/mock"]);
    for (const peer of Object.keys(peerDependencies)) expect(peerDependenciesMeta[peer]?.optional).toBe(true);
    const files = (await run("tar", ["-tzf", tarball], work)).stdout.split("\n");
    expect(files).toContain("package/dist/lrg-spec/openapi.dereferenced.json");
    expect(files).toContain("package/dist/spec/registry-data/transaction-documents.json");
    expect(files).toContain("package/bin/lrg-conformance.js");
  }, 300_000);

  it("installs with npm into an empty project without the gateway, the mock or the spec package", async () => {
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "integrator-project", private: true, type: "module" }),
    );
    const installed = await run(npm, ["install", "--no-package-lock", tarball], project);
    expect(installed.code, installed.stderr).toBe(0);
    expect(existsSync(join(project, "node_modules", "@lrg", "conformance", "package.json"))).toBe(true);
    for (const absent of ["gateway", "mock", "spec"])
      expect(existsSync(join(project, "node_modules", "@lrg", absent))).toBe(false);
  }, 300_000);

  it("prints its usage with npx lrg-conformance --help", async () => {
    const help = await run(npx, ["--no", "--", "lrg-conformance", "--help"], project);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("Usage: lrg-conformance --target mock|gateway|remote");
  }, 120_000);

  it("imports as a library from a plain .mjs file, the traceability table read from the copy it carries", async () => {
    await writeFile(
      join(project, "check.mjs"),
      [
        'import { allProperties, readTraceability } from "@lrg/conformance";',
        "console.log(JSON.stringify({ properties: allProperties.length, rows: readTraceability().rows.length }));",
      ].join("\n"),
    );
    const imported = await run(process.execPath, ["check.mjs"], project);
    expect(imported.code, imported.stderr).toBe(0);
    const { properties, rows } = JSON.parse(imported.stdout) as { properties: number; rows: number };
    expect(properties).toBeGreaterThan(0);
    expect(rows).toBeGreaterThan(0);
  }, 120_000);

  it("checks a running gateway given by --url and LRG_SANDBOX_TOKEN", async () => {
    const checked = await run(
      npx,
      [
        "--no",
        "--",
        "lrg-conformance",
        "--target",
        "gateway",
        "--url",
        url,
        "--only",
        "notifications.acknowledge-limit",
        "--runs",
        "3",
      ],
      project,
      { LRG_SANDBOX_TOKEN: sandboxToken },
    );
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/notifications\.acknowledge-limit\s+gateway\s+3\s+passed/);
    expect(checked.stdout).toContain("1 passed, 0 failed, 0 skipped");
  }, 120_000);

  it("names the package to install, with usage and exit code 2, when an in-process target is asked for without --url", async () => {
    for (const [target, peer] of [
      ["gateway", "@lrg/gateway"],
      ["mock", "@lrg/mock"],
    ] as const) {
      const refused = await run(
        npx,
        ["--no", "--", "lrg-conformance", "--target", target, "--only", "notifications.acknowledge-limit"],
        project,
      );
      expect(refused.code, refused.stdout + refused.stderr).toBe(2);
      expect(refused.stderr).toContain(
        `${peer} is not installed: install ${peer} beside @lrg/conformance, or give --url of a running ${target}`,
      );
      expect(refused.stderr).toContain("Usage: lrg-conformance");
      expect(refused.stderr).not.toMatch(/^\s+at /m);
    }
  }, 120_000);
});
