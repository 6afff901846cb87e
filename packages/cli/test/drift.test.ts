// lrg drift through the built lrg: a HAR of the client's real traffic to a real gateway reports nothing (exit 0); a
// corpus with planted defects reports each, classified right (exit 1), in text, --json and the three reports; a file
// that is not HAR is exit 2 with one line. The same corpus is fed to the pinned `redocly drift`: every exchange it finds
// something on, lrg drift finds something on too.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrap } from "@lrg/client";
import { operationFor } from "@lrg/spec";
import { IN_SERVICE_HOURS, searchOf } from "../../client/test/integration/gateway-support.js";
import { harOf, harRecorder, REPORT_FORMATS as DRIFT_REPORT_FORMATS, type HarEntry } from "@lrg/conformance/drift";
import { REPORT_FORMATS } from "../src/commands/drift.js";
import { lrg, submitThroughClient, useSuite, waitForNew } from "./support.js";

const suite = useSuite();
const REDOCLY = join(import.meta.dirname, "..", "..", "..", "spec", "node_modules", ".bin", "redocly");
const SPEC = join(import.meta.dirname, "..", "..", "..", "spec", "dist", "openapi.json");

interface Finding {
  exchange: number;
  operation: string | null;
  side: "registry" | "software";
  rule: string;
  pointer: string;
  message: string;
}
interface Report {
  exchanges: number;
  matched: number;
  findings: Finding[];
}

let dir: string;
let clean: HarEntry[];

/** The client's workflow traffic to the gateway: upload, submit, information, notifications, title enquiries. */
async function recordTraffic(): Promise<HarEntry[]> {
  await suite.gateway.setClock(IN_SERVICE_HOURS);
  const recorder = harRecorder();
  const client = suite.gateway.client(await suite.gateway.newBusinessUnit(), { fetch: recorder.fetch });
  const id = await submitThroughClient(client, "DRIFT-1");
  const notifications = await waitForNew(client, 2);
  await unwrap(client.GET("/v0/notifications", {}));
  await unwrap(client.GET("/v1/notifications", { params: { query: { limit: 1 } } }));
  await unwrap(
    client.POST("/v1/notifications/acknowledge", { body: { data: notifications.map((n) => n.notification_id) } }),
  );
  await unwrap(client.GET("/v1/notifications", {}));
  await unwrap(client.GET("/v0/applications/{id}/information", { params: { path: { id } } }));
  // A documented error answer is no finding either.
  const missing = await client.GET("/v0/applications/{id}/information", {
    params: { path: { id: "00000000-0000-4000-8000-000000000000" } },
  });
  expect(missing.response.status).toBe(404);
  // Without a client certificate (this gateway serves plain HTTP), the title enquiries answer their documented 403
  // BG40005 in the registry's envelope: an error answer judged like any other.
  const title = { params: { path: { title_number: "ZZ100001" } } };
  const answers = [
    await client.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", title),
    await client.GET("/s1/v1/titles/{title_number}/official-copies/availability", title),
    await client.POST("/api/v1/official-searches-of-whole", {
      body: { ...searchOf("ZZ100009"), message_id: `drift-${randomUUID()}` },
    }),
  ];
  expect(answers.map((answer) => answer.response.status)).toEqual([403, 403, 403]);
  return recorder.entries;
}

const clone = (entry: HarEntry): HarEntry => structuredClone(entry);

/** The first recorded entry of an operation (as the spec's paths match it) answered `status`. */
function entryOf(operationId: string, status: number, also: (entry: HarEntry) => boolean = () => true): HarEntry {
  const found = clean.find(
    (entry) =>
      entry.response.status === status &&
      operationFor(entry.request.method, new URL(entry.request.url).pathname)?.operationId === operationId &&
      also(entry),
  );
  if (found === undefined) throw new Error(`the recorded traffic has no ${operationId} answered ${status}`);
  return found;
}

function withBody(entry: HarEntry, body: unknown): HarEntry {
  const text = JSON.stringify(body);
  (entry.response["content"] as Record<string, unknown>)["text"] = text;
  (entry.response["content"] as Record<string, unknown>)["size"] = Buffer.byteLength(text);
  return entry;
}

