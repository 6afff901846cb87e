import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isConstraintViolation } from "../src/storage/errors.js";
import { openPostgresStorage } from "../src/storage/postgres/postgres-storage.js";
import { openSqliteStorage } from "../src/storage/sqlite/sqlite-storage.js";
import type {
  ApplicationRow,
  ApplicationStore,
  AuditEntryRow,
  AuditQuery,
  AuditStore,
  BusinessUnitStore,
  DocumentStore,
  IdempotencyClaim,
  NotificationRow,
  NotificationStore,
  SettingStore,
  Storage,
  StoreLifecycle,
  TitleEnquiryStore,
} from "../src/storage/storage.js";
import { readinessStorePart } from "../src/readiness/store/part.js";
import type { ReadinessObservationRow, ReadinessRunRow, ReadinessStore } from "../src/readiness/store/port.js";
import { idempotencyKey, startGateway, submission, type TestGateway } from "./support/gateway.js";
import { startPostgres, type TestPostgres } from "../src/testing/postgres.js";

/**
 * One contract, two stores: every test below runs against the embedded SQLite store and against PostgreSQL (a
 * server these tests start), so that both implement exactly the same behaviour behind `Storage`. The store's cases are
 * grouped by port (`storage/ports/`, and the readiness runs' store part, `readiness/store/`), one `describe` each.
 */
let server: TestPostgres;
const directories: string[] = [];

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server.stop();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "lrg-contract-"));
  directories.push(directory);
  return directory;
}

const backends: {
  name: string;
  kind: "sqlite" | "postgresql";
  open: () => Promise<Storage & ReadinessStore>;
  gatewayOptions: () => Promise<{ databaseUrl?: string }>;
}[] = [
  {
    name: "SQLite",
    kind: "sqlite",
    open: async () => openSqliteStorage(temporaryDirectory(), { parts: [readinessStorePart] }),
    gatewayOptions: async () => ({}),
  },
  {
    name: "PostgreSQL",
    kind: "postgresql",
    open: async () => openPostgresStorage(await server.createDatabase(), { parts: [readinessStorePart] }),
    gatewayOptions: async () => ({ databaseUrl: await server.createDatabase() }),
  },
];

const NOW = Date.parse("2026-03-02T10:00:00.000Z");

function application(businessUnitId: string, overrides: Partial<ApplicationRow> = {}): ApplicationRow {
  return {
    id: randomUUID(),
    businessUnitId,
    status: "VALIDATING",
    registryReference: null,
    priorityMs: null,
    additionalProviderFilter: null,
    submission: { type: "REGISTER_UPDATE" },
    errors: [],
    warnings: ["w"],
    earlyCompletion: false,
    createdMs: NOW,
    updatedMs: NOW,
    decideAtMs: NOW + 1000,
    ...overrides,
  };
}

/** A fresh Idempotency-Key for an application a test only needs stored. */
const newKey = (): IdempotencyClaim => ({ key: randomUUID(), requestHash: "h", releasedBy: [] });

function notification(
  businessUnitId: string,
  applicationId: string,
  overrides: Partial<NotificationRow> = {},
): NotificationRow {
  return {
    id: randomUUID(),
    businessUnitId,
    applicationId,
    v1Type: "application.accepted",
    v0Type: "APPLICATION_ACCEPTED",
    v1Payload: { data: { v: 1 } },
    v0Payload: { data: { v: 0 } },
    v1Schema: "v1-schema",
    v0Schema: "v0-schema",
    eventMs: NOW,
    createdMs: NOW,
    status: "NEW",
    additionalProviderFilter: null,
    ...overrides,
  };
}

/**
 * What the cases of one port are given on each store: the port under test (`port`, typed as that port alone); the
 * store's other ports through which a case arranges what it needs and observes what the port's methods did elsewhere
 * (`beside`, typed as just those: the notifications an application's change raised, the unit a reset left); the
 * business unit made for each case; and which store it is.
 */
interface Given<Port, Beside = unknown> {
  readonly port: Port;
  readonly beside: Beside;
  readonly unit: string;
  readonly kind: "sqlite" | "postgresql";
}

/** The unit's notifications without a label as v1 lists them (of one status, when given), oldest first, 10 at most. */
function v1List(notifications: NotificationStore, businessUnitId: string, status?: "NEW" | "ACKNOWLEDGED") {
  return notifications.listNotifications({
    businessUnitId,
    version: "v1",
    ...(status !== undefined && { status }),
    additionalProviderFilter: null,
    limit: 10,
  });
}

/**
 * A second business unit, on a clock of its own a minute ahead of the global one and with these settings of its own;
 * answers its id.
 */
async function unitAhead(units: BusinessUnitStore, settings: Record<string, unknown>): Promise<string> {
  const ahead = randomUUID();
  await units.createBusinessUnit(
    { id: ahead, name: "Ahead", createdMs: NOW },
    { username: `user-${ahead}`, businessUnitId: ahead, passwordHash: "h", createdMs: NOW },
  );
  await units.putUnitSandboxState({ businessUnitId: ahead, clockOffsetMs: 60_000, settings });
  return ahead;
}

/** An application of the unit moved out of VALIDATING with the given notifications; answers its id. */
async function decided(
  applications: ApplicationStore,
  businessUnitId: string,
  notifications: (applicationId: string) => NotificationRow[],
  overrides: Partial<ApplicationRow> = {},
): Promise<string> {
  const row = application(businessUnitId, overrides);
  await applications.submitApplication(row, newKey());
  expect(
    await applications.changeApplication({
      applicationId: row.id,
      fromStatus: "VALIDATING",
      patch: { status: "ACCEPTED" },
      updatedMs: NOW,
      notifications: notifications(row.id),
    }),
  ).toBe(true);
  return row.id;
}

/** Two notifications of one decided application of the unit, oldest first. */
async function twoDecidedNotifications(applications: ApplicationStore, notifications: NotificationStore, unit: string) {
  await decided(applications, unit, (id) => [notification(unit, id), notification(unit, id)]);
  return v1List(notifications, unit);
}

