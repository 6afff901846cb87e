// Live and recorded verdicts agree: for a correct client and for the naive clients of the gateway's readiness tests
// (their mistakes, `Ways` of ./readiness-software.ts), a live readiness run of every check examines the software while
// a started `lrg record` in front of a started gateway records its traffic; `lrg readiness judge` then judges the
// recording offline, and gives the live run's verdict for every check. The runs go at once, each on its own business
// unit and recorder; together they commit every naive client's mistake, several a run.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, type ExpectStatic } from "vitest";
import { createSandboxClient, unwrap, type SandboxComponents } from "@lrg/client";
import { CHECK_NAMES } from "@lrg/gateway/readiness-judges";
import { Software, type Unit, type Ways } from "./readiness-software.js";
import { IN_SERVICE_HOURS, interrupted, listening, lrg, useSuite } from "./support.js";

type ReadinessRun = SandboxComponents["schemas"]["ReadinessRun"];
type CheckName = SandboxComponents["schemas"]["ReadinessCheckName"];

const suite = useSuite();

/** Every check, in the order a run answers them. */
const EVERY_CHECK: readonly CheckName[] = CHECK_NAMES;

/** Every check but those named. */

/** One live run: the software's ways, the unit's settings, the run's checks and time limit, what it must fail. */
interface Plan {
  ways: Ways;
  /** The unit's title enquiries need a client certificate (the recorder presents none). */
  certificate: boolean;
  checks: readonly CheckName[];
  timeLimitSeconds: number;
  /** The checks the ways must fail live (the others may pass or not be exercised). */
  failing: CheckName[];
}

const CORRECT: Ways = {
  titles: "correct",
  faults: "sleeps",
  consumer: "correct",
  submissions: "correct",
  readsStatus: false,
  uploads: "correct",
};

const PLANS: [string, Plan][] = [
  ["a correct client", { ways: CORRECT, certificate: false, checks: EVERY_CHECK, timeLimitSeconds: 1200, failing: [] }],
  [
    "a hasty version 0 client that handles nothing",
    {
      ways: {
        titles: "hasty",
        faults: "hasty",
        consumer: "version-0-idle",
        submissions: "other-case",
        readsStatus: false,
        uploads: "other-bytes",
      },
      certificate: false,
      checks: EVERY_CHECK,
      timeLimitSeconds: 1200,
      failing: [
        "validation-failed",
        "checksum-and-length",
        "system-error",
        "lost-answer",
        "downloads",
        "expired-upload",
        "rate-limits",
        "faults-and-cadence",
        "deferred-official-search",
      ],
    },
  ],
  [
    "a forgetful client that ignores duplicates and polls without a pause",
    {
      ways: {
        titles: "forgetful",
        faults: "moves-the-clock",
        consumer: "duplicate-ignoring",
        submissions: "no-resubmission",
        readsStatus: false,
        uploads: "hex-sha",
      },
      certificate: false,
      checks: EVERY_CHECK,
      timeLimitSeconds: 1200,
      failing: [
        "duplicates",
        "nothing-left-behind",
        "checksum-and-length",
        "system-error",
        "downloads",
        "expired-upload",
        "rate-limits",
        "faults-and-cadence",
        "deferred-official-search",
      ],
    },
  ],
  [
    "a careless client without its client certificate",
    {
      ways: {
        titles: "uncertified",
        faults: "sleeps",
        consumer: "one-call",
        submissions: "new-key",
        readsStatus: false,
        uploads: "credentials",
      },
      certificate: true,
      checks: EVERY_CHECK,
      timeLimitSeconds: 1200,
      failing: [
        "duplicates",
        "paging",
        "nothing-left-behind",
        "checksum-and-length",
        "lost-answer",
        "downloads",
        "rate-limits",
        "deferred-official-search",
      ],
    },
  ],
  [
    "a client that reads the first page only",
    {
      ways: {
        titles: "late",
        faults: "moves-the-clock",
        consumer: "one-page",
        submissions: "changed-body",
        readsStatus: true,
        uploads: "gives-up",
      },
      certificate: false,
      checks: EVERY_CHECK,
      // Shorter than the deferred search's 15 minutes: its result is due after the deadline (not exercised).
      timeLimitSeconds: 600,
      failing: ["paging", "nothing-left-behind", "lost-answer", "expired-upload"],
    },
  ],
];

