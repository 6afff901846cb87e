// The client, and the command line on it, as an integrator gets them outside this repository: the tarballs that
// `npm run pack` writes (tooling/scripts/pack.mjs, run here on the build turbo made before the tests), installed
// with plain npm into empty projects by the very lines the script prints, then used against a real gateway: the
// client imported from a plain .mjs file lists the demo user's notifications, and so does the installed `lrg`.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { unwrap } from "../src/index.js";
import { smallPdf, startGateway, submit, type RunningGateway } from "./integration/gateway-support.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const cliVersion = (
  JSON.parse(await readFile(join(repoRoot, "packages/cli/package.json"), "utf8")) as { version: string }
).version;

/**
 * An integrator's shell: none of this run's LRG_* settings, and no NODE_PATH (pnpm's launchers set it, and through it
 * the temporary projects would find the workspace's packages).
 */
const integratorEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== "NODE_PATH" && !name.startsWith("LRG_")),
  ),
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};

/** Runs a command without blocking this process, which serves the gateway the command talks to. */
function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd, env: { ...integratorEnv, ...env }, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr }),
    );
  });
}

/** An empty npm project, as `npm init` would leave it but for `"type": "module"`. */
async function emptyProject(name: string): Promise<string> {
  const project = join(work, name);
  await mkdir(project, { recursive: true });
  await writeFile(join(project, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return project;
}

let work: string;
let gw: RunningGateway;
/** The notifications the sandbox made for the demo user. */
let seeded: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "lrg-client-packed-"));
  gw = await startGateway();
  await gw.settings({ processing: "manual", duplicate_rate: 0, error_rate: 0, latency_ms: 0 });
  const client = gw.client(gw.demo);
  const { document_id: documentId } = await client.uploadDocument(smallPdf("packed"), { documentType: "TR1" });
  await vi.waitFor(async () => expect((await gw.gateway.storage.findDocument(documentId))?.status).toBe("ACCEPTED"));
  const moved = await unwrap(
    gw.sandbox.POST("/sandbox/v1/applications/{id}/transitions", {
      params: { path: { id: await submit(client, documentId, "CLIENT-PACKED") } },
      body: { to: "ACCEPTED_PRIORITY_PROTECTED" },
    }),
  );
  seeded = moved.notifications.map((notification) => notification.notification_id);
  expect(seeded.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await gw?.stop();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe("the packed client and command line", () => {
  /** The `npm install ...` lines pack.mjs prints: the client alone, then the three tarballs. */
  let installLines: string[][] = [];

  it("are packed by tooling/scripts/pack.mjs with real version ranges, the spec's library inside the client", async () => {
    const packed = await run(
      process.execPath,
      [join(repoRoot, "tooling/scripts/pack.mjs"), "--out", join(work, "packs")],
      work,
    );
    expect(packed.code, packed.stderr).toBe(0);
    installLines = [...packed.stdout.matchAll(/^ {2}npm install (.+)$/gm)].map((line) => (line[1] ?? "").split(" "));
    expect(installLines).toHaveLength(2);
    const [client, all] = installLines as [string[], string[]];
    expect(client).toEqual([join(work, "packs", "lrg-client-0.1.0.tgz")]);
    expect(all.map((tarball) => tarball.slice(join(work, "packs").length + 1))).toEqual([
      "lrg-client-0.1.0.tgz",
      "lrg-conformance-0.1.0.tgz",
      `lrg-cli-${cliVersion}.tgz`,
    ]);

    const manifest = (await run("tar", ["-xzOf", client[0] as string, "package/package.json"], work)).stdout;
    expect(manifest).not.toMatch(/"(catalog|workspace):/);
    const { dependencies } = JSON.parse(manifest) as { dependencies: Record<string, string> };
    for (const range of Object.values(dependencies)) expect(range).toMatch(/^\^?\d+\.\d+\.\d+/);
    const files = (await run("tar", ["-tzf", client[0] as string], work)).stdout.split("\n");
    for (const module of ["constants", "openapi", "sandbox"])
      expect(files).toContain(`package/dist/lrg-spec/lib/generated/${module}.js`);
  }, 300_000);

  it("installs the client alone with npm into an empty project; a .mjs file imports it and lists notifications", async () => {
    const project = await emptyProject("client-project");
    const installed = await run("npm", ["install", "--no-package-lock", ...(installLines[0] ?? [])], project);
    expect(installed.code, installed.stderr).toBe(0);
    await writeFile(
      join(project, "list.mjs"),
      [
        'import { createGatewayClient } from "@lrg/client";',
        "const [baseUrl, username, password] = process.argv.slice(2);",
        "const client = createGatewayClient({ baseUrl, username, password });",
        "const ids = [];",
        "for await (const notification of client.notifications.listAll()) ids.push(notification.notification_id);",
        "console.log(JSON.stringify(ids));",
      ].join("\n"),
    );
    const listed = await run(process.execPath, ["list.mjs", gw.url, gw.demo.username, gw.demo.password], project);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(expect.arrayContaining(seeded));
  }, 300_000);

  it("installs lrg from the three tarballs in one npm install; it lists the same notifications", async () => {
    const project = await emptyProject("cli-project");
    const installed = await run("npm", ["install", "--no-package-lock", ...(installLines[1] ?? [])], project);
    expect(installed.code, installed.stderr).toBe(0);
    for (const absent of ["spec", "gateway", "mock"])
      expect(existsSync(join(project, "node_modules", "@lrg", absent)), `@lrg/${absent}`).toBe(false);
    const lrg = join(project, "node_modules", ".bin", "lrg");

    const version = await run(lrg, ["--version"], project);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(cliVersion);

    const listed = await run(lrg, ["notifications", "list", "--json"], project, {
      LRG_BASE_URL: gw.url,
      LRG_USERNAME: gw.demo.username,
      LRG_PASSWORD: gw.demo.password,
      XDG_CONFIG_HOME: join(work, "config"),
      XDG_STATE_HOME: join(work, "state"),
    });
    expect(listed.code, listed.stderr).toBe(0);
    const ids = (JSON.parse(listed.stdout) as { notification_id: string }[]).map((n) => n.notification_id);
    expect(ids).toEqual(expect.arrayContaining(seeded));
  }, 300_000);
});

describe("a client that is not completely built", () => {
  const buildCommand = "exec turbo run build --filter=@lrg/client";

  it("is not packed: prepack names the missing spec library and the command that builds it", async () => {
    const copy = join(work, "half-built");
    await cp(fileURLToPath(new URL("../package.json", import.meta.url)), join(copy, "package.json"));
    await cp(fileURLToPath(new URL("../dist", import.meta.url)), join(copy, "dist"), { recursive: true });
    const check = join(repoRoot, "tooling/scripts/check-packable.mjs");
    expect((await run(process.execPath, [check], copy)).code).toBe(0);
    // What a build stopped by a missing spec library left: imports rewritten to dist/lrg-spec, no files there.
    await rm(join(copy, "dist", "lrg-spec"), { recursive: true });
    const refused = await run(process.execPath, [check], copy);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /dist\/\S+\.js imports (\.\.?\/)+lrg-spec\/lib\/generated\/constants\.js, which is missing/,
    );
    expect(refused.stderr).toContain(buildCommand);
  });

  it("is not built before @lrg/spec: the build stops first, naming the command that builds both", async () => {
    const spec = join(work, "unbuilt-spec");
    await mkdir(spec, { recursive: true });
    await cp(join(repoRoot, "spec", "package.json"), join(spec, "package.json"));
    const client = join(work, "unbuilt-client");
    await mkdir(join(client, "node_modules", "@lrg"), { recursive: true });
    await cp(fileURLToPath(new URL("../package.json", import.meta.url)), join(client, "package.json"));
    await symlink(spec, join(client, "node_modules", "@lrg", "spec"));
    const refused = await run(process.execPath, [join(repoRoot, "tooling/scripts/require-spec-build.mjs")], client);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("unbuilt-spec/dist/lib/");
    expect(refused.stderr).toContain(buildCommand);
  });
});
