// Readiness runs keep their tables in a store part with a ledger of its own (`storage/part-ledger.ts`): the steps that
// were versions 10, 11, 14 and 15 of the store's list (1005 on PostgreSQL). A database made before that, at any of
// those versions, opens with its runs and observations where they were and only the steps it lacked applied; a fresh
// one runs every step; several instances starting at once on one PostgreSQL database migrate it once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readinessMigrations } from "../../src/readiness/store/migrations.js";
import { readinessStorePart } from "../../src/readiness/store/part.js";
import type { ReadinessObservationRow, ReadinessRunRow, ReadinessStore } from "../../src/readiness/store/port.js";
import { MOVED_TO_A_PART } from "../../src/storage/part-ledger.js";
import { postgresMigrations, postgresStepsOf } from "../../src/storage/postgres/migrations.js";
import { openPostgresStorage } from "../../src/storage/postgres/postgres-storage.js";
import { openSqlite } from "../../src/storage/sqlite/driver.js";
import { migrations } from "../../src/storage/sqlite/migrations.js";
import { openSqliteStorage } from "../../src/storage/sqlite/sqlite-storage.js";
import type { Storage } from "../../src/storage/storage.js";
import { startPostgres, type TestPostgres } from "../../src/testing/postgres.js";
import { observed } from "./observations.js";

const parts = [readinessStorePart] as const;

/** A store opened with the readiness runs' part. */
type PartStorage = Storage & ReadinessStore;

/** A step as the store's list held it before the part kept a ledger of its own. */
interface FormerStep {
  version: number;
  name: string;
  sql: string;
}

/**
 * The store's list as it was before the split, for one store: its own steps, and the part's steps back at their
 * former versions with their names (the moved steps' places in `own` taken by them).
 */
function formerList(own: readonly FormerStep[], partSteps: typeof readinessMigrations): FormerStep[] {
  const former = partSteps.flatMap((step) =>
    step.formerly === undefined ? [] : [{ version: step.formerly, name: step.name, sql: step.sql }],
  );
  return [...own.filter((step) => step.name !== MOVED_TO_A_PART), ...former].sort((a, b) => a.version - b.version);
}

/** Part ledger rows of the readiness part, as [version, name]. */
const LEDGER = "SELECT version, name FROM part_migrations WHERE part = 'readiness' ORDER BY version";

/** A run of unit-a, running, its counts as given. */
function runRow(id: string, observationCount: number): ReadinessRunRow {
  return {
    id,
    businessUnitId: "unit-a",
    checks: ["paging"],
    timeLimitSeconds: 60,
    startedMs: 0,
    deadlineMs: 60_000,
    status: "running",
    endedMs: null,
    stimulus: {},
    result: null,
    observationCount,
    observationsDropped: 0,
  };
}

/** A notification list request of unit-a observed in `runId` at `clockMs`, as the store answers it once kept. */
function observation(
  runId: string,
  sequence: number,
  clockMs: number,
  extra: Partial<ReadinessObservationRow> = {},
): ReadinessObservationRow {
  return observed("listNotificationsV1", { runId, businessUnitId: "unit-a", sequence, clockMs, ...extra });
}

/** The run that a database made before the split holds (`run-1`, two observations), as the store reads it. */
async function expectFormerRunKept(storage: PartStorage): Promise<void> {
  expect(await storage.findReadinessRun("run-1")).toEqual(runRow("run-1", 2));
  expect(await storage.readinessObservations("run-1")).toEqual([
    observation("run-1", 1, 1_000),
    observation("run-1", 2, 2_000),
  ]);
}

/**
 * The store, opened on a database without runs, keeps a run and an observation with every member the port has (so
 * every step for that store ran); closed after.
 */
async function expectRunsKept(opening: PartStorage | Promise<PartStorage>): Promise<void> {
  const storage = await opening;
  try {
    await storage.createBusinessUnit(
      { id: "unit-b", name: "b", createdMs: 0 },
      { username: "user-b", businessUnitId: "unit-b", passwordHash: "h", createdMs: 0 },
    );
    const run = { ...runRow("run-new", 0), businessUnitId: "unit-b" };
    expect(await storage.startReadinessRun(run, { applications: [], notifications: [] })).toBe(true);
    const full = {
      ...observation("run-new", 1, 1_000, {
        pathParameters: { id: "a" },
        retryAfterSeconds: 3,
        answerCode: "400-01",
        answerDetail: "bad",
        submissionCase: { type: "REGISTER_UPDATE", customerReference: "r", titleNumbers: ["AB1"] },
      }),
      businessUnitId: "unit-b",
    };
    const { sequence: _, ...kept } = full;
    expect(await storage.appendReadinessObservations([kept], 10)).toEqual([true]);
    expect(await storage.readinessObservations("run-new")).toEqual([full]);
  } finally {
    await storage.close();
  }
}

