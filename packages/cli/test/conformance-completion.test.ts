// lrg conformance (the suite against the test's gateway) and lrg completion bash|zsh.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lrg, useSuite } from "./support.js";

const suite = useSuite();

describe("conformance", () => {
  it("runs the suite against the connection's gateway with its control plane and writes JUnit XML", async () => {
    const junit = join(suite.home.dir, "conformance.xml");
    const run = await lrg(
      ["conformance", "--only", "notifications.v0-no-default-status", "--runs", "2", "--junit", junit],
      { env: suite.env },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`against gateway at ${suite.gateway.url}`);
    expect(readFileSync(junit, "utf8")).toContain("<testsuite");
  });

  it("--json prints one result line; a property id that matches nothing is the suite's usage error (2)", async () => {
    const run = await lrg(["conformance", "--only", "notifications.v0-no-default-status", "--runs", "1", "--json"], {
      env: suite.env,
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { ok: boolean; target: string; junit: string };
    expect(result).toMatchObject({ ok: true, exit_code: 0, target: "gateway" });
    expect(existsSync(result.junit)).toBe(true);
    expect((await lrg(["conformance", "--only", "no-such-property"], { env: suite.env })).code).toBe(2);
  });
});

const completionCases: [string[], number, string[]][] = [
  [["lrg", "notif"], 1, ["notifications"]],
  [["lrg", "sandbox", "clock", ""], 3, ["show", "set", "advance"]],
  [["lrg", "--json", "notifications", "tail", "--a"], 4, ["--ack", "--application"]],
];

describe("completion", () => {
  it.each(completionCases)("bash completes %j", async (typed, index, expected) => {
    const script = join(suite.home.dir, "lrg.bash");
    writeFileSync(script, (await lrg(["completion", "bash"], { env: suite.env })).stdout);
    const words = typed.map((word) => `'${word}'`).join(" ");
    const output = execFileSync(
      "bash",
      ["-c", `source '${script}'; COMP_WORDS=(${words}); COMP_CWORD=${index}; _lrg; printf '%s\\n' "\${COMPREPLY[@]}"`],
      { encoding: "utf8" },
    );
    expect(output.trim().split("\n")).toEqual(expect.arrayContaining(expected));
    for (const word of output.trim().split("\n")) expect(word.startsWith(typed[index] as string)).toBe(true);
  });

  const zsh = spawnSync("zsh", ["--version"]).status === 0;
  it.skipIf(!zsh)("zsh completes the same words (skipped: zsh is not installed)", async () => {
    const script = join(suite.home.dir, "_lrg");
    writeFileSync(script, (await lrg(["completion", "zsh"], { env: suite.env })).stdout);
    // compadd and compdef only exist inside zsh's completion system: stand-ins print what would be offered.
    const output = execFileSync(
      "zsh",
      [
        "-c",
        `compdef() { :; }; compadd() { shift; print -rl -- "$@"; }; source '${script}'; words=(lrg sandbox clock ''); CURRENT=4; _lrg_entry`,
      ],
      {
        encoding: "utf8",
      },
    );
    expect(output.trim().split("\n")).toEqual(expect.arrayContaining(["show", "set", "advance", "--json"]));
  });

  it("an unknown shell is a usage error (2)", async () => {
    const run = await lrg(["completion", "fish"], { env: suite.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("lrg: usage: completion is for bash or zsh (got fish)\n");
  });
});
