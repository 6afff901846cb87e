// lrg readiness ... through the built lrg against a real gateway: a run followed to its verdict with the exit code
// that gates a CI job (0, 1, 2), the report files written, --json, show, list and cancel; the expected failures of
// --expect-failures; the evidence bundle saved and verified.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { createSandboxClient, unwrap, type SandboxComponents } from "@lrg/client";
import { follow, lrg, SANDBOX_TOKEN, submission, useSuite, writePdf, type Follower } from "./support.js";

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

  it("passes the upload and submission checks with lrg applications submit as the software: a new address for the expired one, the lost answer retried with its key", async () => {
    const { env, token } = await unitEnv();
    const { follower } = await startRun(
      ["--checks", "checksum-and-length,expired-upload,lost-answer", "--time-limit", "1m"],
      env,
    );
    // A submission naming its document by a local path: lrg uploads it (the run's first address is issued expired),
    // then submits (the run's first submission, whose answer the run drops).
    writePdf(suite.home.dir, "readiness-submit.pdf", "readiness-submit");
    const file = join(suite.home.dir, "readiness-submit.json");
    const body = submission("x", "CLI-READINESS");
    writeFileSync(
      file,
      JSON.stringify({ ...body, documents: { transfer: { type: "TR1", file: "readiness-submit.pdf" } } }),
    );
    const submitted = await lrg(["applications", "submit", file, "--json"], { env });
    expect(submitted.code, submitted.stderr).toBe(0);
    const { application_request_id: id } = JSON.parse(submitted.stdout) as { application_request_id: string };

    await unwrap(
      createSandboxClient({ baseUrl: suite.gateway.url, token }).POST("/sandbox/v1/clock/advance", {
        body: { seconds: 61 },
      }),
    );
    expect(await follower.exited).toBe(0);
    const checks = ended(follower).run.checks;
    expect(checks.map((check) => [check.name, check.verdict])).toEqual([
      ["checksum-and-length", "passed"],
      ["lost-answer", "passed"],
      ["expired-upload", "passed"],
    ]);
    // The application whose answer was lost is the one lrg printed: the retry under its key answered it, not a second.
    expect(checks.find((check) => check.name === "lost-answer")?.evidence.found).toContain(
      `Application ${id} was stored and its answer lost`,
    );
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

/** A test case of the JUnit report, as fast-xml-parser reads it. */
interface TestCase {
  "@_name": string;
  failure?: { "@_message": string; "@_type": string };
  skipped?: { "@_message": string; "@_type"?: string };
}

/** The suite's counts and its test cases, by name, after checking that the document is well-formed XML. */
function junitOf(file: string): { failures: string; skipped: string; cases: Map<string, TestCase> } {
  const xml = readFileSync(file, "utf8");
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "testcase" }).parse(xml) as {
    testsuites: { testsuite: { "@_failures": string; "@_skipped": string; testcase: TestCase[] } };
  };
  const suite = parsed.testsuites.testsuite;
  return {
    failures: String(suite["@_failures"]),
    skipped: String(suite["@_skipped"]),
    cases: new Map(suite.testcase.map((testCase) => [testCase["@_name"], testCase])),
  };
}

let files = 0;
/** A file in lrg's home with this text, under a name of its own. */
function fileWith(name: string, text: string): string {
  const path = join(suite.home.dir, `${++files}-${name}`);
  writeFileSync(path, text);
  return path;
}

/**
 * `lrg readiness run --checks ... --expect-failures FILE` on a new unit, whose software lists its notifications once
 * (lrg waits out the two 503s of faults-and-cadence, which passes) and acknowledges none (duplicates and paging fail);
 * then the unit's clock passes the deadline. Answers the exit code, stdout and the JUnit report.
 */
async function runExpecting(
  checks: string[],
  expected: Record<string, string>,
): Promise<{ code: number | null; output: string; expectedFile: string; junit: ReturnType<typeof junitOf> }> {
  const { env, token } = await unitEnv();
  const expectedFile = fileWith("expected.json", JSON.stringify({ checks: expected }));
  const junit = join(suite.home.dir, `${++files}-readiness.xml`);
  const follower = follow(
    ["readiness", "run", "--checks", checks.join(","), "--time-limit", "1m", "--interval", "100ms"].concat([
      "--expect-failures",
      expectedFile,
      "--junit",
      junit,
    ]),
    env,
  );
  await follower.waitForLines(1);
  expect((await lrg(["notifications", "list", "--json"], { env })).code).toBe(0);
  await unwrap(
    createSandboxClient({ baseUrl: suite.gateway.url, token }).POST("/sandbox/v1/clock/advance", {
      body: { seconds: 61 },
    }),
  );
  const code = await follower.exited;
  return { code, output: follower.lines.join("\n"), expectedFile, junit: junitOf(junit) };
}

