// The client as an integrator gets it outside this repository: packed into a tarball (pnpm turns the workspace's
// `catalog:` and `workspace:` ranges into real versions), installed with plain npm into an empty project, and
// imported from a plain .mjs file by the Node.js running this test. (turbo runs `build` before `test`.)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const rootManifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  packageManager: string;
};
const work = mkdtempSync(join(tmpdir(), "lrg-client-packed-"));
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const quiet = {
  encoding: "utf8" as const,
  env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" },
};

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed client", () => {
  let tarball = "";

  it("packs into a tarball whose manifest has real version ranges", () => {
    execFileSync(npx, ["--yes", rootManifest.packageManager, "pack", "--pack-destination", work], {
      ...quiet,
      cwd: packageDir,
    });
    const name = readdirSync(work).find((file) => file.endsWith(".tgz"));
    expect(name).toMatch(/^lrg-client-\d+\.\d+\.\d+\.tgz$/);
    tarball = join(work, name as string);
    const manifest = execFileSync("tar", ["-xzOf", tarball, "package/package.json"], quiet);
    expect(manifest).not.toMatch(/"(catalog|workspace):/);
    const { dependencies } = JSON.parse(manifest) as { dependencies: Record<string, string> };
    for (const range of Object.values(dependencies)) expect(range).toMatch(/^\^?\d+\.\d+\.\d+/);
  }, 300_000);

  it("installs with npm into an empty project and imports from a plain .mjs file", () => {
    const project = join(work, "project");
    execFileSync("mkdir", ["-p", project]);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "integrator-project", private: true, type: "module" }),
    );
    execFileSync(npm, ["install", "--no-package-lock", tarball], { ...quiet, cwd: project });
    writeFileSync(
      join(project, "check.mjs"),
      [
        'import { createGatewayClient, ProblemError } from "@lrg/client";',
        'const client = createGatewayClient({ baseUrl: "http://127.0.0.1:8080", username: "demo", password: "demo-password" });',
        "console.log(JSON.stringify({ uploads: typeof client.uploadDocument, consume: typeof client.notifications.consume, errors: typeof ProblemError }));",
      ].join("\n"),
    );
    const output = execFileSync(process.execPath, ["check.mjs"], { ...quiet, cwd: project });
    expect(JSON.parse(output)).toEqual({ uploads: "function", consume: "function", errors: "function" });
  }, 300_000);
});