/** The business units: units and users, tokens, a unit's own state and its reset. */
function businessUnitCases(given: Given<BusinessUnitStore, ApplicationStore & SettingStore>): void {
  it("keeps business units and users, and changes a password", async () => {
    const { port: units, unit } = given;
    expect(await units.findBusinessUnit(unit)).toEqual({ id: unit, name: "Unit", createdMs: NOW, tokenHash: null });
    expect(await units.findUser(`user-${unit}`)).toEqual({
      username: `user-${unit}`,
      businessUnitId: unit,
      passwordHash: "hash-1",
      createdMs: NOW,
    });
    await units.setPasswordHash(`user-${unit}`, "hash-2");
    expect((await units.findUser(`user-${unit}`))?.passwordHash).toBe("hash-2");
    expect(await units.findUser("nobody-of-that-name")).toBeUndefined();
    expect(await units.findBusinessUnit(randomUUID())).toBeUndefined();
  });

  it("finds a business unit by its token hash, and replaces the hash", async () => {
    const { port: units } = given;
    const other = randomUUID();
    await units.createBusinessUnit(
      { id: other, name: "Other", createdMs: NOW, tokenHash: `hash-${other}` },
      { username: `user-${other}`, businessUnitId: other, passwordHash: "h", createdMs: NOW },
    );
    expect(await units.findBusinessUnitByTokenHash(`hash-${other}`)).toEqual({
      id: other,
      name: "Other",
      createdMs: NOW,
      tokenHash: `hash-${other}`,
    });
    expect(await units.setTokenHash(other, `rotated-${other}`)).toBe(true);
    expect(await units.findBusinessUnitByTokenHash(`hash-${other}`)).toBeUndefined();
    expect((await units.findBusinessUnitByTokenHash(`rotated-${other}`))?.id).toBe(other);
    expect(await units.setTokenHash(randomUUID(), "x")).toBe(false);
  });

  it("keeps a unit's own clock and settings, and resets one unit alone", async () => {
    const { port: units, beside: store, unit } = given;
    const ahead = await unitAhead(units, { processing: "manual" });
    expect(await units.unitSandboxStates()).toContainEqual({
      businessUnitId: ahead,
      clockOffsetMs: 60_000,
      settings: { processing: "manual" },
    });
    const mine = application(unit, { decideAtMs: NOW + 30_000 });
    const theirs = application(ahead, { decideAtMs: NOW + 30_000 });
    await store.submitApplication(mine, newKey());
    await store.submitApplication(theirs, newKey());

    // A reset of one unit: its records, rate-limit buckets and own state go; the unit, its user and others stay.
    await store.putSetting(`rate_limit.names.${ahead}\nuser`, 1);
    await store.putSetting(`rate_limit.names.${unit}\nuser`, 1);
    await units.resetBusinessUnit(ahead, [`rate_limit.%.${ahead}\n%`]);
    expect(await store.findApplication(theirs.id)).toBeUndefined();
    expect(await store.findApplication(mine.id)).toBeDefined();
    expect(await store.getSetting(`rate_limit.names.${ahead}\nuser`)).toBeUndefined();
    expect(await store.getSetting(`rate_limit.names.${unit}\nuser`)).toBe(1);
    expect((await units.unitSandboxStates()).map((state) => state.businessUnitId)).not.toContain(ahead);
    expect(await units.findBusinessUnit(ahead)).toBeDefined();
    expect(await units.findUser(`user-${ahead}`)).toBeDefined();
  });
}

/** Settings: JSON by key, and atomic changes of one. */
function settingCases(given: Given<SettingStore, StoreLifecycle>): void {
  it("keeps settings as JSON, the last write winning", async () => {
    const { port: settings, unit } = given;
    const key = `k-${unit}`;
    expect(await settings.getSetting(key)).toBeUndefined();
    await settings.putSetting(key, { a: 1 });
    await settings.putSetting(key, { a: 2, b: [true, null] });
    expect(await settings.getSetting(key)).toEqual({ a: 2, b: [true, null] });
  });

  it("changes a setting atomically: concurrent changes of one key lose none, each seeing the one before", async () => {
    const { port: settings } = given;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 24 }), async (changes) => {
        const key = `counter-${randomUUID()}`;
        const increment = () =>
          settings.updateSetting<number, number>(key, (current = 0) => ({ value: current + 1, answer: current + 1 }));
        const answers = await Promise.all(Array.from({ length: changes }, increment));
        expect([...answers].sort((a, b) => a - b)).toEqual(Array.from({ length: changes }, (_, i) => i + 1));
        expect(await settings.getSetting(key)).toBe(changes);
      }),
      { numRuns: 8 },
    );
  });

  it("writes nothing for a change that keeps the value, and loses no change made beside it", async () => {
    const { port: settings, beside: store } = given;
    const key = `kept-${randomUUID()}`;
    await settings.putSetting(key, 0);
    // What a write costs, by store: a group commit of the SQLite writer; on PostgreSQL, a transaction of 5 queries
    // where reading alone is one.
    const figure = (name: string) => store.describe().figures.find((f) => f.name === name)?.value ?? NaN;
    const cost = () => (given.kind === "sqlite" ? figure("group_commits_total") : figure("queries_total"));
    const before = cost();
    for (let i = 0; i < 5; i += 1)
      expect(
        await settings.updateSetting<number, number>(key, (current = 0) => ({ value: current, answer: current })),
      ).toBe(0);
    expect(cost() - before).toBe(given.kind === "sqlite" ? 0 : 5);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 24 }), async (kinds) => {
        const counter = `kept-${randomUUID()}`;
        const answers = await Promise.all(
          kinds.map((increments) =>
            settings.updateSetting<number, number>(counter, (current = 0) =>
              increments ? { value: current + 1, answer: current + 1 } : { value: current, answer: current },
            ),
          ),
        );
        const incremented = kinds.filter(Boolean).length;
        // (A key not yet stored gets the kept value written once: 0.)
        expect(await settings.getSetting(counter)).toBe(incremented);
        // Every increment saw the one before; every kept value was one of the counter's values.
        expect(answers.filter((_, i) => kinds[i]).sort((a, b) => a - b)).toEqual(
          Array.from({ length: incremented }, (_, i) => i + 1),
        );
        for (const answer of answers) expect(answer).toBeLessThanOrEqual(incremented);
      }),
      { numRuns: 8 },
    );
  });
}

