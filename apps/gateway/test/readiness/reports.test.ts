// The reports of a readiness run: the pure renderers over hand-made runs (every verdict, hostile text), then the
// operations over HTTP (JUnit that parses, one self-contained HTML page, the evidence bundle with every observation and
// a SHA-256 that verifies, the scope of getReadinessRun).
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { enums } from "@lrg/spec/constants";
import { evidenceMismatch } from "@lrg/spec/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlReport } from "../../src/readiness/reports/html.js";
import { junitReport } from "../../src/readiness/reports/junit.js";
import type { ReadinessCheckResult, ReadinessRun } from "../../src/readiness/reports/escape.js";
import { startGateway, type Credentials, type TestGateway } from "../support/gateway.js";

type Verdict = ReadinessCheckResult["verdict"];

const HOSTILE = `<script>alert("x")</script>&'\u0000`;

/** A run as the API answers it, one check per name with the verdicts given (names taken from the spec's enum). */
function handMade(verdicts: Verdict[], hostile = ""): ReadinessRun {
  return {
    run_id: "0b6f3c1e-7a2d-4e8f-9c1b-5d4e3f2a1b0c",
    business_unit_id: "3d5e7f90-1a2b-4c3d-8e4f-5a6b7c8d9e0f",
    status: verdicts.includes("running") ? "running" : "finished",
    verdict: verdicts.includes("running") ? "running" : verdicts.includes("failed") ? "failed" : "passed",
    started_at: "2026-03-02T10:00:00.000Z",
    deadline: "2026-03-02T10:10:00.000Z",
    ended_at: verdicts.includes("running") ? null : "2026-03-02T10:10:00.000Z",
    time_limit_seconds: 600,
    observations: { recorded: 1, dropped: 0 },
    checks: verdicts.map((verdict, index) => ({
      name: enums.ReadinessCheckName[index % enums.ReadinessCheckName.length]!,
      verdict,
      rule: `rule ${index} ${hostile}`,
      how_to_pass: `how ${index} ${hostile}`,
      instructions: verdict === "running" ? `act now ${index} ${hostile}` : null,
      evidence: {
        expected: `expected ${index} ${hostile}`,
        found: `found ${index} ${hostile}`,
        requests: [
          {
            sequence: 1,
            at: "2026-03-02T10:00:05.120Z",
            method: "GET",
            operation_id: "listNotificationsV1",
            query: { created_after: hostile || "2026-03-02T10:00:00.000Z" },
            status: 200,
            credentials_sent: true,
            acknowledged_ids: null,
            acknowledged_count: null,
            idempotency_key: hostile || null,
            path_parameters: {},
            retry_after: null,
            answer_code: null,
            answer_detail: null,
            submission_case: null,
          },
        ],
      },
    })),
  };
}

interface TestCase {
  "@_name": string;
  "@_classname": string;
  failure?: { "@_message": string };
  skipped?: { "@_message": string };
  "system-out"?: string;
}

/** The test cases of a JUnit document, after checking that it is well-formed XML. */
function testCases(xml: string): TestCase[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === "testcase",
    parseTagValue: false,
  }).parse(xml) as { testsuites: { testsuite: { testcase: TestCase[] } } };
  return parsed.testsuites.testsuite.testcase;
}

/** What a check's verdict must be in JUnit: a failure, a skip (not exercised, or still running), or neither. */
function expectJunitVerdict(testCase: TestCase, verdict: Verdict): void {
  expect(testCase.failure !== undefined, `${testCase["@_name"]}: failure`).toBe(verdict === "failed");
  expect(testCase.skipped !== undefined, `${testCase["@_name"]}: skipped`).toBe(
    verdict === "not_exercised" || verdict === "running",
  );
  if (verdict === "running") expect(testCase.skipped?.["@_message"]).toMatch(/^running/);
  if (verdict === "not_exercised") expect(testCase.skipped?.["@_message"]).toMatch(/^not exercised/);
}

