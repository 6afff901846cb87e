// lrg sandbox ... through the built lrg: the control plane as an integrator drives it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { IN_SERVICE_HOURS } from "../../client/test/integration/gateway-support.js";
import { lrg, makeHome, submitThroughClient, useSuite } from "./support.js";

const suite = useSuite();

const json = async (args: string[], environment = suite.env): Promise<unknown> => {
  const run = await lrg([...args, "--json"], { env: environment });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
};

async function accepted(): Promise<string> {
  const client = suite.gateway.client(suite.user);
  const id = await submitThroughClient(client, "CLI-SANDBOX");
  while ((await client.applications.information(id)).status !== "ACCEPTED_PRIORITY_PROTECTED")
    await new Promise((resolve) => setTimeout(resolve, 100));
  return id;
}

describe("sandbox", () => {
  it("unit create prints new credentials, or keeps them in a profile that then works", async () => {
    expect(await json(["sandbox", "unit", "create", "--name", "CLI unit"])).toMatchObject({
      business_unit_id: expect.any(String),
      username: expect.any(String),
      password: expect.any(String),
    });
    // A home of its own: the saved profile becomes its current one, which this file's environment would override.
    const own = makeHome();
    const env = { ...suite.env, ...own.env };
    const saved = await lrg(["sandbox", "unit", "create", "--save-profile", "fresh"], { env });
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(/saved as profile fresh/);
    const listed = await lrg(["--profile", "fresh", "notifications", "list", "--json"], { env });
    own.remove();
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it("a unit's profile drives that unit alone with its own token: its clock, the audit of its actions, a rotated token kept", async () => {
    const own = makeHome();
    onTestFinished(() => own.remove());
    const saved = await lrg(["sandbox", "unit", "create", "--name", "Team A", "--save-profile", "team-a"], {
      env: { ...suite.env, ...own.env },
    });
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(/saved as profile team-a \(with the unit's sandbox token\)/);
    const configFile = join(own.env["XDG_CONFIG_HOME"] as string, "lrg", "config.json");
    const profileOf = () =>
      (JSON.parse(readFileSync(configFile, "utf8")) as { profiles: Record<string, Record<string, string>> }).profiles[
        "team-a"
      ];
    const first = profileOf();
    expect(first?.["sandbox_token"]).toMatch(/^lrgu_/);
    // --profile comes before the environment: every setting, the sandbox token included, is the profile's.
    const bare = { ...suite.env, ...own.env };
    const asTeam = (args: string[]) => lrg(["--profile", "team-a", ...args], { env: bare });

    const before = Date.parse(((await json(["sandbox", "clock", "show"])) as { now: string }).now);
    const moved = await asTeam(["sandbox", "clock", "advance", "30d", "--json"]);
    expect(moved.code).toBe(0);
    const teamNow = Date.parse((JSON.parse(moved.stdout) as { now: string }).now);
    const adminNow = Date.parse(((await json(["sandbox", "clock", "show"])) as { now: string }).now);
    expect(teamNow - before).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(adminNow - before).toBeLessThan(86_400_000);

    const refused = await asTeam(["sandbox", "day-list", "close"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^lrg: refused: 403 403-05: /);

    const audit = await asTeam(["sandbox", "audit", "--json"]);
    expect(audit.code).toBe(0);
    const entries = JSON.parse(audit.stdout) as { operation_id: string; actor: { kind: string }; status: number }[];
    expect(entries.map((entry) => [entry.operation_id, entry.actor.kind, entry.status])).toEqual([
      ["advanceClock", "unit", 200],
      ["setDayList", "unit", 403],
    ]);
    const table = await asTeam(["sandbox", "audit", "--actor", "unit"]);
    expect(table.stdout).toMatch(
      /^SEQ +RECORDED AT +ACTOR +REQUEST +ANSWER\n.*POST \/sandbox\/v1\/clock\/advance +200\n/,
    );
    expect(table.stderr).toMatch(/^to read on: lrg sandbox audit --after \d+\n$/);

    const rotated = await asTeam(["sandbox", "unit", "rotate-token"]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/new sandbox token kept in profile team-a/);
    const second = profileOf();
    expect(second?.["sandbox_token"]).toMatch(/^lrgu_/);
    expect(second?.["sandbox_token"]).not.toBe(first?.["sandbox_token"]);
    expect((await asTeam(["sandbox", "clock", "show"])).code).toBe(0);
    const old = await lrg(["sandbox", "clock", "show"], {
      env: { ...bare, LRG_SANDBOX_TOKEN: first?.["sandbox_token"] },
    });
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/^lrg: refused: 401 /m);
    // Without a unit named and without a profile that knows its unit, nothing is sent.
    const empty = makeHome();
    const noUnit = await lrg(["sandbox", "unit", "rotate-token"], { env: { ...suite.env, ...empty.env } });
    empty.remove();
    expect(noUnit.code).toBe(2);
    expect(noUnit.stderr).toMatch(/^lrg: usage: which business unit\?/);
  });

  it("clock show, set and advance 2d", async () => {
    // The gateway's clock runs on from where it is set: compare to the minute.
    expect(await json(["sandbox", "clock", "set", IN_SERVICE_HOURS])).toEqual({
      now: expect.stringMatching(/^2025-04-01T09:15:/),
    });
    expect(await json(["sandbox", "clock", "advance", "2d"])).toEqual({
      now: expect.stringMatching(/^2025-04-03T09:15:/),
    });
    expect(await json(["sandbox", "clock", "advance", "1h30m"])).toEqual({
      now: expect.stringMatching(/^2025-04-03T10:45:/),
    });
    const shown = await lrg(["sandbox", "clock", "show"], { env: suite.env });
    expect(shown.stdout).toMatch(/^2025-04-03T10:45:\d\d\.\d{3}Z\n$/);
    const bad = await lrg(["sandbox", "clock", "advance", "2 days"], { env: suite.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^lrg: usage: not a duration: 2 days/);
    await suite.gateway.setClock(IN_SERVICE_HOURS);
  });

  it("day-list close and open: an application waits for priority, then gets it", async () => {
    expect(await json(["sandbox", "day-list", "close"])).toMatchObject({ open: false });
    const client = suite.gateway.client(suite.user);
    const id = await submitThroughClient(client, "CLI-DAYLIST");
    while ((await client.applications.information(id)).status !== "ACCEPTED_AWAITING_PRIORITY")
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await json(["sandbox", "day-list", "show"])).toMatchObject({ open: false, awaiting_priority: 1 });
    expect(await json(["sandbox", "day-list", "open"])).toMatchObject({ open: true, promoted: 1 });
    expect((await client.applications.information(id)).status).toBe("ACCEPTED_PRIORITY_PROTECTED");
  });

  it("transition and correspondence emit their notifications; an illegal transition is refused (1)", async () => {
    const id = await accepted();
    const despatched = (await json(["sandbox", "correspondence", id, "RCS"])) as {
      documents: unknown[];
      notifications: { notification_type: string }[];
    };
    expect(despatched.documents).toHaveLength(1);
    expect(despatched.notifications[0]?.notification_type).toBe("application.correspondence-despatched");
    const moved = await lrg(["sandbox", "transition", id, "COMPLETED", "--documents", "REG"], { env: suite.env });
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/ACCEPTED_PRIORITY_PROTECTED -> COMPLETED\n {2}notification application.completed /);
    const illegal = await lrg(["sandbox", "transition", id, "CANCELLED"], { env: suite.env });
    expect(illegal.code).toBe(1);
    expect(illegal.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(illegal.stderr).toMatch(/^lrg: refused: 409 /);
    expect((await lrg(["sandbox", "transition", id, "DONE"], { env: suite.env })).code).toBe(2);
  });

  it("trigger produces a notification type through the control plane, and says which it cannot", async () => {
    const id = await accepted();
    const cancelled = (await json(["sandbox", "trigger", "application.cancelled", "--application", id])) as {
      notifications: { notification_type: string }[];
    };
    expect(cancelled.notifications.map((n) => n.notification_type)).toEqual(["application.cancelled"]);
    const list = (await json([
      "notifications",
      "list",
      "--application",
      id,
      "--type",
      "application.cancelled",
    ])) as unknown[];
    expect(list).toHaveLength(1);
    const cannot = await lrg(["sandbox", "trigger", "application.message-success", "--application", id], {
      env: suite.env,
    });
    expect(cannot.code).toBe(2);
    expect(cannot.stderr).toMatch(/^lrg: usage: the control plane cannot produce application.message-success: /);
  });

  it("settings get and set key=value; reset needs --yes; a wrong token is refused (1)", async () => {
    expect(await json(["sandbox", "settings", "set", "duplicate_rate=0.5", "processing=manual"])).toMatchObject({
      duplicate_rate: 0.5,
      processing: "manual",
    });
    expect(await json(["sandbox", "settings", "get"])).toMatchObject({ duplicate_rate: 0.5, processing: "manual" });
    const badValue = await lrg(["sandbox", "settings", "set", "duplicate_rate=2"], { env: suite.env });
    expect(badValue.code).toBe(1);
    expect(badValue.stderr).toMatch(/^lrg: refused: 400 /);
    expect((await lrg(["sandbox", "reset"], { env: suite.env })).code).toBe(2);
    expect(await json(["sandbox", "reset", "--yes"])).toEqual({ reset: true });
    expect(await json(["sandbox", "settings", "get"])).toMatchObject({ processing: "automatic" });
    const wrong = await lrg(["sandbox", "clock", "show"], { env: { ...suite.env, LRG_SANDBOX_TOKEN: "wrong" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^lrg: refused: 401 /);
    // No token anywhere: none in the environment, and a home without profiles (this file's holds unit profiles).
    const empty = makeHome();
    const { LRG_SANDBOX_TOKEN: _t, ...without } = { ...suite.env, ...empty.env };
    const missing = await lrg(["sandbox", "clock", "show"], { env: without });
    empty.remove();
    expect(missing.stderr).toMatch(/^lrg: usage: no sandbox token/);
  });
});