describe("readiness runs' tables on SQLite", () => {
  const directories: string[] = [];
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });
  const directory = (): string => {
    const made = mkdtempSync(join(tmpdir(), "lrg-part-migrations-"));
    directories.push(made);
    return made;
  };

  /** A database file in `dir` at schema `version` as the gateway before the split left it; open, for the test's rows. */
  function fileAtVersion(dir: string, version: number): ReturnType<typeof openSqlite> {
    const db = openSqlite(join(dir, "gateway.sqlite"));
    db.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)",
    );
    const steps = formerList(
      migrations,
      readinessMigrations.filter((step) => step.only !== "postgresql"),
    );
    for (const step of steps.filter((s) => s.version <= version)) {
      db.exec(step.sql);
      db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(step.version, step.name);
    }
    return db;
  }

  /** Unit-a and its running run-1, counting two observations, as a gateway before the split wrote them. */
  function insertFormerRun(db: ReturnType<typeof openSqlite>): void {
    db.prepare("INSERT INTO business_units (id, name, created_ms) VALUES ('unit-a', 'a', 0)").run();
    db.prepare(
      `INSERT INTO readiness_runs (id, business_unit_id, checks, time_limit_seconds, started_ms, deadline_ms, status, stimulus, observation_count)
       VALUES ('run-1', 'unit-a', '["paging"]', 60, 0, 60000, 'running', '{}', 2)`,
    ).run();
  }

  it("runs every step on a fresh database, and the store's moved steps do nothing", async () => {
    const dir = directory();
    await expectRunsKept(openSqliteStorage(dir, { parts }));
    const db = openSqlite(join(dir, "gateway.sqlite"), { readonly: true });
    try {
      expect(db.prepare(LEDGER).raw().all()).toEqual(
        readinessMigrations.filter((s) => s.only !== "postgresql").map((s) => [s.version, s.name]),
      );
      expect(
        db
          .prepare("SELECT version FROM schema_migrations WHERE name = ? ORDER BY version")
          .pluck()
          .all(MOVED_TO_A_PART),
      ).toEqual([10, 11, 14, 15]);
    } finally {
      db.close();
    }
  });

  it("opens a database at the last version before the split with its runs and observations, running no step again", async () => {
    const dir = directory();
    const db = fileAtVersion(dir, 15);
    insertFormerRun(db);
    const { runId: _r, businessUnitId: _u, sequence: _s, ...first } = observation("run-1", 1, 1_000);
    const second = { ...first, clockMs: 2_000 };
    db.prepare(
      "INSERT INTO readiness_observations (run_id, first_sequence, business_unit_id, observations) VALUES ('run-1', 1, 'unit-a', ?)",
    ).run(JSON.stringify([first, second]));
    db.close();

    const storage = openSqliteStorage(dir, { parts });
    try {
      await expectFormerRunKept(storage);
    } finally {
      await storage.close();
    }
    const reopened = openSqlite(join(dir, "gateway.sqlite"), { readonly: true });
    try {
      expect(reopened.prepare(LEDGER).raw().all()).toEqual([
        [1, readinessMigrations[0]!.name],
        [2, readinessMigrations[1]!.name],
        [3, readinessMigrations[2]!.name],
        [4, readinessMigrations[3]!.name],
      ]);
    } finally {
      reopened.close();
    }
  });

  it("runs every step on a database that a store opened without the part made (the store's moved steps ran no SQL)", async () => {
    const dir = directory();
    await openSqliteStorage(dir).close();
    await expectRunsKept(openSqliteStorage(dir, { parts }));
  });

  it("opens a version-11 file with its readiness observations, a row each, as the same observations in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lrg-migrations-11-"));
    try {
      const db = fileAtVersion(dir, 11);
      insertFormerRun(db);
      const insert = db.prepare(
        `INSERT INTO readiness_observations (run_id, sequence, business_unit_id, clock_ms, method, operation_id, query, status, credentials_sent, acknowledged_ids, acknowledged_count, idempotency_key, path_parameters)
         VALUES ('run-1', ?, 'unit-a', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      insert.run(1, 1_000, "GET", "listNotificationsV1", '{"created_after":"x"}', 200, 1, null, null, null, "{}");
      insert.run(
        2,
        2_000,
        "POST",
        "acknowledgeNotificationsV1",
        "{}",
        200,
        0,
        '["n-1","n-2"]',
        2,
        "key-1",
        '{"id":"a"}',
      );
      db.close();

      const storage = openSqliteStorage(dir, { parts: [readinessStorePart] });
      try {
        expect(await storage.readinessObservations("run-1")).toEqual([
          observation("run-1", 1, 1_000, { query: { created_after: "x" } }),
          observed("acknowledgeNotificationsV1", {
            runId: "run-1",
            businessUnitId: "unit-a",
            sequence: 2,
            clockMs: 2_000,
            credentialsSent: false,
            acknowledgedIds: ["n-1", "n-2"],
            acknowledgedCount: 2,
            idempotencyKey: "key-1",
            pathParameters: { id: "a" },
          }),
        ]);
        // The next observation of the run is numbered after them.
        const [listed] = await storage.readinessObservations("run-1");
        const { sequence: _first, ...next } = { ...listed!, clockMs: 3_000 };
        expect(await storage.appendReadinessObservations([next], 10)).toEqual([true]);
        expect((await storage.readinessObservations("run-1")).map((o) => o.sequence)).toEqual([1, 2, 3]);
      } finally {
        await storage.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("readiness runs' tables on PostgreSQL, two instances starting at once", () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Runs `work` on a client of the database. */
  async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  /** Two instances of the store opened together on `url`: each migrates under the migration lock, once. */
  async function openTwo(url: string): Promise<[PartStorage, PartStorage]> {
    return Promise.all([openPostgresStorage(url, { parts }), openPostgresStorage(url, { parts })]);
  }

  it("run every step once on a fresh database", async () => {
    const url = await server.createDatabase();
    const [one, two] = await openTwo(url);
    await two.close();
    await expectRunsKept(one);
    const ledger = await withClient(url, async (client) => (await client.query(LEDGER)).rows);
    expect(ledger.map((row: { version: number }) => row.version)).toEqual(
      postgresStepsOf(readinessStorePart).map((step) => step.version),
    );
  });

  it("open a database stopped between two steps (1004: the observations' answer code not there yet) with its runs, and apply only the step it lacked", async () => {
    const url = await server.createDatabase();
    await withClient(url, async (client) => {
      await client.query(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
      );
      for (const step of formerList(postgresMigrations, postgresStepsOf(readinessStorePart)).filter(
        (s) => s.version <= 1004,
      )) {
        await client.query(step.sql);
        await client.query("INSERT INTO schema_migrations VALUES ($1, $2, 0)", [step.version, step.name]);
      }
      await client.query("INSERT INTO business_units (id, name, created_ms) VALUES ('unit-a', 'a', 0)");
      await client.query(
        `INSERT INTO readiness_runs (id, business_unit_id, checks, time_limit_seconds, started_ms, deadline_ms, status, stimulus, observation_count)
         VALUES ('run-1', 'unit-a', '["paging"]', 60, 0, 60000, 'running', '{}', 2)`,
      );
      for (const [sequence, clockMs] of [
        [1, 1_000],
        [2, 2_000],
      ])
        await client.query(
          `INSERT INTO readiness_observations (run_id, sequence, business_unit_id, clock_ms, method, operation_id, query, status, credentials_sent, path_parameters)
           VALUES ('run-1', $1, 'unit-a', $2, 'GET', 'listNotificationsV1', '{}', 200, 1, '{}')`,
          [sequence, clockMs],
        );
    });

    const [one, two] = await openTwo(url);
    try {
      for (const storage of [one, two]) {
        await expectFormerRunKept(storage);
      }
    } finally {
      await two.close();
    }
    await expectRunsKept(one);
    const ledger = await withClient(url, async (client) => (await client.query(LEDGER)).rows);
    expect(ledger).toEqual(postgresStepsOf(readinessStorePart).map(({ version, name }) => ({ version, name })));
    const recorded = await withClient(
      url,
      async (client) =>
        (await client.query("SELECT version FROM schema_migrations WHERE name = $1", [MOVED_TO_A_PART])).rows,
    );
    // Only the step the database lacked ran in the store's list as moved; the others kept their rows as they were.
    expect(recorded).toEqual([{ version: 1005 }]);
  });
});
