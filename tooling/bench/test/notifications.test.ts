// The notification benchmark runs end to end on a tiny data set and reports every store side by side. Only that it
// runs and reports: the figures of a test run on a busy machine mean nothing, and nothing here times anything.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { notificationBenchmarks } from "../src/notifications.js";
import { benchOptions } from "../src/options.js";
import { markdownOf, ratiosOf } from "../src/report.js";

const dataDir = mkdtempSync(join(tmpdir(), "lrg-bench-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm run bench: notifications", () => {
  it("measures list and acknowledge on SQLite, PostgreSQL and two PostgreSQL instances, and reports them", async () => {
    const options = {
      ...benchOptions({
        BENCH_QUICK: "1",
        BENCH_UNITS: "6",
        BENCH_BUSY_UNITS: "3",
        BENCH_NOTIFICATIONS: "3000",
        BENCH_CONNECTIONS: "4",
        // Fractions of a second: this test proves the benchmark runs and reports, not what it measures.
        BENCH_WARMUP: "0.2",
        BENCH_DURATION: "0.3",
        BENCH_SLICES: "1",
      }),
      dataDir,
    };
    const notes: string[] = [];
    const notifications = await notificationBenchmarks(options, notes);
    const stores = notifications.stores;
    expect(stores).toBeDefined();
    for (const operation of ["list", "acknowledge"] as const) {
      for (const store of ["sqlite", "postgresql", "postgresqlBalancedOne", "postgresqlTwo"] as const) {
        const result = stores?.[operation][store];
        expect(result?.requests, `${operation} on ${store}`).toBeGreaterThan(0);
        expect(result?.non2xx, `${operation} on ${store}: non-2xx answers`).toBe(0);
        expect(result?.errors, `${operation} on ${store}: errors`).toBe(0);
      }
    }
    const results = {
      generatedAt: new Date().toISOString(),
      quick: true,
      machine: { node: process.version, platform: "test", cpus: 1, cpuModel: "test", loadAverage1m: 0 },
      loadAverage: { start: 0, end: 0 },
      seconds: 0,
      notifications,
      notes,
    };
    const ratios = ratiosOf(results);
    expect(ratios.map((ratio) => ratio.name)).toEqual(
      expect.arrayContaining([
        "list: PostgreSQL / Prism",
        "list: 2 PostgreSQL instances / 1 (behind the balancer)",
        "acknowledge p99: SQLite",
        "acknowledge p99: PostgreSQL, 1 instance",
        "acknowledge p99: PostgreSQL, 2 instances behind the balancer",
      ]),
    );
    const markdown = markdownOf({ ...results, ratios });
    expect(markdown).toContain("SQLite and PostgreSQL side by side");
    expect(markdown).toContain("| PostgreSQL, 2 instances behind the balancer |");
  }, 300_000);
});
