// lrg readiness judge through the built lrg: a recording that meets no occasion is not exercised, with the same table
// and reports as a run; the help and the README say how the checks are judged; an unreadable file is exit 2. That a recording of a
// live run is judged as the run was, check by check, is ./readiness-agreement.test.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandboxClient, unwrap } from "@lrg/client";
import { CHECK_NAMES, offlineOccasion } from "@lrg/gateway/readiness-judges";
import { interrupted, listening, lrg, useSuite } from "./support.js";

const suite = useSuite();

interface Unit {
  business_unit_id: string;
  username: string;
  password: string;
  sandbox_token: string;
}

/** A new business unit whose title look-ups need no client certificate, delivering no duplicates of its own. */
async function newUnit(): Promise<Unit> {
  const unit = await unwrap(suite.gateway.sandbox.POST("/sandbox/v1/business-units", { body: { name: "Judged" } }));
  const sandbox = createSandboxClient({ baseUrl: suite.gateway.url, token: unit.sandbox_token });
  await unwrap(sandbox.PUT("/sandbox/v1/settings", { body: { require_client_certificate: false, duplicate_rate: 0 } }));
  return unit;
}

describe("lrg readiness judge", () => {
  it("judges a recording that met no occasion not exercised, prints the table and writes the reports", async () => {
    const unit = await newUnit();
    const out = join(suite.home.dir, "quiet.har");
    const { address: proxy, process: recorder } = await listening(
      ["record", "--upstream", suite.gateway.url, "--out", out],
      suite.home.env,
    );
    const authorization = `Basic ${Buffer.from(`${unit.username}:${unit.password}`).toString("base64")}`;
    expect((await fetch(`${proxy}/v1/notifications`, { headers: { authorization } })).status).toBe(200);
    expect(await interrupted(recorder)).toBe(0);

    const junit = join(suite.home.dir, "quiet.xml");
    const html = join(suite.home.dir, "quiet.html");
    const judged = await lrg(["readiness", "judge", out, "--junit", junit, "--html", html], { env: suite.home.env });
    expect(judged.code, judged.stderr).toBe(0);
    expect(judged.stdout).toMatch(/judged: verdict not_exercised; 1 exchanges/);
    const expected: [string, string][] = [
      ["duplicates", "No list answer of the recording holds one event delivered twice."],
      ["rate-limits", "The software met no 429 during the run."],
      ["faults-and-cadence", "The software met no 503 of the notification list during the run."],
      ["checksum-and-length", "The software made no upload PUT during the run."],
      ["paging", "No list answer of the recording held a full page: nothing to read past."],
      ["lost-answer", "No submission of the recording went unanswered."],
      ["deferred-official-search", "No official search of the recording was deferred (202)."],
    ];
    for (const [check, found] of expected)
      expect(judged.stdout).toMatch(
        new RegExp(`^${check} +not_exercised +${found.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m"),
      );
    expect(judged.stderr).toContain(`lrg: wrote ${junit}`);
    expect(judged.stderr).toContain(`lrg: wrote ${html}`);
  });

  it("names in the README each check's occasion on a recording, as its judge gives it", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8").replace(/ +/g, " ");
    for (const name of CHECK_NAMES) expect(readme).toContain(`| \`${name}\` | ${offlineOccasion(name)} |`);
  });

  it("says in its help that every check is judged offline", async () => {
    const help = await lrg(["readiness", "judge", "--help"], { env: suite.home.env });
    expect(help.stdout.replace(/\s+/g, " ")).toContain("Every check is judged offline, on the occasions");
  });

  it("exits 2 for a file that is not HAR", async () => {
    const file = join(suite.home.dir, "not.har");
    writeFileSync(file, "{ not json");
    const judged = await lrg(["readiness", "judge", file], { env: suite.home.env });
    expect(judged.code).toBe(2);
    expect(judged.stderr).toMatch(/cannot be read/);
  });
});
