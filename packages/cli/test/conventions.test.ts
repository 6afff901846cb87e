// The conventions of every command, through the built lrg: help with an example, one-line errors with the
// documented exit codes, profiles in the XDG config file, LRG_* overrides, secrets never printed, NO_COLOR.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { allCommands } from "../src/completion.js";
import { buildProgram } from "../src/program.js";
import {
  SANDBOX_TOKEN,
  connectionEnv,
  lrg,
  makeHome,
  startGateway,
  type Credentials,
  type Home,
  type RunningGateway,
} from "./support.js";

let gateway: RunningGateway;
let user: Credentials;
let home: Home;

beforeAll(async () => {
  gateway = await startGateway();
  user = await gateway.newBusinessUnit();
  home = makeHome();
});
afterAll(async () => {
  home.remove();
  await gateway.stop();
});

const oneLine = (text: string): void => expect(text.trimEnd().split("\n")).toHaveLength(1);

describe("help", () => {
  const paths = allCommands(buildProgram()).map((command) => {
    const names: string[] = [];
    for (let c: typeof command | null = command; c !== null && c.parent !== null; c = c.parent) names.unshift(c.name());
    return names;
  });

  it("lists the commands", () => expect(paths.length).toBeGreaterThan(5));

  it.each(paths.map((path) => [path.join(" ")]))("lrg %s --help shows an example and exits 0", async (path) => {
    const run = await lrg([...path.split(" "), "--help"], { env: home.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Examples?:\n {2}\$ lrg /);
  });

  it("the top-level help documents the exit codes", async () => {
    const run = await lrg(["--help"], { env: home.env });
    expect(run.stdout).toContain("Exit codes:");
    expect(run.stdout).toMatch(/3 {2}network/);
  });
});

describe("bad input: one line on stderr and the documented exit code", () => {
  it("an unknown flag is a usage error (2)", async () => {
    const run = await lrg(["notifications", "list", "--bogus"], { env: home.env });
    expect(run.code).toBe(2);
    oneLine(run.stderr);
    expect(run.stderr).toBe("lrg: usage: unknown option '--bogus'\n");
  });

  it("an unknown command is a usage error (2)", async () => {
    const run = await lrg(["notificashuns"], { env: home.env });
    expect(run.code).toBe(2);
    oneLine(run.stderr);
    expect(run.stderr).toMatch(/^lrg: usage: unknown command 'notificashuns'/);
  });

  // A script probing for a command must see it missing: --help (or --version) answers only for a command that exists.
  it.each([
    ["teleport --help", "teleport"],
    ["teleport -h", "teleport"],
    ["teleport --json --help", "teleport --json"],
    ["teleport --version", "teleport"],
    ["--help teleport", "teleport"],
    ["--profile sandbox teleport --help", "teleport"],
    ["notifications nope --help", "notifications nope"],
  ])("lrg %s is the same usage error (2) as lrg %s", async (line, without) => {
    const run = await lrg(line.split(" "), { env: home.env });
    const plain = await lrg(without.split(" "), { env: home.env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    oneLine(run.stderr);
    expect(run.stderr).toMatch(/^(lrg: usage: unknown command '|\{"error":"usage","detail":"unknown command ')/);
    expect(run.stderr).toBe(plain.stderr);
  });

  it("no gateway configured is a usage error (2) and sends nothing", async () => {
    const run = await lrg(["notifications", "list"], { env: home.env });
    expect(run.code).toBe(2);
    oneLine(run.stderr);
    expect(run.stderr).toMatch(/^lrg: usage: no gateway address/);
  });

  it("wrong credentials: the API refuses (1) with the problem code and detail", async () => {
    const run = await lrg(["notifications", "list"], {
      env: { ...home.env, ...connectionEnv(gateway, { ...user, password: "wrong" }) },
    });
    expect(run.code).toBe(1);
    oneLine(run.stderr);
    expect(run.stderr).toMatch(/^lrg: refused: 401 [0-9A-Za-z-]+: \S/);
    expect(run.stderr).not.toContain("wrong");
  });

  it("wrong credentials with --json: one JSON line on stderr", async () => {
    const run = await lrg(["notifications", "list", "--json"], {
      env: { ...home.env, ...connectionEnv(gateway, { ...user, password: "wrong" }) },
    });
    expect(run.code).toBe(1);
    oneLine(run.stderr);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: "refused", status: 401 });
  });

  it("an unreachable gateway is a network error (3)", async () => {
    const run = await lrg(["notifications", "list"], {
      env: { ...home.env, ...connectionEnv(gateway, user), LRG_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(run.code).toBe(3);
    oneLine(run.stderr);
    expect(run.stderr).toMatch(/^lrg: network: /);
  });
});

describe("profiles", () => {
  it("add, list, use, remove; the password from an environment variable, never printed (not with --verbose)", async () => {
    const env = { ...home.env, CLI_TEST_PASSWORD: user.password };
    const add = await lrg(
      [
        "profile",
        "add",
        "local",
        "--url",
        gateway.url,
        "--username",
        user.username,
        "--password-env",
        "CLI_TEST_PASSWORD",
      ],
      { env },
    );
    expect(add.code).toBe(0);
    expect(add.stdout).toContain("(current)");
    const file = join(home.env.XDG_CONFIG_HOME as string, "lrg", "config.json");
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(readFileSync(file, "utf8")).not.toContain(user.password);

    await lrg(
      ["profile", "add", "other", "--url", "http://127.0.0.1:9", "--username", "nobody", "--password-env", "NOPE"],
      { env },
    );
    const list = await lrg(["profile", "list", "--json"], { env });
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ name: "local", current: true, password: "env CLI_TEST_PASSWORD" }),
      expect.objectContaining({ name: "other", current: false }),
    ]);

    // The current profile connects; --verbose shows the requests and never the password or the Authorization.
    const listed = await lrg(["notifications", "list", "--verbose"], { env });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain("GET");
    for (const text of [listed.stdout, listed.stderr, list.stdout]) {
      expect(text).not.toContain(user.password);
      expect(text.toLowerCase()).not.toContain("authorization");
    }

    // --profile picks another (unreachable: exit 3), and as a flag it comes before the LRG_* variables too.
    expect((await lrg(["--profile", "other", "notifications", "list"], { env: { ...env, NOPE: "x" } })).code).toBe(3);
    const flagFirst = await lrg(["--profile", "other", "notifications", "list"], {
      env: { ...env, NOPE: "x", LRG_BASE_URL: gateway.url, LRG_USERNAME: user.username, LRG_PASSWORD: user.password },
    });
    expect(flagFirst.code).toBe(3);
    expect(flagFirst.stderr).not.toContain("warning");
    // The variable the profile names is not set: a usage error, nothing sent.
    const unset = await lrg(["--profile", "other", "notifications", "list"], { env });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/NOPE is not set/);

    expect((await lrg(["profile", "use", "other"], { env })).code).toBe(0);
    expect(JSON.parse((await lrg(["profile", "list", "--json"], { env })).stdout)[1]).toMatchObject({
      name: "other",
      current: true,
    });
    expect((await lrg(["profile", "remove", "other"], { env })).code).toBe(0);
    expect((await lrg(["profile", "use", "other"], { env })).code).toBe(2);
    expect((await lrg(["--profile", "missing", "notifications", "list"], { env })).stderr).toMatch(
      /^lrg: usage: no profile named missing/,
    );
  });

  it("the environment is one source: it overrides the current profile as a whole, with a warning saying how to stop it, once", async () => {
    const own = makeHome();
    onTestFinished(() => own.remove());
    // The README's newcomer: exported a user of their own, no sandbox token; then saved a unit as a profile and used it.
    const exported = { LRG_BASE_URL: gateway.url, LRG_USERNAME: user.username, LRG_PASSWORD: user.password };
    const env = { ...own.env, ...exported };
    const warning =
      /^lrg: warning: LRG_BASE_URL, LRG_USERNAME, LRG_PASSWORD are set and override profile acme \(no setting is read from it\); to use the profile: unset LRG_BASE_URL LRG_USERNAME LRG_PASSWORD, or pass --profile acme$/m;

    // No profile selected yet: the environment alone, and nothing to warn about.
    const before = await lrg(["notifications", "list", "--json"], { env });
    expect(before.code).toBe(0);
    expect(before.stderr).toBe("");

    const created = await lrg(["sandbox", "unit", "create", "--save-profile", "acme"], {
      env: { ...env, LRG_SANDBOX_TOKEN: SANDBOX_TOKEN },
    });
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/override profile acme/);

    const used = await lrg(["profile", "use", "acme"], { env });
    expect(used.code).toBe(0);
    expect(used.stdout).toBe("current profile: acme\n");
    expect(used.stderr).toMatch(warning);
    expect((await lrg(["profile", "list"], { env })).stderr).toMatch(warning);
    const usedJson = await lrg(["profile", "use", "acme", "--json"], { env });
    expect(JSON.parse(usedJson.stderr)).toMatchObject({
      warning: "environment_overrides_profile",
      profile: "acme",
      variables: ["LRG_BASE_URL", "LRG_USERNAME", "LRG_PASSWORD"],
    });

    // The sandbox token is not taken from acme while the user comes from the environment: both from one source.
    // The first command other than the profile commands says so; the next ones of the same shell do not.
    const mixed = await lrg(["sandbox", "clock", "show"], { env });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(warning);
    expect(mixed.stderr).toMatch(/^lrg: usage: no sandbox token \(from the environment, not profile acme\)/m);
    for (let run = 0; run < 2; run += 1) {
      const listed = await lrg(["notifications", "list", "--json"], { env });
      expect(listed.code).toBe(0);
      expect(listed.stderr).toBe("");
    }
    // Other variables: said again, once.
    const token = { ...env, LRG_SANDBOX_TOKEN: SANDBOX_TOKEN };
    expect((await lrg(["sandbox", "clock", "show"], { env: token })).stderr).toMatch(/LRG_SANDBOX_TOKEN are set/);
    expect((await lrg(["sandbox", "clock", "show"], { env: token })).stderr).toBe("");

    // Unset, or --profile: acme's user and acme's token, and no warning.
    for (const run of [
      await lrg(["sandbox", "clock", "show"], { env: own.env }),
      await lrg(["--profile", "acme", "sandbox", "clock", "show"], { env }),
      await lrg(["notifications", "list", "--json"], { env: own.env }),
    ]) {
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
    }
    // Once acme was read as the current profile, the variables exported again are said again, once.
    const again = await lrg(["notifications", "list"], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(warning);
    expect((await lrg(["notifications", "list"], { env })).stderr).not.toMatch(/warning/);
  });

  it("--store-password keeps a password read from stdin in the file (mode 0600), and list says only 'stored'", async () => {
    const env = { ...home.env };
    const add = await lrg(
      ["profile", "add", "stored", "--url", gateway.url, "--username", user.username, "--store-password"],
      { env, input: `${user.password}\n` },
    );
    expect(add.code).toBe(0);
    const list = await lrg(["profile", "list"], { env });
    expect(list.stdout).toMatch(/stored/);
    expect(list.stdout).not.toContain(user.password);
    expect((await lrg(["--profile", "stored", "notifications", "list"], { env })).code).toBe(0);
  });

  it("without a password source and no terminal: a usage error", async () => {
    const env = { ...home.env };
    await lrg(["profile", "add", "asks", "--url", gateway.url, "--username", user.username], { env });
    const run = await lrg(["--profile", "asks", "notifications", "list"], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lrg: usage: no password \(profile asks\)/);
  });
});

describe("colour", () => {
  it("FORCE_COLOR colours, NO_COLOR wins over it", async () => {
    const env = { ...home.env, ...connectionEnv(gateway, user) };
    delete env.NO_COLOR;
    const coloured = await lrg(["profile", "list"], { env: { ...env, FORCE_COLOR: "1" } });
    expect(coloured.stdout).toContain("\u001b[");
    const plain = await lrg(["profile", "list"], { env: { ...env, FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(plain.stdout).not.toContain("\u001b[");
  });
});
