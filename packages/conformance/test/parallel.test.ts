// Parallel CI: two conformance runs against ONE gateway at the same time, as two pipelines sharing a sandbox would.
// Run A is an `lrg-conformance --target gateway --url` process; run B is a session in this process (so that it can
// move its own business unit's clock six months forward before its properties run, which the command line has no
// option for). Both create their own business units with the admin token and drive them through their unit tokens.
// Afterwards the global clock and settings are as they were, the admin token was used for nothing but creating
// business units, and the audit trail shows every unit's clock moving only when that unit moved it.
//
// Were isolation broken (say both runs used the admin token, as the suite did before unit tokens), B's six months
// would move the global clock, which A's units follow. A's properties may still pass (each reads times relative to
// the clock it finds), so the test does not rely on them: the global clock would not be real time afterwards (with
// B moving the global clock instead of its own, this test fails there, 15,811,200,020 ms off); the admin entries
// would hold clock moves, settings and transitions; and A's units would read a clock they did not move
// (`clockLeaks`, whose own test below shows it catching that).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { startTestGateway } from "@lrg/gateway/testing";
import { describe, expect, it } from "vitest";
import { advanceClock } from "../src/driver.js";
import { allProperties } from "../src/properties/index.js";
import { runProperties } from "../src/runner.js";
import { openGateway } from "../src/targets.js";

const cli = join(import.meta.dirname, "..", "dist", "cli.js");
const run = promisify(execFile);

/**
 * The properties both runs check (fewer runs each, to bound the test's time): the control plane's unit scope and
 * audit trail, and those whose outcome depends on the unit's own clock and settings (upload expiry, retention,
 * duplicates, system errors, rate limits by the clock) or which drive many transitions (the two models).
 */
const SUBSET = [
  "control-plane.settings-partial-update",
  "control-plane.unit-scope",
  "control-plane.audit-trail",
  "documents.upload-expiry",
  "notifications.retention",
  "notifications.duplicates",
  "notifications.model",
  "applications.model",
  "applications.retry-after-system-error",
  "title-enquiries.names-rate-limit",
];
const RUNS = 3;
const SIX_MONTHS_S = 183 * 86_400;
/** The two readings of one audit entry are taken together: offsets of one clock agree far better than this. */
const SAME_OFFSET_MS = 1_000;
/** Operations after which a unit's clock may read otherwise than before (when they succeeded). */
const CLOCK_CHANGES = new Set(["setClock", "advanceClock", "resetSandbox"]);

interface AuditEntry {
  sequence: number;
  recorded_at: string;
  sandbox_clock_at: string;
  actor: { kind: string; business_unit_id?: string | null };
  operation_id: string;
  status: number;
}

/**
 * Where a business unit's clock moved without the unit moving it: entry by entry (oldest first), the offset of its
 * clock from the wall clock must stay where the unit's last entry left it, unless the entry is the unit's own
 * successful clock change; its first entry must read the global clock (`globalOffsetMs` from real time).
 */
export function clockLeaks(entries: readonly AuditEntry[], globalOffsetMs: number): string[] {
  const leaks: string[] = [];
  const last = new Map<string, number>();
  for (const entry of [...entries].sort((a, b) => a.sequence - b.sequence)) {
    const unit = entry.actor.business_unit_id;
    if (entry.actor.kind !== "unit" || !unit) continue;
    const offset = Date.parse(entry.sandbox_clock_at) - Date.parse(entry.recorded_at);
    const expected = last.get(unit) ?? globalOffsetMs;
    const ownChange = CLOCK_CHANGES.has(entry.operation_id) && entry.status < 300;
    if (!ownChange && Math.abs(offset - expected) > SAME_OFFSET_MS)
      leaks.push(
        `unit ${unit}: entry ${entry.sequence} (${entry.operation_id}) reads ${offset} ms from real time, its clock was at ${expected} ms`,
      );
    last.set(unit, offset);
  }
  return leaks;
}