/** Whether an HTML page loads or runs anything: scripts, links, sources, frames, objects, CSS urls or imports. */
const LOADS = /<script|<link|<iframe|<img|<object|<embed|\ssrc\s*=|\shref\s*=|url\(|@import/i;

describe("the report renderers", () => {
  const verdicts: Verdict[] = ["passed", "failed", "not_exercised", "running"];

  it.each(verdicts)("renders a %s check as its JUnit element", (verdict) => {
    const [testCase] = testCases(junitReport(handMade([verdict])));
    expect(testCase?.["@_classname"]).toBe("readiness");
    expectJunitVerdict(testCase!, verdict);
  });

  it("counts tests, failures and skips on the suite", () => {
    const xml = junitReport(handMade(["passed", "failed", "not_exercised", "failed"]));
    expect(xml).toMatch(/<testsuite name="[^"]*" tests="4" failures="2" errors="0" skipped="1" time="600.000"/);
  });

  it("escapes hostile text everywhere, and the JUnit still parses", () => {
    const run = handMade(verdicts, HOSTILE);
    const xml = junitReport(run);
    const cases = testCases(xml);
    expect(cases).toHaveLength(verdicts.length);
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain("\u0000");
    expect(cases[1]?.["system-out"]).toContain('<script>alert("x")</script>');

    const html = htmlReport(run);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("\u0000");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
  });

  it("makes one self-contained HTML page with each check's verdict, rule, fix and timeline", () => {
    const html = htmlReport(handMade(verdicts));
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html.match(/<html/g)).toHaveLength(1);
    expect(html).not.toMatch(LOADS);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    for (const [index, verdict] of verdicts.entries()) {
      const section = html.split('<section id="check-')[index + 1] ?? "";
      expect(section).toContain(`>${verdict.replace("_", " ")}</span>`);
      expect(section).toContain(`rule ${index}`);
      expect(section).toContain(`how ${index}`);
      expect(section).toContain("2026-03-02T10:00:05.120Z");
      expect(section).toContain("+5.120 s");
    }
  });

  it("opens with a summary table: each check in the run's order, its verdict and what was found on one line", () => {
    const run = handMade(verdicts);
    const long = run.checks[1]!;
    long.evidence.found = `${"word ".repeat(60)}\nand more`;
    const html = htmlReport(run);
    const body = html.slice(html.indexOf("<body>"));
    // Right after the heading, before the run's details and the first card.
    expect(body).toMatch(/^<body>\n<h1>[^\n]*<\/h1>\n<table class="summary">/);
    const table = body.slice(body.indexOf('<table class="summary">'), body.indexOf("</table>"));
    expect(body.indexOf("</table>")).toBeLessThan(body.indexOf("<dl>"));
    expect(table).toContain("<th>Check</th><th>Verdict</th><th>Found</th>");
    const rows = table.split("<tr>").slice(2);
    expect(rows).toHaveLength(verdicts.length);
    for (const [index, verdict] of verdicts.entries()) {
      const row = rows[index] ?? "";
      expect(row).toContain(`<code>${run.checks[index]!.name}</code>`);
      expect(row).toContain(`>${verdict.replace("_", " ")}</span>`);
      if (index !== 1) expect(row).toContain(`<td>found ${index}</td>`);
    }
    // A long finding is cut to one line; its card shows it whole.
    expect(rows[1]).toMatch(/(word ){20,}wor?d?…<\/td>/);
    expect(rows[1]).not.toContain("\n");
    expect(html).toContain("and more");
  });

  it("escapes hostile text in the summary table", () => {
    const html = htmlReport(handMade(verdicts, HOSTILE));
    const table = html.slice(html.indexOf('<table class="summary">'), html.indexOf("</table>"));
    expect(table).toContain("found 0 &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
    expect(table).not.toContain("<script");
  });
});

/** A business unit the sandbox created, with its own token of the control plane. */
interface Unit extends Credentials {
  business_unit_id: string;
  sandbox_token: string;
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw.stop();
});