/** Applications: submission under a key, changes with what they raise, due decisions, attachments. */
function applicationCases(given: Given<ApplicationStore, BusinessUnitStore & NotificationStore>): void {
  it("answers an idempotency key once: replayed with the same request, conflict with another, released only by a status the claim names", async () => {
    const { port: applications, unit } = given;
    const claim = (requestHash: string, releasedBy: string[] = []): IdempotencyClaim => ({
      key: "k",
      requestHash,
      releasedBy,
    });
    const first = application(unit);
    expect(await applications.submitApplication(first, claim("a"))).toEqual({
      kind: "created",
      applicationId: first.id,
    });
    expect(await applications.submitApplication(application(unit), claim("a"))).toEqual({
      kind: "replayed",
      applicationId: first.id,
    });
    expect(await applications.submitApplication(application(unit), claim("b"))).toEqual({ kind: "conflict" });
    expect(await applications.findApplication(first.id)).toEqual(first);
    expect(await applications.findApplication(first.id, randomUUID())).toBeUndefined();

    await applications.changeApplication({
      applicationId: first.id,
      fromStatus: "VALIDATING",
      patch: { status: "SYSTEM_ERROR" },
      updatedMs: NOW,
      notifications: [],
    });
    expect(await applications.submitApplication(application(unit), claim("a", ["CANCELLED"]))).toEqual({
      kind: "replayed",
      applicationId: first.id,
    });
    const retry = application(unit);
    expect(await applications.submitApplication(retry, claim("b", ["SYSTEM_ERROR"]))).toEqual({
      kind: "created",
      applicationId: retry.id,
    });
    expect(await applications.submitApplication(application(unit), claim("b", ["SYSTEM_ERROR"]))).toEqual({
      kind: "replayed",
      applicationId: retry.id,
    });
  });

  it("changes an application only from the status named, with its notifications and correspondence", async () => {
    const { port: applications, beside: store, unit } = given;
    const row = application(unit, { earlyCompletion: true });
    await applications.submitApplication(row, newKey());
    expect(
      await applications.applicationsDue({ realMs: NOW + 1000, globalOffsetMs: 0, processing: "automatic" }, 10),
    ).toContainEqual(row);
    const change = {
      applicationId: row.id,
      fromStatus: "VALIDATING",
      patch: {
        status: "COMPLETED",
        registryReference: `R-${row.id}`,
        priorityMs: NOW,
        errors: [{ type: "E", detail: "d", pointer: null }],
        warnings: [],
        decideAtMs: null,
      },
      updatedMs: NOW + 5,
      notifications: [notification(unit, row.id)],
      correspondence: { recordId: randomUUID(), applicationId: row.id, documents: [{ code: "X" }], createdMs: NOW },
    };
    expect(await applications.changeApplication(change)).toBe(true);
    const { correspondence: _recorded, ...again } = change;
    expect(await applications.changeApplication({ ...again, notifications: [notification(unit, row.id)] })).toBe(false);
    expect(await applications.findApplication(row.id)).toEqual({ ...row, ...change.patch, updatedMs: NOW + 5 });
    expect((await applications.applicationsWithStatus("COMPLETED")).map((a) => a.id)).toContain(row.id);
    // Counted by the store, as the day list does, and the same as the rows read.
    const completed = await applications.applicationsWithStatus("COMPLETED");
    expect(await applications.countApplications("COMPLETED")).toBe(completed.length);
    expect(await applications.countApplications("COMPLETED", unit)).toBe(
      completed.filter((a) => a.businessUnitId === unit).length,
    );
    expect(await applications.countApplications("COMPLETED", unit)).toBeGreaterThan(0);
    expect(await applications.countApplications("COMPLETED", randomUUID())).toBe(0);
    expect(await applications.correspondenceOf(row.id)).toEqual([change.correspondence]);
    expect(await v1List(store, unit)).toHaveLength(1);
  });

  it("finds a unit's applications that completed early, oldest first, and no other", async () => {
    const { port: applications, beside: store, unit } = given;
    const other = randomUUID();
    await store.createBusinessUnit(
      { id: other, name: "Other", createdMs: NOW },
      { username: `user-${other}`, businessUnitId: other, passwordHash: "hash-1", createdMs: NOW },
    );
    const completedEarly = { status: "COMPLETED", earlyCompletion: true, decideAtMs: null };
    const later = application(unit, { ...completedEarly, createdMs: NOW + 2 });
    const sooner = application(unit, { ...completedEarly, createdMs: NOW + 1 });
    const rows = [
      later,
      sooner,
      application(unit, { ...completedEarly, earlyCompletion: false }),
      application(unit, { ...completedEarly, status: "CANCELLED" }),
      application(other, completedEarly),
    ];
    for (const row of rows) await applications.submitApplication(row, newKey());
    expect((await applications.earlyCompletedApplications(unit)).map((a) => a.id)).toEqual([sooner.id, later.id]);
    expect(await applications.earlyCompletedApplications(other)).toEqual([rows[4]]);
  });

  it("refuses a registry reference held by another application with a constraint violation, changing nothing", async () => {
    const { port: applications, beside: store, unit } = given;
    const reference = `R-${randomUUID()}`;
    const [first, second] = [application(unit), application(unit)];
    for (const row of [first, second]) await applications.submitApplication(row, newKey());
    await applications.changeApplication({
      applicationId: first.id,
      fromStatus: "VALIDATING",
      patch: { registryReference: reference },
      updatedMs: NOW,
      notifications: [],
    });
    const refused = applications.changeApplication({
      applicationId: second.id,
      fromStatus: "VALIDATING",
      patch: { registryReference: reference },
      updatedMs: NOW,
      notifications: [notification(unit, second.id)],
    });
    await expect(
      refused.then(
        () => "applied",
        (error: unknown) => isConstraintViolation(error),
      ),
    ).resolves.toBe(true);
    expect((await applications.findApplication(second.id))?.registryReference).toBeNull();
    expect(await v1List(store, unit)).toEqual([]);
  });

  it("finds due decisions by each unit's clock and processing", async () => {
    const { port: applications, beside: store, unit } = given;
    const ahead = await unitAhead(store, { processing: "manual" });
    const mine = application(unit, { decideAtMs: NOW + 30_000 });
    const theirs = application(ahead, { decideAtMs: NOW + 30_000 });
    await applications.submitApplication(mine, newKey());
    await applications.submitApplication(theirs, newKey());
    const due = async (processing: string) =>
      (await applications.applicationsDue({ realMs: NOW, globalOffsetMs: 0, processing }, 100)).map((a) => a.id);
    // By real time neither is due; the ahead unit's clock is a minute on, but its processing is manual.
    expect(await due("automatic")).not.toContain(mine.id);
    expect(await due("automatic")).not.toContain(theirs.id);
    await store.putUnitSandboxState({
      businessUnitId: ahead,
      clockOffsetMs: 60_000,
      settings: { duplicate_rate: 0 },
    });
    expect(await due("automatic")).toContain(theirs.id);
    expect(await due("manual")).not.toContain(theirs.id);
    expect(await due("manual")).not.toContain(mine.id);
  });

  it("numbers attachments and decides each once, with its notification", async () => {
    const { port: applications, beside: store, unit } = given;
    const row = application(unit);
    await applications.submitApplication(row, newKey());
    const base = {
      applicationId: row.id,
      businessUnitId: unit,
      documentId: null,
      certificationStatementType: null,
      createdMs: NOW,
    };
    const first = await applications.insertAttachment({ ...base, kind: "MESSAGE", messageText: "hello" });
    const second = await applications.insertAttachment({ ...base, kind: "MESSAGE", messageText: "again" });
    expect(second).toBeGreaterThan(first);
    expect((await applications.pendingAttachments(100)).filter((a) => a.applicationId === row.id)).toEqual([
      { ...base, id: first, kind: "MESSAGE", messageText: "hello", status: "PENDING", failureReason: null },
      { ...base, id: second, kind: "MESSAGE", messageText: "again", status: "PENDING", failureReason: null },
    ]);
    expect(
      await applications.resolveAttachment(first, { status: "FAILED", failureReason: "no" }, [
        notification(unit, row.id),
      ]),
    ).toBe(true);
    expect(
      await applications.resolveAttachment(first, { status: "ATTACHED", failureReason: null }, [
        notification(unit, row.id),
      ]),
    ).toBe(false);
    expect(await v1List(store, unit)).toHaveLength(1);
  });
}