describe("parallel CI: two conformance runs on one gateway", () => {
  it("both pass, each on its own business units with its own clock (one six months ahead); the global clock and settings stay", async () => {
    const sandboxToken = randomBytes(18).toString("base64url");
    const gateway = await startTestGateway({ sandboxToken });
    const admin = async <T>(path: string): Promise<T> => {
      const answer = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${sandboxToken}` } });
      expect(answer.status).toBe(200);
      return (await answer.json()) as T;
    };
    const globalOffset = async () => Date.parse((await admin<{ now: string }>("/sandbox/v1/clock")).now) - Date.now();
    try {
      const settingsBefore = await admin("/sandbox/v1/settings");
      const offsetBefore = await globalOffset();

      const processRun = run(
        process.execPath,
        [cli, "--target", "gateway", "--url", gateway.url, "--runs", String(RUNS), "--only", SUBSET.join(",")],
        { env: { ...process.env, LRG_SANDBOX_TOKEN: sandboxToken }, timeout: 540_000 },
      ).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? -1,
          stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`,
        }),
      );
      const sessionRun = (async () => {
        const session = await openGateway({ url: gateway.url, sandboxToken });
        try {
          await advanceClock(session, SIX_MONTHS_S);
          const properties = allProperties.filter((p) => SUBSET.includes(p.id));
          const results = await runProperties(properties, session, { runs: RUNS });
          return { unit: String(session.credentials.business_unit_id), results };
        } finally {
          await session.close();
        }
      })();
      const [a, b] = await Promise.all([processRun, sessionRun]);

      // Both runs pass, every property of the subset run (none skipped) in each.
      expect(a.code, a.stdout).toBe(0);
      expect(a.stdout).toMatch(new RegExp(`${SUBSET.length} passed, 0 failed, 0 skipped`));
      expect(
        b.results.filter((r) => r.outcome !== "passed").map((r) => `${r.id}: ${r.outcome} ${r.message ?? ""}`),
      ).toEqual([]);
      expect(b.results).toHaveLength(SUBSET.length);
      const unitA = /business unit ([0-9a-f-]{36})/.exec(a.stdout)?.[1];
      expect(unitA, a.stdout).toBeDefined();

      // The global clock and settings are as they were: neither run changed them.
      expect(await admin("/sandbox/v1/settings")).toEqual(settingsBefore);
      expect(Math.abs((await globalOffset()) - offsetBefore)).toBeLessThan(60_000);

      // Every control-plane change is in the audit trail (the admin token reads all of it).
      const entries: AuditEntry[] = [];
      for (let after = 0; ;) {
        const page = await admin<{ data: AuditEntry[] }>(`/sandbox/v1/audit?limit=100&after=${after}`);
        entries.push(...page.data);
        if (page.data.length < 100) break;
        after = (page.data.at(-1) as AuditEntry).sequence;
      }
      // The admin token created business units and did nothing else.
      const adminUses = new Set(entries.filter((e) => e.actor.kind === "admin").map((e) => e.operation_id));
      expect([...adminUses]).toEqual(["createBusinessUnit"]);
      // Each unit's clock moved only when that unit moved it; B's own unit was six months ahead, A's started at real time.
      expect(clockLeaks(entries, offsetBefore)).toEqual([]);
      const offsets = (unit: string) =>
        entries
          .filter((e) => e.actor.business_unit_id === unit)
          .map((e) => Date.parse(e.sandbox_clock_at) - Date.parse(e.recorded_at));
      expect(Math.max(...offsets(b.unit))).toBeGreaterThanOrEqual(SIX_MONTHS_S * 1000 - 60_000);
      expect(Math.abs(offsets(unitA as string)[0] ?? Number.NaN)).toBeLessThan(60_000);
    } finally {
      await gateway.stop();
    }
  }, 600_000);

  it("clockLeaks finds a unit whose clock moved without its own change", () => {
    const entry = (sequence: number, unit: string, operation: string, offsetMs: number): AuditEntry => ({
      sequence,
      recorded_at: new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString(),
      sandbox_clock_at: new Date(Date.UTC(2026, 0, 1) + sequence * 1000 + offsetMs).toISOString(),
      actor: { kind: "unit", business_unit_id: unit },
      operation_id: operation,
      status: 200,
    });
    const sixMonths = SIX_MONTHS_S * 1000;
    const isolated = [
      entry(1, "a", "updateSettings", 0),
      entry(2, "b", "updateSettings", 0),
      entry(3, "b", "advanceClock", sixMonths),
      entry(4, "a", "transitionApplication", 0),
      entry(5, "b", "transitionApplication", sixMonths),
    ];
    expect(clockLeaks(isolated, 0)).toEqual([]);
    // B's move reaching A (a global clock both follow): A's next entry reads six months ahead without a change.
    const leaked = [...isolated.slice(0, 3), entry(4, "a", "transitionApplication", sixMonths)];
    expect(clockLeaks(leaked, 0)).toHaveLength(1);
    // A unit created after a global move starts ahead of real time.
    expect(clockLeaks([entry(1, "c", "updateSettings", sixMonths)], 0)).toHaveLength(1);
  });
});
