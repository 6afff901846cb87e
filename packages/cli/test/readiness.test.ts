// lrg readiness ... through the built lrg against a real gateway: a run followed to its verdict with the exit code
// that gates a CI job (0, 1, 2), the report files written, --json, show, list and cancel.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { createSandboxClient, unwrap, type SandboxComponents } from "@lrg/client";
import { follow, lrg, SANDBOX_TOKEN, useSuite, type Follower } from "./support.js";

type Run = SandboxComponents["schemas"]["ReadinessRun"];

const suite = useSuite();

/** A new business unit and the environment of lrg as it: its user and its own sandbox token. */
async function unitEnv(): Promise<{ env: NodeJS.ProcessEnv; unitId: string; token: string }> {
  const unit = await unwrap(suite.gateway.sandbox.POST("/sandbox/v1/business-units", { body: { name: "Readiness" } }));
  return {
    unitId: unit.business_unit_id,
    token: unit.sandbox_token,
    env: {
      ...suite.home.env,
      LRG_BASE_URL: suite.gateway.url,
      LRG_USERNAME: unit.username,
      LRG_PASSWORD: unit.password,
      LRG_SANDBOX_TOKEN: unit.sandbox_token,
    },
  };
}

/** lrg readiness run --json in the background; answers it once the run has started (its first line). */
async function startRun(args: string[], env: NodeJS.ProcessEnv): Promise<{ follower: Follower; run: Run }> {
  const follower = follow(["readiness", "run", "--interval", "100ms", "--json", ...args], env);
  const [first] = await follower.waitForLines(1);
  const started = JSON.parse(first ?? "") as { event: string; run: Run };
  expect(started.event).toBe("started");
  return { follower, run: started.run };
}

const ended = (follower: Follower): { event: string; run: Run } =>
  JSON.parse(follower.lines.at(-1) ?? "") as { event: string; run: Run };

describe("readiness", () => {
  it("exits 0 when no check failed (a run cancelled before the software acted: not exercised), 1 with --strict", async () => {
    for (const strict of [false, true]) {
      const { env } = await unitEnv();
      const { follower, run } = await startRun(strict ? ["--strict"] : [], env);
      expect(run.checks.every((check) => check.verdict === "running" && check.instructions !== null)).toBe(true);
      const cancelled = await lrg(["readiness", "cancel", run.run_id, "--json"], { env });
      expect(cancelled.code).toBe(0);
      expect((JSON.parse(cancelled.stdout) as Run).status).toBe("cancelled");
      expect(await follower.exited).toBe(strict ? 1 : 0);
      const last = ended(follower);
      expect(last.event).toBe("ended");
      expect(last.run.checks.map((check) => check.verdict)).toContain("not_exercised");
      expect(last.run.checks.map((check) => check.verdict)).not.toContain("failed");
    }
  });

  it("exits 1 when a check failed, prints each change, and writes the JUnit and HTML reports from the API", async () => {
    const { env, token } = await unitEnv();
    const junit = join(suite.home.dir, "readiness.xml");
    const html = join(suite.home.dir, "readiness.html");
    const follower = follow(
      ["readiness", "run", "--time-limit", "1m", "--interval", "100ms", "--junit", junit, "--html", html],
      env,
    );
    const [first] = await follower.waitForLines(1);
    expect(first).toMatch(/^readiness run \S+ started on business unit \S+; it ends at \S+ on the unit's clock$/);
    // The software lists its notifications once and acknowledges none; then the unit's clock passes the deadline.
    expect((await lrg(["notifications", "list", "--json"], { env })).code).toBe(0);
    const client = createSandboxClient({ baseUrl: suite.gateway.url, token });
    await unwrap(client.POST("/sandbox/v1/clock/advance", { body: { seconds: 61 } }));
    expect(await follower.exited).toBe(1);
    const output = follower.lines.join("\n");
    expect(output).toMatch(/: running -> failed/);
    expect(output).toMatch(/: finished, verdict failed/);
    expect(output).toMatch(/how to pass: /);

    const xml = readFileSync(junit, "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain("<failure ");
    const page = readFileSync(html, "utf8");
    expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(page).toContain(">failed</span>");
    expect(follower.stderr).toEqual([`lrg: wrote ${junit}`, `lrg: wrote ${html}`]);
  });

  it.each([
    ["another run is running (409)", "409", ["--time-limit", "1h"]],
    ["an unknown check (400)", "400", ["--checks", "telepathy"]],
    ["a time limit out of range (400)", "400", ["--time-limit", "8d"]],
    ["a wrong sandbox token (401)", "401", []],
  ])("exits 2 when the run could not start: %s", async (_name, status, args) => {
    const { env } = await unitEnv();
    if (status === "409") {
      const first = await startRun([], env);
      stop(first.follower);
    }
    const environment = status === "401" ? { ...env, LRG_SANDBOX_TOKEN: "lrgu_wrong" } : env;
    const refused = await lrg(["readiness", "run", ...args], { env: environment });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(new RegExp(`^lrg: refused: ${status} ${status}-\\d\\d: `));
    expect(refused.stderr).toMatch(/lrg: the readiness run did not start\n$/);
  });

  it("show, list and cancel a run, as text and --json; the admin token names the unit", async () => {
    const { env, unitId } = await unitEnv();
    const admin = { ...env, LRG_SANDBOX_TOKEN: SANDBOX_TOKEN };
    const { follower, run } = await startRun(["--unit", unitId], admin);
    expect(run.business_unit_id).toBe(unitId);

    const listed = await lrg(["readiness", "list", "--json"], { env });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Run[]).map((each) => each.run_id)).toEqual([run.run_id]);
    const table = await lrg(["readiness", "list"], { env });
    expect(table.stdout.split("\n")[0]).toMatch(/^RUN\s+STATUS\s+VERDICT/);
    expect(table.stdout.split("\n")[1]).toContain(run.run_id);

    const shown = await lrg(["readiness", "show", run.run_id], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^readiness run ${run.run_id} on business unit ${unitId}: running`));
    expect(shown.stdout).toMatch(/CHECK\s+VERDICT\s+FOUND/);
    expect(shown.stdout).toMatch(/Each check still needs:/);
    const asJson = JSON.parse((await lrg(["readiness", "show", run.run_id, "--json"], { env })).stdout) as Run;
    expect(asJson.checks.map((check) => check.name)).toEqual(run.checks.map((check) => check.name));

    const other = await unitEnv();
    const hidden = await lrg(["readiness", "show", run.run_id], { env: other.env });
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toMatch(/^lrg: refused: 404 404-01: /);

    const cancelled = await lrg(["readiness", "cancel", run.run_id], { env });
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(/: cancelled, verdict not_exercised/);
    expect(await follower.exited).toBe(0);
  });
});

/** Ends a background lrg the test is done with (its run goes on until its deadline). */
function stop(follower: Follower): void {
  follower.child.kill();
}