/** Notifications: each version's lists, creation instants, acknowledgements and who hears of them, retention. */
function notificationCases(given: Given<NotificationStore, ApplicationStore & BusinessUnitStore>): void {
  it("lists notifications oldest first with every filter, each version its own view", async () => {
    const { port: notifications, beside: store, unit } = given;
    const a = await decided(store, unit, (id) => [
      notification(unit, id, { eventMs: NOW - 10 }),
      notification(unit, id, {
        v0Type: null,
        v0Payload: null,
        v0Schema: null,
        v1Type: "application.attachment-failed",
      }),
    ]);
    const b = await decided(store, unit, (id) => [notification(unit, id, { additionalProviderFilter: "label" })], {
      additionalProviderFilter: "label",
    });
    const base = { businessUnitId: unit, additionalProviderFilter: null, limit: 100 } as const;
    const v1 = await notifications.listNotifications({ ...base, version: "v1" });
    expect(v1.map((n) => n.type)).toEqual(["application.accepted", "application.attachment-failed"]);
    expect(v1[0]).toMatchObject({
      applicationId: a,
      schema: "v1-schema",
      payloadJson: JSON.stringify({ data: { v: 1 } }),
      eventMs: NOW - 10,
      status: "NEW",
      additionalProviderFilter: null,
    });
    expect(v1[1]!.createdMs).toBeGreaterThan(v1[0]!.createdMs);
    const v0 = await notifications.listNotifications({ ...base, version: "v0" });
    expect(v0.map((n) => [n.type, n.schema, n.payloadJson])).toEqual([
      ["APPLICATION_ACCEPTED", "v0-schema", JSON.stringify({ data: { v: 0 } })],
    ]);
    expect(await notifications.listNotifications({ ...base, version: "v1", limit: 1 })).toEqual([v1[0]]);
    expect(await notifications.listNotifications({ ...base, version: "v1", createdAfterMs: v1[0]!.createdMs })).toEqual(
      [v1[1]],
    );
    expect(
      await notifications.listNotifications({ ...base, version: "v1", createdBeforeMs: v1[1]!.createdMs }),
    ).toEqual([v1[0]]);
    expect(await notifications.listNotifications({ ...base, version: "v1", occurredBeforeMs: NOW - 5 })).toEqual([
      v1[0],
    ]);
    expect(await notifications.listNotifications({ ...base, version: "v1", occurredAfterMs: NOW - 5 })).toEqual([
      v1[1],
    ]);
    expect(
      await notifications.listNotifications({
        ...base,
        version: "v1",
        notificationType: "application.attachment-failed",
      }),
    ).toEqual([v1[1]]);
    expect(await notifications.listNotifications({ ...base, version: "v1", subject: b })).toEqual([]);
    const labelled = await notifications.listNotifications({
      ...base,
      version: "v1",
      additionalProviderFilter: "label",
      subject: b,
    });
    expect(labelled.map((n) => n.applicationId)).toEqual([b]);
    expect(await notifications.listNotifications({ ...base, businessUnitId: randomUUID(), version: "v1" })).toEqual([]);
  });

  it("gives notifications strictly increasing creation instants, even when they were stamped alike", async () => {
    const { port: notifications, beside: store, unit } = given;
    await decided(store, unit, (id) => [1, 2, 3].map(() => notification(unit, id, { createdMs: NOW })));
    await decided(store, unit, (id) => [notification(unit, id, { createdMs: NOW })]);
    const created = (await v1List(notifications, unit)).map((n) => n.createdMs);
    expect(created).toHaveLength(4);
    for (let i = 1; i < created.length; i += 1) expect(created[i]).toBeGreaterThan(created[i - 1]!);
  });

  it("sequences creation instants per business unit: a unit whose clock is months ahead carries no other along", async () => {
    const { port: notifications, beside: store, unit } = given;
    const ahead = randomUUID();
    await store.createBusinessUnit(
      { id: ahead, name: "Ahead", createdMs: NOW },
      { username: `user-${ahead}`, businessUnitId: ahead, passwordHash: "h", createdMs: NOW },
    );
    const months = 180 * 24 * 3600 * 1000;
    await decided(store, unit, (id) => [notification(unit, id, { createdMs: NOW + 10 })]);
    const theirs = application(ahead);
    await store.submitApplication(theirs, newKey());
    await store.changeApplication({
      applicationId: theirs.id,
      fromStatus: "VALIDATING",
      patch: { status: "ACCEPTED" },
      updatedMs: NOW + months,
      notifications: [notification(ahead, theirs.id, { createdMs: NOW + months })],
    });
    // Stamped before the unit's last one but committed after it, and after the other unit's: moved after the
    // unit's last, so that a reader paging with created_after past that one still finds it.
    await decided(store, unit, (id) => [notification(unit, id, { createdMs: NOW + 5 })]);
    const createdOf = async (businessUnitId: string) =>
      (await v1List(notifications, businessUnitId)).map((n) => n.createdMs);
    // Each unit's own sequence still strictly increases; neither takes the other's instants.
    expect(await createdOf(unit)).toEqual([NOW + 10, NOW + 11]);
    expect(await createdOf(ahead)).toEqual([NOW + months]);
  });

  it("acknowledges only the unit's own notifications, answers the ids that exist, and tells the listeners", async () => {
    const { port: notifications, beside: store, unit } = given;
    const [first, second] = await twoDecidedNotifications(store, notifications, unit);
    const heard: (string | null)[] = [];
    notifications.onNotificationsChanged((changed) => heard.push(changed));
    const missing = randomUUID();
    expect(await notifications.acknowledgeNotifications(randomUUID(), [first!.id], NOW)).toEqual([]);
    expect(await notifications.acknowledgeNotifications(unit, [first!.id, first!.id, missing], NOW)).toEqual([
      first!.id,
    ]);
    expect(heard).toContain(unit);
    expect(await notifications.acknowledgeNotifications(unit, [first!.id], NOW)).toEqual([first!.id]);
    const fresh = await v1List(notifications, unit, "NEW");
    expect(fresh.map((n) => n.id)).toEqual([second!.id]);
    const done = await v1List(notifications, unit, "ACKNOWLEDGED");
    expect(done.map((n) => n.id)).toEqual([first!.id]);
  });

  it("announces an acknowledgement only when it changed a notification, and answers every id that exists in order", async () => {
    const { port: notifications, beside: store, unit } = given;
    const [first, second] = await twoDecidedNotifications(store, notifications, unit);
    const heard: (string | null)[] = [];
    notifications.onNotificationsChanged((changed) => heard.push(changed));
    expect(await notifications.acknowledgeNotifications(randomUUID(), [first!.id], NOW)).toEqual([]);
    expect(await notifications.acknowledgeNotifications(unit, [randomUUID()], NOW)).toEqual([]);
    expect(heard).toEqual([]);
    expect(await notifications.acknowledgeNotifications(unit, [first!.id], NOW)).toEqual([first!.id]);
    expect(heard).toEqual([unit]);
    // Acknowledging again changes nothing: no cached page needs dropping, on this instance or any other.
    expect(await notifications.acknowledgeNotifications(unit, [first!.id], NOW)).toEqual([first!.id]);
    expect(heard).toEqual([unit]);
    const missing = randomUUID();
    expect(await notifications.acknowledgeNotifications(unit, [missing, second!.id, first!.id], NOW)).toEqual([
      second!.id,
      first!.id,
    ]);
    expect(heard).toEqual([unit, unit]);
  });

  it("answers acknowledgements made together each for its own unit, and announces each unit changed", async () => {
    const { port: notifications, beside: store, unit } = given;
    const other = randomUUID();
    await store.createBusinessUnit(
      { id: other, name: "Other", createdMs: NOW },
      { username: `user-${other}`, businessUnitId: other, passwordHash: "hash-1", createdMs: NOW },
    );
    await decided(store, unit, (id) => [notification(unit, id), notification(unit, id)]);
    await decided(store, other, (id) => [notification(other, id)]);
    const fresh = async (businessUnitId: string) =>
      (await v1List(notifications, businessUnitId, "NEW")).map((n) => n.id);
    const [mine, alsoMine] = await fresh(unit);
    const [theirs] = await fresh(other);
    const heard: (string | null)[] = [];
    notifications.onNotificationsChanged((changed) => heard.push(changed));
    const missing = randomUUID();
    // Started in one turn of the event loop: PostgreSQL carries them in one statement, SQLite in one transaction.
    const answers = await Promise.all([
      notifications.acknowledgeNotifications(unit, [mine!, theirs!, missing], NOW),
      notifications.acknowledgeNotifications(other, [theirs!, alsoMine!], NOW),
      notifications.acknowledgeNotifications(unit, [mine!], NOW),
      notifications.acknowledgeNotifications(other, [missing], NOW),
    ]);
    expect(answers).toEqual([[mine], [theirs], [mine], []]);
    expect(await fresh(unit)).toEqual([alsoMine]);
    expect(await fresh(other)).toEqual([]);
    expect(new Set(heard)).toEqual(new Set([unit, other]));
  });

  it("purges notifications created before an instant", async () => {
    const { port: notifications, beside: store, unit } = given;
    await decided(store, unit, (id) => [notification(unit, id, { createdMs: 1 })]);
    expect(await notifications.purgeNotifications(2)).toBeGreaterThanOrEqual(1);
    // Gone from every view: NEW ones are found through their own table on PostgreSQL.
    for (const status of [undefined, "NEW", "ACKNOWLEDGED"] as const)
      expect(await v1List(notifications, unit, status)).toEqual([]);
  });

  it("purges by scope: the notifications of the units on the global clock, or of one unit", async () => {
    const { port: notifications, beside: store, unit } = given;
    const ahead = await unitAhead(store, { duplicate_rate: 0 });
    const theirs = application(ahead, { decideAtMs: NOW + 30_000 });
    await store.submitApplication(theirs, newKey());

    // Retention by scope: the units on the global clock, or one unit.
    // Instants well before the others' (a notification store sequences creation instants in commit order).
    const old = NOW - 5 * 24 * 3600 * 1000;
    const kept = await decided(store, unit, (id) => [notification(unit, id, { createdMs: old })]);
    await store.changeApplication({
      applicationId: theirs.id,
      fromStatus: "VALIDATING",
      patch: { status: "ACCEPTED" },
      updatedMs: NOW,
      notifications: [notification(ahead, theirs.id, { createdMs: old })],
    });
    const listed = async (businessUnitId: string) => (await v1List(notifications, businessUnitId)).length;
    await notifications.purgeNotifications(old + 60_000, "units-on-the-global-clock");
    expect(await listed(unit)).toBe(0);
    expect(await listed(ahead)).toBe(1);
    await notifications.purgeNotifications(old + 60_000, { businessUnitId: ahead });
    expect(await listed(ahead)).toBe(0);
    expect(kept).toBeDefined();
  });
}

