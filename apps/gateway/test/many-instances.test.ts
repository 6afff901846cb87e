import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStorage } from "../src/storage/postgres/postgres-storage.js";
import type { StoreLifecycle } from "../src/storage/ports/lifecycle.js";
import { startPostgres, type TestPostgres } from "../src/testing/postgres.js";
import {
  basic,
  idempotencyKey,
  startGateway,
  submission,
  type Credentials,
  type TestGateway,
} from "./support/gateway.js";
import { metric } from "./support/metrics.js";

/**
 * Two gateway instances on one PostgreSQL database and one blob directory: whatever one commits, the other
 * answers from at once. Changes reach the other instance by NOTIFY, and each request first waits for those
 * committed before it arrived (`Storage.sync`), so nothing here polls.
 */
let server: TestPostgres;
let a: TestGateway;
let b: TestGateway;
let databaseUrl: string;
const shared = mkdtempSync(join(tmpdir(), "lrg-instances-"));

/**
 * How long a waiting transaction waits before PostgreSQL looks for a deadlock, once (`deadlock_timeout`). The deadlock
 * tests want the gateway's transaction, which waits first, to find the cycle: its one check must come after the test's
 * own transaction closed the cycle, which a loaded machine delayed past the default second.
 */
const DEADLOCK_CHECK = "3s";