/** A new business unit (created directly: its answer holds its password and token, which no recording must). */
async function newUnit(): Promise<Unit> {
  const created = await unwrap(
    suite.gateway.sandbox.POST("/sandbox/v1/business-units", { body: { name: "Agreement" } }),
  );
  return { ...created, sandbox_token: created.sandbox_token ?? "" };
}

/** Reads the run (directly) until it finished: its unit's clock has reached its deadline. */
async function finished(unit: Unit, runId: string, expect: ExpectStatic): Promise<ReadinessRun> {
  const sandbox = createSandboxClient({ baseUrl: suite.gateway.url, token: unit.sandbox_token });
  const read = () =>
    unwrap(sandbox.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: runId } } }));
  await expect.poll(async () => (await read()).status, { timeout: 60_000, interval: 200 }).toBe("finished");
  return read();
}

const verdicts = (run: ReadinessRun, names: readonly CheckName[]): Record<string, string> =>
  Object.fromEntries(run.checks.filter((check) => names.includes(check.name)).map((c) => [c.name, c.verdict]));

/** Judges a recording offline; answers the run `lrg readiness judge --json` prints. */
async function judged(file: string, expect: ExpectStatic): Promise<ReadinessRun> {
  const run = await lrg(["readiness", "judge", file, "--json"], { env: suite.home.env });
  expect([0, 1], run.stderr).toContain(run.code);
  return JSON.parse(run.stdout) as ReadinessRun;
}

/** A copy of a recording without the sandbox's control plane: the software's registry traffic alone. */
function withoutControlPlane(file: string): string {
  const har = JSON.parse(readFileSync(file, "utf8")) as { log: { entries: { request: { url: string } }[] } };
  har.log.entries = har.log.entries.filter((entry) => !new URL(entry.request.url).pathname.startsWith("/sandbox/"));
  const copy = file.replace(/\.har$/, "-registry-only.har");
  writeFileSync(copy, JSON.stringify(har));
  return copy;
}

describe("live and recorded verdicts agree", () => {
  it.concurrent.for(PLANS)("for %s, check by check", async ([name, plan], { expect }) => {
    const unit = await newUnit();
    const out = join(suite.home.dir, `agreement-${unit.business_unit_id}.har`);
    const recorder = await listening(["record", "--upstream", suite.gateway.url, "--out", out], suite.home.env);
    const software = new Software(recorder.address, unit, plan.ways);
    const settings = { duplicate_rate: 0, processing: "manual", require_client_certificate: plan.certificate };
    expect((await software.control("PUT", "/sandbox/v1/settings", settings)).status).toBe(200);
    expect((await software.control("PUT", "/sandbox/v1/clock", { now: IN_SERVICE_HOURS })).status).toBe(200);
    const started = await software.control("POST", "/sandbox/v1/readiness-runs", {
      checks: plan.checks,
      time_limit_seconds: plan.timeLimitSeconds,
    });
    expect(started.status).toBe(201);
    await software.titles();
    await software.submissions();
    await software.uploads();
    await software.consume();
    await software.advance(plan.timeLimitSeconds);
    expect(await interrupted(recorder.process), recorder.process.stderr.join(" | ")).toBe(0);

    const live = verdicts(await finished(unit, (started.body as ReadinessRun).run_id, expect), plan.checks);
    expect(Object.keys(live)).toEqual(plan.checks);
    if (plan.failing.length === 0) expect(Object.values(live), name).toEqual(plan.checks.map(() => "passed"));
    for (const check of plan.failing) expect(live[check], check).toBe("failed");

    const offline = await judged(out, expect);
    expect(verdicts(offline, plan.checks), name).toEqual(live);
    for (const check of offline.checks) expect(check.evidence.found, check.name).not.toBe("");

    // The correct client waits in real time (but for the deferred search, whose answers say when it was read): its
    // registry traffic alone, without the control plane's clock and run, is judged the same.
    if (plan.ways === CORRECT)
      expect(verdicts(await judged(withoutControlPlane(out), expect), plan.checks)).toEqual(live);
  });
});