/** Documents sent and the registry's documents. */
function documentCases(given: Given<DocumentStore>): void {
  it("keeps documents: an upload completes once, its check is recorded once", async () => {
    const { port: documents, unit } = given;
    const document = {
      id: randomUUID(),
      businessUnitId: unit,
      documentType: "TR1",
      fileLength: 10,
      fileSha256: "ab".repeat(32),
      status: "AWAITING_UPLOAD" as const,
      failureReason: null,
      createdMs: NOW,
      expiresMs: NOW + 1,
    };
    await documents.insertDocument(document);
    expect(await documents.findDocument(document.id, unit)).toEqual(document);
    expect(await documents.findDocument(document.id, randomUUID())).toBeUndefined();
    expect(await documents.completeUpload(document.id, NOW)).toBe(true);
    expect(await documents.completeUpload(document.id, NOW)).toBe(false);
    expect((await documents.documentsAwaitingCheck()).map((d) => d.id)).toContain(document.id);
    await documents.recordDocumentCheck(document.id, "REJECTED", "bad");
    await documents.recordDocumentCheck(document.id, "ACCEPTED", null);
    expect(await documents.findDocument(document.id)).toMatchObject({ status: "REJECTED", failureReason: "bad" });
    expect((await documents.documentsAwaitingCheck()).map((d) => d.id)).not.toContain(document.id);
  });

  it("keeps registry documents, the first write winning", async () => {
    const { port: documents, unit } = given;
    const document = {
      downloadId: randomUUID(),
      businessUnitId: unit,
      applicationId: null,
      code: "OC1",
      name: "register.pdf",
      contentType: "application/pdf",
      size: 9,
      createdMs: NOW,
    };
    await documents.putRegistryDocument(document);
    await documents.putRegistryDocument({ ...document, name: "other.pdf" });
    expect(await documents.findRegistryDocument(document.downloadId)).toEqual(document);
    expect(await documents.findRegistryDocument(randomUUID())).toBeUndefined();
  });
}