beforeAll(async () => {
  server = await startPostgres({ deadlock_timeout: DEADLOCK_CHECK });
  databaseUrl = await server.createDatabase();
  // Started together: both migrate the empty database, under the migration lock, without tripping on each other.
  [a, b] = await Promise.all([
    startGateway({ databaseUrl, dataDir: shared }),
    startGateway({ databaseUrl, dataDir: shared }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await server.stop();
  rmSync(shared, { recursive: true, force: true });
});

const submit = (gw: TestGateway, unit: Credentials): Promise<string> => gw.submit(unit);

const newIds = async (gw: TestGateway, unit: Credentials): Promise<string[]> =>
  (
    (await gw.call("GET", "/v1/notifications?status=NEW", { as: unit })).body as { data: { notification_id: string }[] }
  ).data.map((n) => n.notification_id);

/** A new business unit (manual processing) with `accepted` applications moved onto the day list, each notified. */
async function unitWithAccepted(accepted: number): Promise<{ unit: Credentials; applications: string[] }> {
  await a.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
  const unit = await a.newBusinessUnit();
  const applications = await Promise.all(Array.from({ length: accepted }, () => submit(a, unit)));
  for (const id of applications)
    await a.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
  return { unit, applications };
}

/** One of a store's figures (those `/metrics` shows with the lrg_db_ prefix). */
const storeFigure = (storage: StoreLifecycle, name: string) =>
  storage.describe().figures.find((figure) => figure.name === name)?.value;

/** A connection of the test's own that never looks for deadlocks first, so the gateway's transaction is the one aborted. */
async function otherConnection(): Promise<pg.Client> {
  const other = new pg.Client({ connectionString: databaseUrl });
  await other.connect();
  await other.query("SET deadlock_timeout = '60s'");
  return other;
}

/**
 * The statement that closes a deadlock's cycle in the tests below: a lock on a whole table that no writer of it may hold
 * meanwhile. PostgreSQL grants a table lock to its waiter as the holder's transaction ends, so the gateway's retry,
 * which writes the table, waits behind this transaction and cannot meet it a second time.
 */
const WAIT_FOR_WRITERS = (table: string) => `LOCK TABLE ${table} IN SHARE MODE`;

/** Resolves once some transaction waits for a lock another holds (the first half of a deadlock is in place). */
const someoneWaitsForALock = (client: pg.Client) =>
  expect
    .poll(async () => (await client.query("SELECT 1 FROM pg_locks WHERE NOT granted")).rowCount, { timeout: 10_000 })
    .toBeGreaterThan(0);

describe("two instances on one database", () => {
  it("serve one set of business units, applications and idempotency keys", async () => {
    await a.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
    const unit = await a.newBusinessUnit();
    const key = idempotencyKey();
    const first = await a.call("POST", "/v0/applications", {
      as: unit,
      body: submission(),
      headers: { "idempotency-key": key },
    });
    const replay = await b.call("POST", "/v0/applications", {
      as: unit,
      body: submission(),
      headers: { "idempotency-key": key },
    });
    expect(replay.body).toEqual(first.body);
    const conflict = await b.call("POST", "/v0/applications", {
      as: unit,
      body: submission({ customer_reference: "OTHER" }),
      headers: { "idempotency-key": key },
    });
    expect(conflict.status).toBe(409);
  });

  it("drop a cached notification page on every instance when one of them acknowledges", async () => {
    const { unit } = await unitWithAccepted(1);
    const listed = await newIds(b, unit);
    expect(listed.length).toBeGreaterThan(0);
    expect(await newIds(b, unit)).toEqual(listed); // now a cached page on b
    expect((await a.call("POST", "/v1/notifications/acknowledge", { as: unit, body: { data: listed } })).status).toBe(
      200,
    );
    expect(await newIds(b, unit)).toEqual([]);
  });

  it("acknowledge the same notifications at once, in opposite orders, without a deadlock", async () => {
    const { unit } = await unitWithAccepted(20);
    const ids = await newIds(a, unit);
    expect(ids.length).toBeGreaterThanOrEqual(10);
    // Two stores as two instances' (each its own pool), and a connection to put the notifications back to NEW.
    const [one, two] = await Promise.all([openPostgresStorage(databaseUrl), openPostgresStorage(databaseUrl)]);
    const restorer = new pg.Client({ connectionString: databaseUrl });
    await restorer.connect();
    try {
      for (let round = 1; round <= 120; round += 1) {
        await restorer.query(
          `INSERT INTO new_notifications (seq, business_unit_id, created_ms)
             SELECT seq, business_unit_id, created_ms FROM notifications WHERE id = ANY($1) ON CONFLICT (seq) DO NOTHING`,
          [ids],
        );
        // All of them on one instance; on the other, every few of them, backwards: statements of different sizes.
        const some = ids.filter((_, index) => index % 4 === round % 4).reverse();
        const answers = await Promise.all([
          one.acknowledgeNotifications(unit.business_unit_id!, ids, Date.now()),
          two.acknowledgeNotifications(unit.business_unit_id!, some, Date.now()),
        ]);
        expect(answers).toEqual([ids, some]);
      }
      // A deadlock aborts one of the two statements after a second (deadlock_timeout), and its acknowledgement fails.
      expect([storeFigure(one, "query_errors_total"), storeFigure(two, "query_errors_total")]).toEqual([0, 0]);
    } finally {
      await restorer.end();
      await Promise.all([one.close(), two.close()]);
    }
    expect(await newIds(b, unit)).toEqual([]);
  });

  it("run an acknowledgement again when PostgreSQL breaks a deadlock by aborting it", async () => {
    const { unit } = await unitWithAccepted(1);
    const storage = await openPostgresStorage(databaseUrl);
    const other = await otherConnection();
    try {
      const { rows } = await other.query<{ seq: string; id: string }>(
        "SELECT seq, id FROM notifications WHERE id = ANY($1) ORDER BY seq LIMIT 2",
        [await newIds(a, unit)],
      );
      const [low, high] = rows as [{ seq: string; id: string }, { seq: string; id: string }];
      // Another transaction holds the later notification; the acknowledgement takes the earlier one, then waits for it.
      await other.query("BEGIN");
      await other.query("DELETE FROM new_notifications WHERE seq = $1", [high.seq]);
      const acknowledged = storage.acknowledgeNotifications(unit.business_unit_id!, [high.id, low.id], Date.now());
      await someoneWaitsForALock(other);
      // Now the other transaction waits for the acknowledgement's table lock: a cycle. The acknowledgement's deadlock
      // check finds it and aborts the acknowledgement, whose release grants this one its lock at once; the retry then
      // waits behind it. (Waiting for the earlier row instead raced the retry: a retry that took the row before this
      // transaction was scheduled again met it a second time.)
      await other.query(WAIT_FOR_WRITERS("new_notifications"));
      await other.query("ROLLBACK");
      expect(await acknowledged).toEqual([high.id, low.id]);
      expect(storeFigure(storage, "conflict_retries_total")).toBe(1);
      expect(await newIds(b, unit)).not.toEqual(expect.arrayContaining([low.id]));
      expect(await newIds(b, unit)).not.toEqual(expect.arrayContaining([high.id]));
    } finally {
      await other.end();
      await storage.close();
    }
  });

  it("run a transaction again when PostgreSQL breaks a deadlock by aborting it, and answer the request", async () => {
    // The unit's notification clock (a row of its own) exists once the unit has a notification.
    const { unit } = await unitWithAccepted(1);
    const application = await submit(a, unit);
    const retries = () => metric(b.url, "lrg_db_conflict_retries_total");
    const before = await retries();
    const other = await otherConnection();
    try {
      // A transition updates the application's row, then takes its unit's notification clock; another transaction
      // holds the clock, then wants the applications table, which the transition writes.
      await other.query("BEGIN");
      await other.query("UPDATE notification_unit_clock SET last_ms = last_ms WHERE business_unit_id = $1", [
        unit.business_unit_id,
      ]);
      const transition = b.sandbox("POST", `/sandbox/v1/applications/${application}/transitions`, {
        to: "ACCEPTED_PRIORITY_PROTECTED",
      });
      await someoneWaitsForALock(other);
      await other.query(WAIT_FOR_WRITERS("applications"));
      await other.query("ROLLBACK");
      const answer = await transition;
      expect(answer.status).toBe(200);
      expect(await retries()).toBe(before + 1);
    } finally {
      await other.end();
    }
    const information = await a.call("GET", `/v0/applications/${application}/information`, { as: unit });
    expect(JSON.stringify(information.body)).toContain("ACCEPTED_PRIORITY_PROTECTED");
  });

  it("share the sandbox settings, the clock and the day list", async () => {
    await a.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0.25 });
    expect(((await b.sandbox("GET", "/sandbox/v1/settings")).body as { duplicate_rate: number }).duplicate_rate).toBe(
      0.25,
    );
    const before = Date.parse(((await b.sandbox("GET", "/sandbox/v1/clock")).body as { now: string }).now);
    await a.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 7200 });
    expect(
      Date.parse(((await b.sandbox("GET", "/sandbox/v1/clock")).body as { now: string }).now) - before,
    ).toBeGreaterThanOrEqual(7_200_000);
    await a.sandbox("PUT", "/sandbox/v1/day-list", { open: false });
    expect(((await b.sandbox("GET", "/sandbox/v1/day-list")).body as { open: boolean }).open).toBe(false);
    await a.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
    await a.sandbox("PUT", "/sandbox/v1/settings", { duplicate_rate: 0 });
  });

  it("stop accepting a credential on every instance once its business unit is gone", async () => {
    const unit = await a.newBusinessUnit();
    expect((await b.call("GET", "/v1/notifications", { as: unit })).status).toBe(200); // remembered by b now
    await a.sandbox("POST", "/sandbox/v1/reset");
    expect((await fetch(`${b.url}/v1/notifications`, { headers: { authorization: basic(unit) } })).status).toBe(401);
  });

  it("give notifications creation instants in commit order: a reader paging with created_after on the other instance misses none", async () => {
    await a.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
    const unit = await a.newBusinessUnit();
    const ids = await Promise.all(Array.from({ length: 16 }, (_, i) => submit(i % 2 ? a : b, unit)));
    const seen = new Set<string>();
    let after = "2000-01-01T00:00:00.000Z";
    let writing = true;
    const page = async () => {
      const answer = await b.call("GET", `/v1/notifications?created_after=${encodeURIComponent(after)}&limit=100`, {
        as: unit,
      });
      const data = (answer.body as { data: { notification_id: string; created_datetime: string }[] }).data;
      for (const n of data) {
        // Strictly after: created_after is exclusive and instants never repeat, so no overlap is needed.
        expect(seen.has(n.notification_id)).toBe(false);
        seen.add(n.notification_id);
        after = n.created_datetime;
      }
    };
    const reader = (async () => {
      while (writing) await page();
    })();
    await Promise.all(
      ids.map((id, i) =>
        (i % 2 ? b : a).sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, {
          to: "ACCEPTED_PRIORITY_PROTECTED",
        }),
      ),
    );
    writing = false;
    await reader;
    await page();
    const all = (
      (await a.call("GET", "/v1/notifications?limit=100", { as: unit })).body as {
        data: { notification_id: string; created_datetime: string }[];
      }
    ).data;
    expect(all.length).toBeGreaterThanOrEqual(16);
    expect([...seen].sort()).toEqual(all.map((n) => n.notification_id).sort());
    const instants = all.map((n) => Date.parse(n.created_datetime));
    for (let i = 1; i < instants.length; i += 1) expect(instants[i]).toBeGreaterThan(instants[i - 1]!);
  });

  it("decide each application once in automatic processing, whichever instance's background work gets to it", async () => {
    await a.sandbox("PUT", "/sandbox/v1/settings", { processing: "automatic", duplicate_rate: 0 });
    const unit = await a.newBusinessUnit();
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(i % 2 ? a : b, unit)));
    const subjects = async () =>
      (
        (await a.call("GET", "/v1/notifications?limit=100", { as: unit })).body as {
          data: { subject: string; notification_type: string }[];
        }
      ).data;
    await expect
      .poll(async () => new Set((await subjects()).map((n) => n.subject)).size, { timeout: 60_000 })
      .toBe(ids.length);
    await a.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual" });
    const notifications = await subjects();
    const decisions = notifications.filter((n) => !n.notification_type.startsWith("application.attachment"));
    // One decision per application: a second decision would add a second notification of its outcome.
    expect(decisions.map((n) => n.subject).sort()).toEqual([...ids].sort());
  });
});