async function newUnit(): Promise<Unit> {
  const unit = (await gw.newBusinessUnit()) as Unit;
  expect((await gw.control(unit.sandbox_token, "PUT", "/sandbox/v1/settings", { duplicate_rate: 0 })).status).toBe(200);
  return unit;
}

async function startRun(unit: Unit): Promise<ReadinessRun> {
  const answer = await gw.control(unit.sandbox_token, "POST", "/sandbox/v1/readiness-runs", { time_limit_seconds: 60 });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as ReadinessRun;
}

async function report(unit: Unit, runId: string, kind: "junit" | "html"): Promise<string> {
  const answer = await gw.control(unit.sandbox_token, "GET", `/sandbox/v1/readiness-runs/${runId}/${kind}`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toBe(
    kind === "junit" ? "application/xml; charset=utf-8" : "text/html; charset=utf-8",
  );
  return answer.body as string;
}

describe("the report operations", () => {
  it("answer a running run as skipped, running checks", async () => {
    const unit = await newUnit();
    const run = await startRun(unit);
    const cases = testCases(await report(unit, run.run_id, "junit"));
    expect(cases.map((c) => c["@_name"])).toEqual(run.checks.map((c) => c.name));
    for (const testCase of cases) expectJunitVerdict(testCase, "running");
  });

  it("answer an ended run: one test case per check with its verdict's element; one HTML page; hostile text escaped", async () => {
    const unit = await newUnit();
    const run = await startRun(unit);
    // The software lists once, with a hostile Idempotency-Key, and acknowledges nothing.
    const listed = await gw.call("GET", "/v1/notifications", {
      as: unit,
      headers: { "idempotency-key": HOSTILE.slice(0, -1) },
    });
    // Answered 503 when the run holds its first list requests (the faults-and-cadence check).
    expect([200, 503]).toContain(listed.status);
    expect((await gw.control(unit.sandbox_token, "POST", "/sandbox/v1/clock/advance", { seconds: 61 })).status).toBe(
      200,
    );
    const ended = (await gw.control(unit.sandbox_token, "GET", `/sandbox/v1/readiness-runs/${run.run_id}`))
      .body as ReadinessRun;
    expect(ended.status).toBe("finished");

    const cases = testCases(await report(unit, run.run_id, "junit"));
    expect(cases.map((c) => c["@_name"])).toEqual(ended.checks.map((c) => c.name));
    for (const [index, check] of ended.checks.entries()) expectJunitVerdict(cases[index]!, check.verdict);
    // Software that lists once and acknowledges nothing fails checks: their failures are shown.
    expect(ended.checks.map((c) => c.verdict)).toContain("failed");

    const html = await report(unit, run.run_id, "html");
    expect(html.match(/<html/g)).toHaveLength(1);
    expect(html).not.toMatch(LOADS);
    for (const check of ended.checks) {
      const section = html.slice(html.indexOf(`<section id="check-${check.name}"`));
      expect(section).toContain(`>${check.verdict.replace("_", " ")}</span>`);
      expect(section).toContain(check.rule.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/"/g, "&quot;"));
    }
    // The hostile key reached the evidence, and the page shows it as text.
    expect(ended.checks.some((c) => c.evidence.requests.some((r) => r.idempotency_key?.includes("<script>")))).toBe(
      true,
    );
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;");
  });

  it("answer a run cancelled before the software did anything: its checks not exercised, skipped", async () => {
    const unit = await newUnit();
    const run = await startRun(unit);
    const cancelled = await gw.control(unit.sandbox_token, "POST", `/sandbox/v1/readiness-runs/${run.run_id}/cancel`);
    expect((cancelled.body as ReadinessRun).checks.map((c) => c.verdict)).toContain("not_exercised");
    const cases = testCases(await report(unit, run.run_id, "junit"));
    for (const [index, check] of (cancelled.body as ReadinessRun).checks.entries())
      expectJunitVerdict(cases[index]!, check.verdict);
    expect(await report(unit, run.run_id, "html")).toContain(">not exercised</span>");
  });

  it("answer another unit's run as not found (404-01), as getReadinessRun does", async () => {
    const [owner, other] = [await newUnit(), await newUnit()];
    const run = await startRun(owner);
    for (const kind of ["junit", "html"]) {
      const answer = await gw.control(other.sandbox_token, "GET", `/sandbox/v1/readiness-runs/${run.run_id}/${kind}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: "404-01" });
      const admin = await gw.sandbox("GET", `/sandbox/v1/readiness-runs/${run.run_id}/${kind}`);
      expect(admin.status).toBe(200);
    }
  });
});

describe("the evidence operation", () => {
  type Evidence = {
    sha256: string;
    run: ReadinessRun;
    observations: ReadinessRun["checks"][number]["evidence"]["requests"];
  };

  it("answers the run with every observation (not only a check's first 100), and a SHA-256 that verifies", async () => {
    const unit = await newUnit();
    const started = await gw.control(unit.sandbox_token, "POST", "/sandbox/v1/readiness-runs", {
      checks: ["paging"],
      time_limit_seconds: 60,
    });
    expect(started.status).toBe(201);
    const run = started.body as ReadinessRun;
    // 120 list requests: all bear on paging, whose evidence holds the first 100.
    for (let request = 0; request < 120; request++)
      await gw.call("GET", `/v1/notifications?limit=1&created_after=2020-01-01T00:00:0${request % 10}Z`, { as: unit });
    expect((await gw.control(unit.sandbox_token, "POST", "/sandbox/v1/clock/advance", { seconds: 61 })).status).toBe(
      200,
    );
    const ended = (await gw.control(unit.sandbox_token, "GET", `/sandbox/v1/readiness-runs/${run.run_id}`))
      .body as ReadinessRun;
    expect(ended.status).toBe("finished");

    const answer = await gw.control(unit.sandbox_token, "GET", `/sandbox/v1/readiness-runs/${run.run_id}/evidence`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const bundle = answer.body as Evidence;
    expect(bundle.run).toEqual(ended);
    expect(bundle.observations).toHaveLength(120);
    expect(bundle.run.observations.recorded).toBe(120);
    expect(bundle.observations.map((observation) => observation.sequence)).toEqual(
      Array.from({ length: 120 }, (_, index) => index + 1),
    );
    expect(new Set(bundle.observations.map((observation) => observation.query["created_after"])).size).toBe(10);
    // The check's evidence is the first 100 of them, in the same shape.
    const paging = bundle.run.checks.find((check) => check.name === "paging");
    expect(paging?.evidence.requests).toHaveLength(100);
    expect(paging?.evidence.requests).toEqual(bundle.observations.slice(0, 100));

    expect(Object.keys(bundle)[0]).toBe("sha256");
    expect(evidenceMismatch(bundle)).toBeNull();
    const changed = structuredClone(bundle);
    changed.observations[119]!.status = changed.observations[119]!.status === 200 ? 201 : 200;
    expect(evidenceMismatch(changed)).toMatch(/not the/);
  });

  it("answers another unit's run as not found (404-01), the admin token any run", async () => {
    const [owner, other] = [await newUnit(), await newUnit()];
    const run = await startRun(owner);
    const path = `/sandbox/v1/readiness-runs/${run.run_id}/evidence`;
    const hidden = await gw.control(other.sandbox_token, "GET", path);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ code: "404-01" });
    const admin = await gw.sandbox("GET", path);
    expect(admin.status).toBe(200);
    // A running run: a snapshot, its verdicts judged from the observations it holds.
    expect((admin.body as Evidence).run.status).toBe("running");
    expect(evidenceMismatch(admin.body)).toBeNull();
  });
});