/** Official searches. */
function titleEnquiryCases(given: Given<TitleEnquiryStore>): void {
  it("keeps official searches once per message id and finds those with priority", async () => {
    const { port: searches, unit } = given;
    const search = {
      id: randomUUID(),
      businessUnitId: unit,
      username: "u",
      messageId: "m-1",
      titleNumber: "AB1",
      priorityType: "OS1",
      applicant: "A",
      receivedMs: NOW,
      readyMs: NOW,
      certificateMs: NOW,
      priorityExpiryDate: "2026-04-01",
      deferred: null,
      result: { ok: true },
    };
    expect(await searches.insertOfficialSearch(search)).toBe(true);
    expect(await searches.insertOfficialSearch({ ...search, id: randomUUID() })).toBe(false);
    expect(
      await searches.insertOfficialSearch({
        ...search,
        id: randomUUID(),
        messageId: "m-2",
        certificateMs: NOW + 5,
        deferred: { later: 1 },
      }),
    ).toBe(true);
    expect(await searches.findOfficialSearch(unit, "u", "m-1")).toEqual(search);
    expect((await searches.findOfficialSearch(unit, "u", "m-2"))?.deferred).toEqual({ later: 1 });
    expect(await searches.searchesWithPriority(unit, "AB1", NOW + 10, "2026-04-01", 10)).toEqual([
      { certificateMs: NOW, priorityType: "OS1", applicant: "A" },
      { certificateMs: NOW + 5, priorityType: "OS1", applicant: "A" },
    ]);
    expect(await searches.searchesWithPriority(unit, "AB1", NOW + 1, "2026-04-02", 10)).toEqual([]);
  });
}

/** The audit trail. */
function auditCases(given: Given<AuditStore, StoreLifecycle>): void {
  it("keeps audit entries oldest first with every filter, the newest per actor, across a reset", async () => {
    const { port: audit, beside: store, unit } = given;
    const other = randomUUID();
    const entry = (overrides: Partial<AuditEntryRow> = {}): Omit<AuditEntryRow, "sequence"> => ({
      recordedMs: NOW,
      clockMs: NOW + 86_400_000,
      actorKind: "unit",
      actorUnit: unit,
      operationId: "updateSettings",
      method: "PUT",
      path: "/sandbox/v1/settings",
      requestBody: { processing: "manual", nested: { list: [1, "two", null] } },
      status: 200,
      problemCode: null,
      requestId: "req-1",
      ...overrides,
    });
    const first = entry();
    const second = entry({
      recordedMs: NOW + 1000,
      operationId: "transitionApplication",
      method: "POST",
      path: `/sandbox/v1/applications/${randomUUID()}/transitions`,
      requestBody: null,
      status: 409,
      problemCode: "409-03",
      requestId: "req-2",
    });
    const a = await audit.appendAuditEntry(first, 100);
    const b = await audit.appendAuditEntry(second, 100);
    const c = await audit.appendAuditEntry(entry({ actorUnit: other }), 100);
    expect(b).toBeGreaterThan(a);
    expect(c).toBeGreaterThan(b);
    const mine = { actorKind: "unit" as const, actorUnit: unit, limit: 10 };
    expect(await audit.listAuditEntries(mine)).toEqual([
      { ...first, sequence: a },
      { ...second, sequence: b },
    ]);
    const sequences = async (query: Partial<AuditQuery>) =>
      (await audit.listAuditEntries({ ...mine, ...query })).map((row) => row.sequence);
    expect(await sequences({ afterSequence: a })).toEqual([b]);
    expect(await sequences({ limit: 1 })).toEqual([a]);
    expect(await sequences({ operationId: "transitionApplication" })).toEqual([b]);
    expect(await sequences({ recordedAfterMs: NOW })).toEqual([b]);
    expect(await sequences({ actorUnit: other })).toEqual([c]);
    expect(await sequences({ actorKind: "admin" })).toEqual([]);
    expect((await audit.listAuditEntries({ afterSequence: a, limit: 10 })).map((row) => row.sequence)).toEqual(
      expect.arrayContaining([b, c]),
    );

    // Retention counts per actor: the unit's oldest go, the other unit's entry stays.
    const d = await audit.appendAuditEntry(entry(), 2);
    const e = await audit.appendAuditEntry(entry(), 2);
    expect(await sequences({})).toEqual([d, e]);
    expect(await sequences({ actorUnit: other })).toEqual([c]);

    await store.reset();
    expect(await sequences({})).toEqual([d, e]);
  });
}

