// lrg starts lean: a command loads what every command needs (commander, the client) and nothing that only one
// command draws with (the progress bar, the spinner) or runs (the conformance suite). Seen through a module
// resolution hook that writes down every module the process resolves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { lrg, makeHome } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "lrg-startup-"));
const home = makeHome();
afterAll(() => {
  home.remove();
  rmSync(dir, { recursive: true, force: true });
});

writeFileSync(
  join(dir, "hook.mjs"),
  `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LRG_TEST_RESOLVED, resolved.url + "\\n");
  return resolved;
}
`,
);
writeFileSync(
  join(dir, "register.mjs"),
  `import { register } from "node:module";\nregister("./hook.mjs", import.meta.url);\n`,
);

/** The modules `lrg args` resolved, as URLs. */
async function modulesResolvedBy(args: string[], name: string): Promise<string[]> {
  const log = join(dir, `${name}.txt`);
  writeFileSync(log, "");
  const run = await lrg(args, {
    env: {
      ...home.env,
      LRG_TEST_RESOLVED: log,
      NODE_OPTIONS: `--import=${pathToFileURL(join(dir, "register.mjs")).href}`,
    },
  });
  expect(run.code, run.stderr).toBe(0);
  return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

const LOADED_ON_DEMAND = [/\/node_modules\/ora\//, /\/node_modules\/cli-progress\//, /\/packages\/conformance\//];

describe("start-up", () => {
  it.each([
    ["--help", ["--help"]],
    ["notifications list --help", ["notifications", "list", "--help"]],
    ["profile list", ["profile", "list"]],
  ])("lrg %s loads neither the spinner, the progress bar nor the conformance suite", async (name, args) => {
    const resolved = await modulesResolvedBy(args, name.replace(/\W+/g, "-"));
    // The hook saw the program itself: an empty list would prove nothing.
    expect(resolved.some((url) => url.endsWith("/dist/program.js"))).toBe(true);
    expect(resolved.some((url) => url.includes("/node_modules/commander/"))).toBe(true);
    for (const pattern of LOADED_ON_DEMAND) expect(resolved.filter((url) => pattern.test(url))).toEqual([]);
  });
});
