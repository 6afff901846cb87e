// The conformance suite's traffic recorded through a real `lrg record` in front of a started gateway, then judged by
// `lrg drift`: the registry's side holds no finding at all (the gateway answered everything as the spec says), and
// every finding on the software's side is one of the suite's deliberate departures: a bad request, answered 4xx, or
// an early poll of a deferred search, answered 202 (the suite polls before `expected_response_at` to see the pending
// answer). Waits the suite makes by moving the sandbox's clock (a 429's Retry-After) are no finding.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationById } from "@lrg/spec";
import { interrupted, listening, lrg, makeHome, SANDBOX_TOKEN, startGateway, type RunningGateway } from "./support.js";

const CONFORMANCE = join(import.meta.dirname, "..", "..", "conformance", "bin", "lrg-conformance.js");

interface Finding {
  exchange: number;
  operation: string | null;
  side: "registry" | "software";
  rule: string;
  message: string;
}

let gateway: RunningGateway;
let dir: string;

beforeAll(async () => {
  gateway = await startGateway();
  dir = mkdtempSync(join(tmpdir(), "lrg-conformance-recorded-"));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await gateway?.stop();
});

/** Whether a finding is of an operation that polls a deferred search (its path names the search's `message_id`). */
const isPoll = (finding: Finding) =>
  finding.operation !== null &&
  operationById(finding.operation).parameters.some((p) => p.in === "path" && p.name === "message_id");

describe("the conformance suite recorded through lrg record", () => {
  it("holds no registry finding, and no software finding but the suite's deliberate ones", async () => {
    const home = makeHome();
    const har = join(dir, "conformance.har");
    try {
      const { address, process: recorder } = await listening(
        ["record", "--upstream", gateway.url, "--out", har],
        home.env,
      );
      // Every property once, through the proxy. Without --exclusive the two that change registry-wide state (the day
      // list, the failed-login budget of this address, which waits out its window) are skipped: the other 56 cover
      // every operation of both documents.
      const suite = await promisify(execFile)(
        process.execPath,
        [CONFORMANCE, "--target", "gateway", "--url", address, "--runs", "1"],
        { env: { ...home.env, LRG_SANDBOX_TOKEN: SANDBOX_TOKEN }, maxBuffer: 16 << 20 },
      ).catch((error: { code: number; stdout: string }) => error);
      expect(await interrupted(recorder), recorder.stderr.join("\n")).toBe(0);
      expect(suite.stdout).toMatch(/\d+ passed, 0 failed/);

      const judged = await lrg(["drift", har, "--json"], { env: home.env });
      expect(judged.code, judged.stderr).toBe(1);
      const report = JSON.parse(judged.stdout) as { exchanges: number; matched: number; findings: Finding[] };
      const entries = (
        JSON.parse(readFileSync(har, "utf8")) as { log: { entries: { response: { status: number } }[] } }
      ).log.entries;
      const statusOf = (finding: Finding) => entries[finding.exchange]!.response.status;
      expect(report.exchanges).toBeGreaterThan(900);

      expect(report.findings.filter((finding) => finding.side === "registry")).toEqual([]);
      const software = report.findings.filter((finding) => finding.side === "software");
      const deliberate = (finding: Finding) =>
        (statusOf(finding) >= 400 && statusOf(finding) < 500) ||
        (finding.rule === "retry-too-soon" && isPoll(finding) && statusOf(finding) === 202);
      expect(software.filter((finding) => !deliberate(finding)).map((f) => ({ ...f, status: statusOf(f) }))).toEqual(
        [],
      );
      expect(software.filter((finding) => statusOf(finding) >= 400).length).toBeGreaterThan(0);
      // The suite waits out a 429's Retry-After by moving the sandbox's clock: the recording holds such a wait.
      expect(entries.some((entry) => entry.response.status === 429)).toBe(true);
    } finally {
      home.remove();
    }
  });
});