/** Readiness runs. */
function readinessCases(
  given: Given<
    ReadinessStore,
    ApplicationStore & BusinessUnitStore & DocumentStore & NotificationStore & StoreLifecycle
  >,
): void {
  it("keeps one running readiness run per unit with its stimulus (applications, notifications, correspondence, registry documents), its bounded observations, its end, and loses them with the unit's reset", async () => {
    const { port: runs, beside: store, unit } = given;
    const run = (overrides: Partial<ReadinessRunRow> = {}): ReadinessRunRow => ({
      id: randomUUID(),
      businessUnitId: unit,
      checks: ["paging"],
      timeLimitSeconds: 60,
      startedMs: NOW,
      deadlineMs: NOW + 60_000,
      status: "running",
      endedMs: null,
      stimulus: { paging: { notificationIds: ["n-1"] } },
      result: null,
      observationCount: 0,
      observationsDropped: 0,
      ...overrides,
    });
    const observation = (runId: string, count: number | null): Omit<ReadinessObservationRow, "sequence"> => ({
      runId,
      businessUnitId: unit,
      clockMs: NOW + 5,
      method: "POST",
      operationId: "acknowledgeNotificationsV1",
      query: { status: "NEW" },
      status: 200,
      credentialsSent: true,
      acknowledgedIds: count === null ? null : ["n-1"],
      acknowledgedCount: count,
      idempotencyKey: null,
      pathParameters: count === null ? { id: "a-1" } : {},
      retryAfterSeconds: count === null ? 2 : null,
      answerCode: count === null ? "429-01" : null,
      answerDetail: count === null ? "rate limit exceeded; retry after 2 seconds" : null,
      submissionCase:
        count === null ? null : { type: "REGISTER_UPDATE", customerReference: "C-1", titleNumbers: ["AB1"] },
    });
    const first = run();
    const stimulusApplication = application(unit, { status: "ACCEPTED_AWAITING_PRIORITY", decideAtMs: null });
    const raised = notification(unit, stimulusApplication.id);
    const registryDocument = (applicationId: string) => ({
      downloadId: randomUUID(),
      businessUnitId: unit,
      applicationId,
      code: "LTR",
      name: "Letter",
      contentType: "application/pdf",
      size: 9,
      createdMs: NOW,
    });
    const letter = registryDocument(stimulusApplication.id);
    const record = {
      recordId: randomUUID(),
      applicationId: stimulusApplication.id,
      documents: [{ download_id: letter.downloadId }],
      createdMs: NOW,
    };
    expect(
      await runs.startReadinessRun(first, {
        applications: [stimulusApplication],
        notifications: [raised],
        correspondence: [record],
        registryDocuments: [letter],
      }),
    ).toBe(true);
    expect((await store.findApplication(stimulusApplication.id))?.status).toBe("ACCEPTED_AWAITING_PRIORITY");
    expect(await store.correspondenceOf(stimulusApplication.id)).toEqual([record]);
    expect(await store.findRegistryDocument(letter.downloadId)).toEqual(letter);
    const listed = await v1List(store, unit);
    expect(listed.map((n) => n.id)).toEqual([raised.id]);

    // A second running run of the unit is refused whole: neither it nor its stimulus is written.
    const refusedApplication = application(unit);
    const refusedDocument = registryDocument(refusedApplication.id);
    expect(
      await runs.startReadinessRun(run(), {
        applications: [refusedApplication],
        notifications: [],
        correspondence: [{ ...record, recordId: randomUUID(), applicationId: refusedApplication.id }],
        registryDocuments: [refusedDocument],
      }),
    ).toBe(false);
    expect(await store.findApplication(refusedApplication.id)).toBeUndefined();
    expect(await store.correspondenceOf(refusedApplication.id)).toEqual([]);
    expect(await store.findRegistryDocument(refusedDocument.downloadId)).toBeUndefined();
    expect((await runs.runningReadinessRuns()).filter((r) => r.businessUnitId === unit)).toEqual([first]);
    expect(await runs.findReadinessRun(first.id)).toEqual(first);

    // Observations are numbered from 1 in the order of their batch, kept up to the bound, then counted as dropped.
    expect(await runs.appendReadinessObservations([observation(first.id, 1)], 2)).toEqual([true]);
    expect(await runs.appendReadinessObservations([observation(first.id, null), observation(first.id, 1)], 2)).toEqual([
      true,
      false,
    ]);
    expect(await runs.readinessObservations(first.id)).toEqual([
      { ...observation(first.id, 1), sequence: 1 },
      { ...observation(first.id, null), sequence: 2 },
    ]);
    expect(await runs.findReadinessRun(first.id)).toMatchObject({ observationCount: 2, observationsDropped: 1 });

    // Ended once; then nothing more is observed, and the unit may start again.
    const end = { status: "finished" as const, endedMs: NOW + 60_000, result: { verdict: "passed", checks: [] } };
    expect(await runs.endReadinessRun(first.id, end)).toBe(true);
    expect(await runs.endReadinessRun(first.id, { ...end, status: "cancelled" })).toBe(false);
    expect(await runs.findReadinessRun(first.id)).toMatchObject({
      status: "finished",
      endedMs: NOW + 60_000,
      result: end.result,
    });
    expect(await runs.appendReadinessObservations([observation(first.id, 1)], 10)).toEqual([false]);
    const second = run({ startedMs: NOW + 120_000, deadlineMs: NOW + 180_000 });
    expect(await runs.startReadinessRun(second, { applications: [], notifications: [] })).toBe(true);
    expect(await runs.appendReadinessObservations([observation(second.id, 1)], 10)).toEqual([true]);
    expect((await runs.listReadinessRuns({ businessUnitId: unit, limit: 10 })).map((r) => r.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect((await runs.listReadinessRuns({ businessUnitId: unit, limit: 1 })).map((r) => r.id)).toEqual([second.id]);

    await store.resetBusinessUnit(unit, []);
    expect(await runs.listReadinessRuns({ businessUnitId: unit, limit: 10 })).toEqual([]);
    expect(await runs.readinessObservations(first.id)).toEqual([]);
    expect(await runs.readinessObservations(second.id)).toEqual([]);
    expect(await runs.startReadinessRun(run(), { applications: [], notifications: [] })).toBe(true);
    await store.reset();
    expect(await runs.runningReadinessRuns()).toEqual([]);
  });
}

/** The store's own life: background jobs, health, reset. */
function lifecycleCases(
  given: Given<StoreLifecycle, ApplicationStore & BusinessUnitStore & NotificationStore & SettingStore>,
): void {
  it("runs a background job and answers that it ran; pings", async () => {
    const { port: lifecycle } = given;
    let ran = 0;
    expect(await lifecycle.exclusively("processing", async () => void (ran += 1))).toBe(true);
    expect(ran).toBe(1);
    expect(await lifecycle.ping()).toBe(true);
  });

  it("forgets everything on reset and tells the listeners every unit changed", async () => {
    const { port: lifecycle, beside: store, unit } = given;
    await decided(store, unit, (id) => [notification(unit, id)]);
    await store.putSetting("k", 1);
    const heard: (string | null)[] = [];
    store.onNotificationsChanged((changed) => heard.push(changed));
    await lifecycle.reset();
    expect(heard).toContain(null);
    expect(await store.findBusinessUnit(unit)).toBeUndefined();
    expect(await store.getSetting("k")).toBeUndefined();
    expect(await v1List(store, unit)).toEqual([]);
  });
}

describe.each(backends)("the storage contract on $name", (backend) => {
  let storage: Storage & ReadinessStore;
  let unit: string;

  beforeAll(async () => {
    storage = await backend.open();
  });
  afterAll(async () => {
    await storage.close();
  });
  beforeEach(async () => {
    unit = randomUUID();
    await storage.createBusinessUnit(
      { id: unit, name: "Unit", createdMs: NOW },
      { username: `user-${unit}`, businessUnitId: unit, passwordHash: "hash-1", createdMs: NOW },
    );
  });

  // One store, every port: each port's cases see it as that port, and as the ports beside it they name.
  const given = {
    get port() {
      return storage;
    },
    get beside() {
      return storage;
    },
    get unit() {
      return unit;
    },
    kind: backend.kind,
  };
  describe("BusinessUnitStore", () => businessUnitCases(given));
  describe("SettingStore", () => settingCases(given));
  describe("ApplicationStore", () => applicationCases(given));
  describe("NotificationStore", () => notificationCases(given));
  describe("DocumentStore", () => documentCases(given));
  describe("TitleEnquiryStore", () => titleEnquiryCases(given));
  describe("AuditStore", () => auditCases(given));
  describe("ReadinessStore", () => readinessCases(given));
  describe("StoreLifecycle", () => lifecycleCases(given));
});

describe.each(backends)("the gateway's HTTP interface on $name", (backend) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ ...(await backend.gatewayOptions()) });
  });
  afterAll(async () => {
    await gw.stop();
  });

  it("submits, replays, decides, lists and acknowledges; settings and the clock persist in the store", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
    const unit = await gw.newBusinessUnit();
    const key = idempotencyKey();
    const first = await gw.call("POST", "/v0/applications", {
      as: unit,
      body: submission(),
      headers: { "idempotency-key": key },
    });
    const replay = await gw.call("POST", "/v0/applications", {
      as: unit,
      body: submission(),
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(202);
    expect(replay.body).toEqual(first.body);
    const id = (first.body as { data: { application_request_id: string } }).data.application_request_id;
    await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    const listed = await gw.call("GET", "/v1/notifications?status=NEW", { as: unit });
    const ids = (listed.body as { data: { notification_id: string }[] }).data.map((n) => n.notification_id);
    expect(ids.length).toBeGreaterThan(0);
    expect((await gw.call("POST", "/v1/notifications/acknowledge", { as: unit, body: { data: ids } })).status).toBe(
      200,
    );
    expect((await gw.call("GET", "/v1/notifications?status=NEW", { as: unit })).body).toMatchObject({ data: [] });

    expect((await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 3600 })).status).toBe(200);
    const storage = gw.gateway.storage;
    expect(await storage.getSetting("sandbox.clock_offset_ms")).toBeGreaterThanOrEqual(3_599_000);
    expect(await storage.getSetting("sandbox.settings")).toMatchObject({ processing: "manual", duplicate_rate: 0 });
  });

  it("records control-plane actions in the audit trail and lists them after a reset", async () => {
    const changed = await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
    expect((await gw.sandbox("POST", "/sandbox/v1/reset")).status).toBe(204);
    const listed = await gw.sandbox("GET", "/sandbox/v1/audit?operation_id=setDayList");
    const entries = (listed.body as { data: { request_id: string; status: number }[] }).data;
    expect(entries.find((entry) => entry.request_id === changed.headers.get("x-request-id"))?.status).toBe(200);
    const resets = await gw.sandbox("GET", "/sandbox/v1/audit?operation_id=resetSandbox&actor=admin");
    expect((resets.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it("reports the database in /readyz and its figures in /metrics", async () => {
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: "ready",
      database: { kind: backend.kind, reachable: true, writable: true },
      blobs: { kind: "directory", reachable: true, writable: true },
    });
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    const figure = backend.kind === "postgresql" ? "lrg_db_queries_total" : "lrg_db_pending_writes";
    expect(metrics).toMatch(new RegExp(`^${figure}\\{database="${backend.kind}"\\} \\d+$`, "m"));
    if (backend.kind === "postgresql")
      expect(metrics).toMatch(/^lrg_db_pool_connections\{database="postgresql"\} [1-9]\d*$/m);
    // Every confirmed write waited for a flush of the WAL (the suite above wrote many).
    else expect(metrics).toMatch(/^lrg_db_wal_flushes_total\{database="sqlite"\} [1-9]\d*$/m);
  });
});