const content = (entry: HarEntry) =>
  JSON.parse(String((entry.response["content"] as { text: string }).text)) as {
    data: Record<string, unknown>[];
  };

/** One entry per planted defect, in this order; then a body cut short that is no finding. */
function plantedDefects(): HarEntry[] {
  const page = entryOf("listNotificationsV1", 200, (entry) => content(entry).data.length > 0);
  const changedType = clone(page);
  const body = content(changedType);
  body.data[0]!["created_datetime"] = 20260301;
  withBody(changedType, body);

  const undocumentedStatus = clone(entryOf("getApplicationInformation", 200));
  undocumentedStatus.response.status = 418;

  const rateLimited = clone(page);
  rateLimited.response.status = 429;
  rateLimited.response.headers = [{ name: "content-type", value: "application/problem+json" }];
  withBody(rateLimited, {
    type: "https://land-registration-gateway.example/problems/429-01",
    title: "Too Many Requests",
    status: 429,
    detail: "rate limit exceeded",
    instance: "/v1/notifications",
    code: "429-01",
  });

  const unknownParameter = clone(page);
  const url = new URL(unknownParameter.request.url);
  url.searchParams.set("colour", "blue");
  unknownParameter.request.url = url.href;

  const undocumented = clone(page);
  undocumented.request.url = new URL("/v1/notification-feeds", page.request.url).href;

  const cutShort = clone(page);
  const text = String((cutShort.response["content"] as { text: string }).text);
  (cutShort.response["content"] as Record<string, unknown>)["text"] = text.slice(0, 40);
  (cutShort.response["content"] as Record<string, unknown>)["_lrg"] = { truncated: true };
  return [changedType, undocumentedStatus, rateLimited, unknownParameter, undocumented, cutShort];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lrg-drift-"));
  clean = await recordTraffic();
  writeFileSync(join(dir, "clean.har"), harOf(clean));
  writeFileSync(join(dir, "defects.har"), harOf(plantedDefects()));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lrg drift", () => {
  it("offers every report the drift module writes (the command names them without loading it)", () => {
    expect(REPORT_FORMATS).toEqual([...DRIFT_REPORT_FORMATS]);
  });

  it("reports nothing on the client's real traffic to the gateway (exit 0)", async () => {
    const run = await lrg(["drift", join(dir, "clean.har"), "--json"], { env: suite.home.env });
    const report = JSON.parse(run.stdout) as Report;
    expect(report.findings).toEqual([]);
    expect(report.exchanges).toBe(clean.length);
    expect(report.matched).toBe(clean.length);
    expect(run.code).toBe(0);
    const text = await lrg(["drift", join(dir, "clean.har")], { env: suite.home.env });
    expect(text.stdout).toMatch(/: 0 findings \(0 registry, 0 software\)\n$/);
    // The same against the bundled document given by file, and with the gateway's address as the server.
    const given = await lrg(
      ["drift", join(dir, "clean.har"), "--spec", SPEC, "--server", suite.gateway.url, "--json"],
      {
        env: suite.home.env,
      },
    );
    expect(JSON.parse(given.stdout)).toMatchObject({ findings: [], matched: clean.length });
    expect(given.code).toBe(0);
  });

  it("reports each planted defect with its side, rule and pointer (exit 1); a body cut short is no finding", async () => {
    const run = await lrg(["drift", join(dir, "defects.har"), "--json"], { env: suite.home.env });
    expect(run.code).toBe(1);
    const { findings } = JSON.parse(run.stdout) as Report;
    const at = (exchange: number) => findings.filter((f) => f.exchange === exchange);
    expect(at(0)).toContainEqual(
      expect.objectContaining({ side: "registry", rule: "answer-schema", operation: "listNotificationsV1" }),
    );
    expect(at(0).every((f) => f.side === "registry" && f.pointer.startsWith("/response/body/data/0"))).toBe(true);
    expect(at(1)).toEqual([
      expect.objectContaining({ side: "registry", rule: "undocumented-status", pointer: "/response/status" }),
    ]);
    expect(at(2)).toEqual([
      expect.objectContaining({ side: "registry", rule: "retry-after", pointer: "/response/headers/retry-after" }),
    ]);
    expect(at(3)).toEqual([
      expect.objectContaining({ side: "software", rule: "unknown-query-parameter", pointer: "/request/query/colour" }),
    ]);
    expect(at(4)).toEqual([
      expect.objectContaining({ side: "software", rule: "undocumented-endpoint", operation: null }),
    ]);
    expect(at(5)).toEqual([]);

    const text = await lrg(["drift", join(dir, "defects.har")], { env: suite.home.env });
    expect(text.stdout).toContain("#3 software listNotificationsV1 unknown-query-parameter /request/query/colour: ");
    expect(text.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^6 exchanges \(5 matched .*\): \d+ findings \(\d+ registry, 2 software\)$/,
    );
  });

  it("writes the JSON, JUnit and HTML reports", async () => {
    for (const format of ["json", "junit", "html"]) {
      const out = join(dir, `drift.${format}`);
      const run = await lrg(["drift", join(dir, "defects.har"), "--report", format, "--out", out], {
        env: suite.home.env,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`wrote ${out}`);
    }
    expect((JSON.parse(readFileSync(join(dir, "drift.json"), "utf8")) as Report).findings.length).toBeGreaterThan(4);
    const xml = readFileSync(join(dir, "drift.junit"), "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const suiteXml = (
      new XMLParser({ ignoreAttributes: false }).parse(xml) as {
        testsuites: { testsuite: { testcase: { "@_name": string; failure?: unknown }[] } };
      }
    ).testsuites.testsuite;
    expect(suiteXml.testcase.map((c) => c["@_name"]).sort()).toEqual(
      ["(undocumented)", "getApplicationInformation", "listNotificationsV1"].sort(),
    );
    const html = readFileSync(join(dir, "drift.html"), "utf8");
    expect(html).toContain("Content-Security-Policy");
    expect(html).toContain("/request/query/colour");
  });

  it("answers 2 with one line for a file that is not HAR, and for a usage mistake", async () => {
    writeFileSync(join(dir, "not.har"), '{"log": {}}');
    const run = await lrg(["drift", join(dir, "not.har")], { env: suite.home.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `lrg: usage: ${join(dir, "not.har")} cannot be read: it is not HAR: it has no log.entries\n`,
    );
    const missing = await lrg(["drift", join(dir, "absent.har")], { env: suite.home.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1);
    const alone = await lrg(["drift", join(dir, "clean.har"), "--report", "junit"], { env: suite.home.env });
    expect(alone.code).toBe(2);
  });

  it("finds something on every exchange the pinned redocly drift finds something on", async () => {
    const entries = { "clean.har": clean, "defects.har": plantedDefects() };
    for (const [file, recorded] of Object.entries(entries)) {
      const out = join(dir, `${file}.redocly.json`);
      const redocly = spawnSync(
        REDOCLY,
        ["drift", join(dir, file), "--api", SPEC, "--server", suite.gateway.url, "--format", "json", "-o", out],
        { encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      );
      expect(redocly.error).toBeUndefined();
      const theirs = (
        JSON.parse(readFileSync(out, "utf8")) as {
          problems: { exchangeIndex: number; ruleId: string; message: string }[];
        }
      ).problems;
      const run = await lrg(["drift", join(dir, file), "--json"], { env: suite.home.env });
      const ours = new Set((JSON.parse(run.stdout) as Report).findings.map((f) => f.exchange));
      // redocly judges bodies the recording does not hold whole: the upload's bytes left out (bodySize -1) as a body
      // not sent, an answer cut short and marked so (`_lrg`) as one that is not JSON. lrg drift takes both for unknown.
      const unknownBody = (problem: { exchangeIndex: number; message: string }) => {
        const entry = recorded[problem.exchangeIndex];
        if (/request body/i.test(problem.message)) return entry?.request["bodySize"] === -1;
        return (
          /response body/i.test(problem.message) &&
          (entry?.response["content"] as { _lrg?: unknown })._lrg !== undefined
        );
      };
      const missed = theirs.filter((problem) => !ours.has(problem.exchangeIndex) && !unknownBody(problem));
      expect(missed, `${file}: redocly found what lrg drift did not`).toEqual([]);
      if (file === "defects.har") expect(theirs.length).toBeGreaterThan(0);
    }
  });
});