describe("readiness run --expect-failures", () => {
  const REASON = 'Our consumer acknowledges duplicates in a nightly job (ticket 42) & <it\'s> "accepted"';

  it("exits 0 when exactly the listed checks failed, and marks them expected, with the reason, in the summary and JUnit", async () => {
    const { code, output, expectedFile, junit } = await runExpecting(["duplicates", "faults-and-cadence"], {
      duplicates: REASON,
    });
    expect(output).toMatch(/^duplicates\s+failed \(expected\)\s+Neither id is acknowledged/m);
    expect(output).toMatch(/^faults-and-cadence\s+passed\s/m);
    expect(output).toContain(`duplicates: expected failure (${expectedFile}): ${REASON}`);
    expect(output).not.toContain("duplicates: how to pass");
    expect(code).toBe(0);
    // JUnit: the expected failure is skipped with its reason (as pytest reports an xfail), no longer a failure.
    expect(junit.failures).toBe("0");
    expect(junit.skipped).toBe("1");
    const duplicates = junit.cases.get("duplicates");
    expect(duplicates?.failure).toBeUndefined();
    expect(duplicates?.skipped?.["@_type"]).toBe("expected_failure");
    expect(duplicates?.skipped?.["@_message"]).toBe(`expected failure (${expectedFile}): ${REASON}`);
    expect(junit.cases.get("faults-and-cadence")?.failure).toBeUndefined();
  });

  it("exits 1 when a check not listed failed too", async () => {
    const { code, output, junit } = await runExpecting(["duplicates", "paging"], { duplicates: REASON });
    expect(output).toMatch(/^paging\s+failed\s+0 of 250 acknowledged/m);
    expect(output).toMatch(/^paging: how to pass: /m);
    expect(output).toContain("duplicates: expected failure (");
    expect(code).toBe(1);
    expect(junit.failures).toBe("1");
    expect(junit.cases.get("paging")?.failure?.["@_type"]).toBe("failed");
    expect(junit.cases.get("duplicates")?.skipped?.["@_type"]).toBe("expected_failure");
  });

  it("exits 1 when a listed check passed, and says to remove it from the file", async () => {
    const { code, output, expectedFile, junit } = await runExpecting(["duplicates", "faults-and-cadence"], {
      duplicates: REASON,
      "faults-and-cadence": "we thought our retries were too eager",
    });
    expect(output).toContain(`faults-and-cadence: expected to fail but passed: remove it from ${expectedFile}`);
    expect(code).toBe(1);
    expect(junit.failures).toBe("1");
    const passed = junit.cases.get("faults-and-cadence")?.failure;
    expect(passed?.["@_type"]).toBe("expected_failure_did_not_fail");
    expect(passed?.["@_message"]).toContain(`expected to fail but passed: remove it from ${expectedFile}`);
  });

  it.each([
    ["not JSON", "{checks:", /is not JSON/],
    ["without checks", JSON.stringify({ duplicates: "x" }), /must hold \{ "checks"/],
    ["with another member", JSON.stringify({ checks: {}, check: {} }), /unknown member "check"/],
    [
      "naming an unknown check",
      JSON.stringify({ checks: { telepathy: "x" } }),
      /checks\.telepathy is not a readiness check/,
    ],
    ["without a reason", JSON.stringify({ checks: { duplicates: " " } }), /checks\.duplicates must give the reason/],
    [
      "naming a check the run does not examine",
      JSON.stringify({ checks: { paging: "x" } }),
      /checks\.paging is not among --checks/,
    ],
  ])("refuses a file %s with exit 2, before the run starts", async (_name, text, message) => {
    const { env } = await unitEnv();
    const file = fileWith("expected.json", text);
    const refused = await lrg(["readiness", "run", "--checks", "duplicates", "--expect-failures", file], { env });
    expect(refused.stderr).toMatch(message);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(JSON.parse((await lrg(["readiness", "list", "--json"], { env })).stdout)).toEqual([]);
  });
});

describe("readiness evidence and verify", () => {
  type Evidence = SandboxComponents["schemas"]["ReadinessEvidence"];

  it("saves every observation (more than a check's 100) with a SHA-256 that verifies; a changed byte does not", async () => {
    const { env, token } = await unitEnv();
    const { follower, run } = await startRun(["--checks", "paging", "--time-limit", "1m"], env);
    // The software lists 120 times: every request bears on paging, whose evidence keeps the first 100.
    const basic = `Basic ${Buffer.from(`${env["LRG_USERNAME"]}:${env["LRG_PASSWORD"]}`).toString("base64")}`;
    for (let request = 0; request < 120; request++) {
      const answer = await fetch(`${suite.gateway.url}/v1/notifications?limit=1`, {
        headers: { authorization: basic },
      });
      await answer.arrayBuffer();
    }
    await unwrap(
      createSandboxClient({ baseUrl: suite.gateway.url, token }).POST("/sandbox/v1/clock/advance", {
        body: { seconds: 61 },
      }),
    );
    expect(await follower.exited).toBe(1);

    const file = join(suite.home.dir, "evidence.json");
    const saved = await lrg(["readiness", "evidence", run.run_id, "-o", file], { env });
    expect(saved.stderr).toMatch(
      new RegExp(
        `^saved the evidence of run ${run.run_id} \\(finished, verdict failed; 120 observations; sha256 [0-9a-f]{64}\\) to `,
      ),
    );
    expect(saved.code).toBe(0);
    const text = readFileSync(file, "utf8");
    const bundle = JSON.parse(text) as Evidence;
    expect(bundle.observations.map((observation) => observation.sequence)).toEqual(
      Array.from({ length: 120 }, (_, index) => index + 1),
    );
    expect(bundle.run.checks[0]?.evidence.requests).toHaveLength(100);
    const shown = JSON.parse((await lrg(["readiness", "show", run.run_id, "--json"], { env })).stdout) as Run;
    expect(bundle.run).toEqual(shown);

    const verified = await lrg(["readiness", "verify", file], { env });
    expect(verified.stdout).toBe(
      `${file} verifies: run ${run.run_id} on business unit ${run.business_unit_id}, finished, verdict failed; 120 observations; sha256 ${bundle.sha256}\n`,
    );
    expect(verified.code).toBe(0);
    // Laid out again (jq . would do the same), it still verifies: the hash covers values, not whitespace.
    const pretty = fileWith("evidence-pretty.json", JSON.stringify(bundle, null, 2));
    expect((await lrg(["readiness", "verify", pretty], { env })).code).toBe(0);

    // One byte changed: in the run's id, in the last observation's operation, in the hash itself.
    const last = text.lastIndexOf("listNotificationsV1");
    for (const [what, at] of [
      ["the run's id", text.indexOf(run.run_id.slice(0, 8))],
      ["the last observation", last + "list".length],
      ["the hash", text.indexOf(bundle.sha256) + 10],
    ] as const) {
      const bytes = Buffer.from(text, "utf8");
      bytes[at] = bytes[at] === 0x61 ? 0x62 : 0x61;
      const changed = fileWith("evidence-changed.json", bytes.toString("utf8"));
      const refused = await lrg(["readiness", "verify", changed], { env });
      expect(refused.code, what).toBe(1);
      expect(refused.stderr, what).toMatch(
        new RegExp(`^lrg: ${changed} does not verify: its content has the SHA-256 [0-9a-f]{64}, not the `),
      );
      expect(refused.stdout, what).toBe("");
    }
    const missing = await lrg(["readiness", "verify", join(suite.home.dir, "no-such-evidence.json")], { env });
    expect(missing.code).toBe(2);
  });

  it("writes the bundle with run --evidence, and another unit's run is not found", async () => {
    const { env } = await unitEnv();
    const file = join(suite.home.dir, "run-evidence.json");
    const { follower, run } = await startRun(["--checks", "duplicates", "--evidence", file], env);
    expect((await lrg(["readiness", "cancel", run.run_id], { env })).code).toBe(0);
    expect(await follower.exited).toBe(0);
    const verified = JSON.parse((await lrg(["readiness", "verify", file, "--json"], { env })).stdout) as {
      verified: boolean;
      run_id: string;
      status: string;
    };
    expect(verified).toMatchObject({ verified: true, run_id: run.run_id, status: "cancelled" });

    const other = await unitEnv();
    const hidden = await lrg(["readiness", "evidence", run.run_id, "-o", join(suite.home.dir, "hidden.json")], {
      env: other.env,
    });
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toMatch(/^lrg: refused: 404 404-01: /);
  });
});
