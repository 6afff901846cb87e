// lrg readiness judge through the built lrg: a correct and a naive consumer recorded through `lrg record` in front of a
// started gateway while a live readiness run examines them; the recording judged offline gives, for each check judged
// offline, the live run's verdict. A recording that meets no occasion is not exercised; an unreadable file is exit 2.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import {
  createGatewayClient,
  createSandboxClient,
  groupDuplicates,
  unwrap,
  type NotificationV1,
  type SandboxComponents,
} from "@lrg/client";
import { OFFLINE_CHECKS } from "@lrg/gateway/readiness-judges";
import { follow, lrg, smallPdf, useSuite, type Follower } from "./support.js";

type Run = SandboxComponents["schemas"]["ReadinessRun"];
type CheckName = SandboxComponents["schemas"]["ReadinessCheckName"];

const suite = useSuite();

/** The checks of the live runs: each judged offline, each with an occasion the consumers meet. */
const CHECKS: CheckName[] = ["duplicates", "checksum-and-length", "downloads", "rate-limits", "faults-and-cadence"];

/** Starts `lrg record` in front of the gateway; answers its address once it printed it. */
async function record(out: string): Promise<{ proxy: string; recorder: Follower }> {
  const recorder = follow(["record", "--upstream", suite.gateway.url, "--out", out], suite.home.env);
  const [address] = await recorder.waitForLines(1);
  expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  return { proxy: address!, recorder };
}

async function stop(recorder: Follower): Promise<void> {
  recorder.child.kill("SIGINT");
  expect(await recorder.exited).toBe(0);
}

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

/**
 * The unit's software, through the recorder at `proxy`: a title look-up (the run answers it 429), the notification list
 * (the run answers it 503 twice), an acknowledgement of what was listed, the despatched documents downloaded, and an
 * upload. Correct, it waits each Retry-After, acknowledges every id of an event delivered twice, sends no credentials
 * to a download address and sends the base64 checksum; naive, it retries at once, acknowledges one id per event, lets
 * fetch follow the 302 with the Authorization header and sends the hex checksum.
 */
async function consume(proxy: string, unit: Unit, naive: boolean): Promise<void> {
  const authorization = `Basic ${Buffer.from(`${unit.username}:${unit.password}`).toString("base64")}`;
  const get = (path: string) => fetch(`${proxy}${path}`, { headers: { authorization } });
  const waitRetryAfter = async (answer: Response) => {
    if (!naive) await sleep(Number(answer.headers.get("retry-after")) * 1000);
  };

  const limited = await get("/s1/v1/titles/ZZ100001/official-copies/availability");
  expect(limited.status).toBe(429);
  await waitRetryAfter(limited);
  expect((await get("/s1/v1/titles/ZZ100001/official-copies/availability")).status).toBe(200);

  let listed: NotificationV1[] | undefined;
  while (listed === undefined) {
    const answer = await get("/v1/notifications?limit=100");
    if (answer.status === 503) await waitRetryAfter(answer);
    else {
      expect(answer.status).toBe(200);
      listed = ((await answer.json()) as { data: NotificationV1[] }).data;
    }
  }
  const events = groupDuplicates(listed);
  expect(events.some((event) => event.notifications.length === 2)).toBe(true);
  const ids = events
    .flatMap((event) => (naive ? [event.notification] : event.notifications))
    .map((n) => n.notification_id);
  const acknowledged = await fetch(`${proxy}/v1/notifications/acknowledge`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify({ data: ids }),
  });
  expect(acknowledged.status).toBe(200);

  // Each despatched document: correct, the 302 followed by a fresh request without credentials; naive, by fetch itself,
  // which keeps the Authorization header on the same origin.
  for (const notification of listed)
    if (notification.notification_type === "application.correspondence-despatched")
      for (const { download_id: id } of notification.payload.data.documents) {
        const asked = await fetch(`${proxy}/v1/documents/${id}`, {
          headers: { authorization },
          redirect: naive ? "follow" : "manual",
        });
        await asked.arrayBuffer();
        if (naive) continue;
        expect(asked.status).toBe(302);
        const fetched = await fetch(asked.headers.get("location")!);
        expect(
          Buffer.from(await fetched.arrayBuffer())
            .subarray(0, 5)
            .toString("latin1"),
        ).toBe("%PDF-");
      }

  // The naive uploader sends the hex digest as X-Provider-Checksum-Sha256.
  const bytes = smallPdf("JUDGED");
  const hex = createHash("sha256").update(bytes).digest("hex");
  const client = createGatewayClient({
    baseUrl: proxy,
    username: unit.username,
    password: unit.password,
    retry: false,
    fetch: (request) => {
      if (naive && request.method === "PUT") request.headers.set("x-provider-checksum-sha256", hex);
      return globalThis.fetch(request);
    },
  });
  const upload = client.uploadDocument(bytes, { documentType: "TR1" });
  if (naive) await expect(upload).rejects.toThrow();
  else await upload;
}

