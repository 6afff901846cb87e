import type pg from "pg";
import { json, toNotificationListing, type ListingColumns } from "../rows.js";
import type { NotificationRow, NotificationStore } from "../ports/notifications.js";
import type { StoreFigures } from "../storage.js";
import { CHANNEL, type ChangeMessage } from "./change-channel.js";
import type { PostgresDatabase } from "./database.js";
import { StatementGroups } from "./statement-groups.js";

/** One request's acknowledgement: its unit, and the ids it names (each once). */
interface Acknowledgement {
  businessUnitId: string;
  ids: string[];
}

/** The acknowledgements of this instance, each group in one statement, at most `inFlight` at once. */
export type Acknowledgements = StatementGroups<Acknowledgement, string[]>;

/** Acknowledges each group of jobs in one statement, a bounded number at once (see `StatementGroups`). */
export function acknowledgementsOf(db: PostgresDatabase, inFlight: number): Acknowledgements {
  return new StatementGroups((jobs) => acknowledgeTogether(db, jobs), { inFlight });
}

/** Notifications on PostgreSQL: a notification is NEW while it has its row in new_notifications (migration 1004). */
export function postgresNotifications(db: PostgresDatabase, acknowledgements: Acknowledgements): NotificationStore {
  return {
    async listNotifications(query) {
      // NEW ones are found through new_notifications (its index orders them by creation); the rest through
      // notifications_by_unit_created, each one's row in new_notifications looked up by its key.
      const fromNew = query.status === "NEW";
      const key = fromNew ? "q." : "n.";
      const values: unknown[] = [query.businessUnitId];
      const where = [`${key}business_unit_id = $1`];
      const add = (condition: (placeholder: string) => string, value: unknown): void => {
        values.push(value);
        where.push(condition(`$${values.length}`));
      };
      if (query.status === "ACKNOWLEDGED") where.push("q.seq IS NULL");
      if (query.version === "v0") where.push("v0_type IS NOT NULL");
      if (query.createdAfterMs !== undefined) add((p) => `${key}created_ms > ${p}`, query.createdAfterMs);
      if (query.createdBeforeMs !== undefined) add((p) => `${key}created_ms < ${p}`, query.createdBeforeMs);
      if (query.occurredAfterMs !== undefined) add((p) => `event_ms > ${p}`, query.occurredAfterMs);
      if (query.occurredBeforeMs !== undefined) add((p) => `event_ms < ${p}`, query.occurredBeforeMs);
      if (query.notificationType !== undefined)
        add((p) => `${query.version === "v0" ? "v0_type" : "v1_type"} = ${p}`, query.notificationType);
      if (query.subject !== undefined) add((p) => `application_id = ${p}`, query.subject);
      if (query.additionalProviderFilter === null) where.push("additional_provider_filter IS NULL");
      else add((p) => `additional_provider_filter = ${p}`, query.additionalProviderFilter);
      values.push(query.limit);
      const v = query.version;
      const text = `SELECT n.id, n.application_id, n.${v}_type, n.${v}_schema, n.${v}_payload, n.event_ms, n.created_ms,
          CASE WHEN q.seq IS NULL THEN 'ACKNOWLEDGED' ELSE 'NEW' END, n.additional_provider_filter
        FROM ${fromNew ? "new_notifications q JOIN notifications n ON n.seq = q.seq" : "notifications n LEFT JOIN new_notifications q ON q.seq = n.seq"}
        WHERE ${where.join(" AND ")} ORDER BY ${key}created_ms, ${key}seq LIMIT $${values.length}`;
      return (await db.queryArrays<ListingColumns>(text, values)).map(toNotificationListing);
    },

    async acknowledgeNotifications(businessUnitId, ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return [];
      return acknowledgements.submit({ businessUnitId, ids: unique });
    },

    async purgeNotifications(createdBeforeMs, scope) {
      return db.transaction(async (client, changed) => {
        const purge =
          scope === undefined
            ? db.query("DELETE FROM notifications WHERE created_ms < $1", [createdBeforeMs], client)
            : scope === "units-on-the-global-clock"
              ? db.query(
                  "DELETE FROM notifications WHERE created_ms < $1 AND business_unit_id NOT IN (SELECT id FROM business_units WHERE clock_offset_ms IS NOT NULL)",
                  [createdBeforeMs],
                  client,
                )
              : db.query(
                  "DELETE FROM notifications WHERE created_ms < $1 AND business_unit_id = $2",
                  [createdBeforeMs, scope.businessUnitId],
                  client,
                );
        const deleted = (await purge).rowCount ?? 0;
        if (deleted > 0) changed.push({ kind: "notifications", businessUnitId: null });
        return deleted;
      });
    },

    onNotificationsChanged(listener) {
      db.changes.onNotificationsChanged(listener);
    },
  };
}