describe("background work across instances", () => {
  it("runs a job on one instance at a time: the other skips it while it runs", async () => {
    const url = await server.createDatabase();
    const [one, two] = await Promise.all([openPostgresStorage(url), openPostgresStorage(url)]);
    try {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started: () => void = () => undefined;
      const running = new Promise<void>((resolve) => (started = resolve));
      const first = one.exclusively("processing", async () => {
        started();
        await held;
      });
      await running;
      expect(await two.exclusively("processing", async () => undefined)).toBe(false);
      expect(await two.exclusively("retention", async () => undefined)).toBe(true);
      release();
      expect(await first).toBe(true);
      expect(await two.exclusively("processing", async () => undefined)).toBe(true);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("hears another instance's committed changes, and not its own twice", async () => {
    const url = await server.createDatabase();
    const [one, two] = await Promise.all([openPostgresStorage(url), openPostgresStorage(url)]);
    try {
      const heardByOne: string[] = [];
      const heardByTwo: string[] = [];
      one.onStateChanged(async () => void heardByOne.push("state"));
      two.onStateChanged(async () => void heardByTwo.push("state"));
      // Each time, right after the commit returns: a barrier that let a committed change through unheard fails here.
      for (let round = 1; round <= 200; round += 1) {
        await one.putSetting(`key-${randomUUID()}`, round);
        await two.sync();
        expect(heardByTwo).toHaveLength(round);
      }
      expect(heardByOne).toEqual([]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("makes one round trip for all the syncs asked in one turn of the event loop", async () => {
    const url = await server.createDatabase();
    const [one, two] = await Promise.all([openPostgresStorage(url), openPostgresStorage(url)]);
    const barriers = () => storeFigure(one, "barriers_total");
    try {
      const heard: string[] = [];
      one.onStateChanged(async () => void heard.push("state"));
      await two.putSetting(`key-${randomUUID()}`, 1);
      const before = barriers() ?? Number.NaN;
      await Promise.all(Array.from({ length: 20 }, () => one.sync()));
      expect(barriers()).toBe(before + 1);
      expect(heard).toEqual(["state"]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