/** Moves the unit's clock past the run's deadline; answers the finished run. */
async function finish(unit: Unit, runId: string): Promise<Run> {
  const sandbox = createSandboxClient({ baseUrl: suite.gateway.url, token: unit.sandbox_token });
  await unwrap(sandbox.POST("/sandbox/v1/clock/advance", { body: { seconds: 61 } }));
  const read = () =>
    unwrap(sandbox.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: runId } } }));
  await expect.poll(async () => (await read()).status, { timeout: 60_000, interval: 200 }).toBe("finished");
  return read();
}

const verdicts = (run: Run, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(run.checks.filter((check) => names.includes(check.name)).map((c) => [c.name, c.verdict]));

describe("lrg readiness judge", () => {
  it.each([
    ["a correct consumer", { naive: false, want: "passed", exit: 0 }],
    ["a naive consumer", { naive: true, want: "failed", exit: 1 }],
  ])("judges the recording of %s as the live run did, check by check", async (name, { naive, want, exit }) => {
    expect(OFFLINE_CHECKS).toEqual(expect.arrayContaining(CHECKS));
    const unit = await newUnit();
    const sandbox = createSandboxClient({ baseUrl: suite.gateway.url, token: unit.sandbox_token });
    const started = await unwrap(
      sandbox.POST("/sandbox/v1/readiness-runs", { body: { checks: CHECKS, time_limit_seconds: 60 } }),
    );
    const out = join(suite.home.dir, `judged-${naive ? "naive" : "correct"}.har`);
    const { proxy, recorder } = await record(out);
    await consume(proxy, unit, naive);
    await stop(recorder);
    const live = await finish(unit, started.run_id);
    expect(verdicts(live, CHECKS), name).toEqual(Object.fromEntries(CHECKS.map((check) => [check, want])));

    const judged = await lrg(["readiness", "judge", out, "--json"], { env: suite.home.env });
    expect(judged.code, judged.stderr).toBe(exit);
    const offline = JSON.parse(judged.stdout) as Run;
    expect(verdicts(offline, CHECKS)).toEqual(verdicts(live, CHECKS));
    expect(offline.verdict).toBe(naive ? "failed" : "not_exercised"); // the checks the recording cannot show
    for (const check of offline.checks.filter((each) => CHECKS.includes(each.name)))
      expect(check.evidence.requests.length, check.name).toBeGreaterThan(0);
  });

  it("judges a recording that met no occasion not exercised, prints the table and writes the reports", async () => {
    const unit = await newUnit();
    const out = join(suite.home.dir, "quiet.har");
    const { proxy, recorder } = await record(out);
    const authorization = `Basic ${Buffer.from(`${unit.username}:${unit.password}`).toString("base64")}`;
    expect((await fetch(`${proxy}/v1/notifications`, { headers: { authorization } })).status).toBe(200);
    await stop(recorder);

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
      ["paging", "Not judged on a recording: "],
    ];
    for (const [check, found] of expected)
      expect(judged.stdout).toMatch(new RegExp(`^${check} +not_exercised +${found.replace(/[.]/g, "\\.")}`, "m"));
    expect(judged.stderr).toContain(`lrg: wrote ${junit}`);
    expect(judged.stderr).toContain(`lrg: wrote ${html}`);
  });

  it("names in its help the checks judged offline, as the judges give them", async () => {
    const help = await lrg(["readiness", "judge", "--help"], { env: suite.home.env });
    expect(help.stdout.replace(/\s+/g, " ")).toContain(`Judged offline: ${OFFLINE_CHECKS.join(", ")};`);
  });

  it("exits 2 for a file that is not HAR", async () => {
    const file = join(suite.home.dir, "not.har");
    writeFileSync(file, "{ not json");
    const judged = await lrg(["readiness", "judge", file], { env: suite.home.env });
    expect(judged.code).toBe(2);
    expect(judged.stderr).toMatch(/cannot be read/);
  });
});