/**
 * One statement for a group of acknowledgements, so one round trip and one commit (autocommit): the ids that exist
 * among each unit's own, looked up once (`found`, in the statement's snapshot); their removal from
 * new_notifications, which is the acknowledgement (migration 1004; the row locks decide which of two concurrent
 * acknowledgements of an id removes it); and one announcement per unit whose notifications changed (NOTIFY,
 * delivered at commit: acknowledging again drops no instance's cache).
 *
 * The removal takes its rows by one index scan over the array of sequence numbers, which the index walks in
 * ascending order: every acknowledgement statement, of any instance, locks the rows it shares with another in the
 * same order, so two cannot deadlock. (With `seq IN (SELECT ...)` the rows came in the order of a hash table sized
 * by each statement's own ids, which two statements of different sizes need not share; the index scan is also the
 * cheaper: 0.27 ms against 0.47 for 100 ids on the benchmark's data set.)
 */
async function acknowledgeTogether(db: PostgresDatabase, jobs: Acknowledgement[]): Promise<string[][]> {
  const units = jobs.flatMap((job) => job.ids.map(() => job.businessUnitId));
  const ids = jobs.flatMap((job) => job.ids);
  // A row per id found, then a row per unit announced (its id null).
  const { rows } = await db.query<{ business_unit_id: string; id: string | null }>(
    `WITH asked AS (
       SELECT * FROM unnest($1::text[], $2::text[]) AS a(business_unit_id, id)
     ), found AS MATERIALIZED (
       SELECT n.seq, n.id, n.business_unit_id FROM asked a
         JOIN notifications n ON n.id = a.id AND n.business_unit_id = a.business_unit_id
     ), acknowledged AS (
       DELETE FROM new_notifications WHERE seq = ANY (ARRAY(SELECT seq FROM found)) RETURNING business_unit_id
     ), announced AS (
       SELECT u.business_unit_id,
         pg_notify($3, json_build_object('kind', 'notifications', 'businessUnitId', u.business_unit_id, 'from', $4::text)::text)
       FROM (SELECT DISTINCT business_unit_id FROM acknowledged) u
     )
     SELECT business_unit_id, id FROM found
     UNION ALL SELECT business_unit_id, NULL FROM announced`,
    [units, ids, CHANNEL, db.changes.instance],
  );
  const found = new Set<string>();
  for (const row of rows) {
    if (row.id === null) db.changes.announce({ kind: "notifications", businessUnitId: row.business_unit_id });
    else found.add(`${row.business_unit_id}\n${row.id}`);
  }
  return jobs.map((job) => job.ids.filter((id) => found.has(`${job.businessUnitId}\n${id}`)));
}

/** The acknowledgements' figures, for /metrics. */
export function acknowledgementFigures(acknowledgements: Acknowledgements): StoreFigures["figures"] {
  return [
    {
      name: "acknowledge_statements_limit",
      help: "Most acknowledgement statements this instance runs at once (LRG_DATABASE_ACKNOWLEDGE_STATEMENTS).",
      type: "gauge",
      value: acknowledgements.inFlight,
    },
    {
      name: "acknowledge_statements_running",
      help: "Acknowledgement statements running now, each carrying the acknowledgements that arrived together.",
      type: "gauge",
      value: acknowledgements.running,
    },
    {
      name: "acknowledge_statements_total",
      help: "Acknowledgement statements run.",
      type: "counter",
      value: acknowledgements.statements,
    },
  ];
}

/**
 * Inserts notifications with creation instants that increase, per business unit, in commit order across every
 * instance: the unit's clock row is locked until this transaction commits, so the unit's next writer reads the
 * instant this one took (per unit, because each unit may run on its own sandbox clock, and so that units do not
 * wait for each other). A sandbox clock moved backwards (more than a second) restarts the sequence, as in SQLite.
 * In the transaction of the change that raises them.
 */
export async function insertNotifications(
  db: PostgresDatabase,
  client: pg.PoolClient,
  notifications: NotificationRow[],
  changed: ChangeMessage[],
): Promise<void> {
  for (const notification of notifications) {
    changed.push({ kind: "notifications", businessUnitId: notification.businessUnitId });
    const { rows } = await db.query<{ last_ms: number }>(
      `INSERT INTO notification_unit_clock AS clock (business_unit_id, last_ms) VALUES ($2, $1::bigint)
       ON CONFLICT (business_unit_id) DO UPDATE SET last_ms = CASE
         WHEN $1::bigint > clock.last_ms - 1000 THEN GREATEST($1::bigint, clock.last_ms + 1) ELSE $1::bigint END
       RETURNING last_ms`,
      [notification.createdMs, notification.businessUnitId],
      client,
    );
    await db.query(
      `WITH inserted AS (
         INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, additional_provider_filter)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         RETURNING seq, business_unit_id, created_ms
       )
       INSERT INTO new_notifications (seq, business_unit_id, created_ms)
         SELECT seq, business_unit_id, created_ms FROM inserted WHERE $13 = 'NEW'`,
      [
        notification.id,
        notification.businessUnitId,
        notification.applicationId,
        notification.v1Type,
        notification.v0Type,
        json(notification.v1Payload),
        notification.v0Payload === null ? null : json(notification.v0Payload),
        notification.v1Schema,
        notification.v0Schema,
        notification.eventMs,
        rows[0]?.last_ms ?? notification.createdMs,
        notification.additionalProviderFilter,
        notification.status,
      ],
      client,
    );
  }
}
