import type pg from "pg";
import {
  APPLICATION_COLUMNS,
  applicationInsert,
  claimStep,
  earlyCompleted,
  idempotencyKeySelect,
  json,
  toApplication,
  toAttachment,
  toCorrespondence,
} from "../rows.js";
import type { ApplicationChange, ApplicationStore, CorrespondenceRow, SubmitOutcome } from "../ports/applications.js";
import { rowById, type PostgresDatabase } from "./database.js";
import { insertNotifications } from "./notifications.js";

/** Applications, their correspondence and attachments, on PostgreSQL. */
export function postgresApplications(db: PostgresDatabase): ApplicationStore {
  return {
    async submitApplication(application, claim) {
      return db.transaction(async (client): Promise<SubmitOutcome> => {
        // Two instances given the same key at once: the second waits on the first's key row lock, then sees it.
        await db.query(
          "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))",
          [application.businessUnitId, claim.key],
          client,
        );
        const seen = (
          await db.query(
            idempotencyKeySelect((index) => `$${index}`),
            [application.businessUnitId, claim.key],
            client,
          )
        ).rows[0];
        const step = claimStep(seen, claim);
        if ("answer" in step) return step.answer;
        if (step.replacing)
          await db.query(
            "DELETE FROM idempotency_keys WHERE business_unit_id = $1 AND key = $2",
            [application.businessUnitId, claim.key],
            client,
          );
        const insert = applicationInsert(application, (index) => `$${index}`);
        await db.query(insert.sql, insert.values, client);
        await db.query(
          "INSERT INTO idempotency_keys (business_unit_id, key, request_hash, application_id) VALUES ($1, $2, $3, $4)",
          [application.businessUnitId, claim.key, claim.requestHash, application.id],
          client,
        );
        return { kind: "created", applicationId: application.id };
      });
    },

    async findApplication(id, businessUnitId) {
      const row = await rowById(db, "applications", id, businessUnitId);
      return row && toApplication(row);
    },

    async applicationsDue(reading, limit) {
      // Each application is compared with its own unit's clock and processing (the unit's, else the global ones).
      const { rows } = await db.query(
        `SELECT a.* FROM applications a JOIN business_units b ON b.id = a.business_unit_id
         WHERE a.status = 'VALIDATING' AND a.decide_at_ms IS NOT NULL
           AND a.decide_at_ms <= $1::bigint + COALESCE(b.clock_offset_ms, $2::bigint)
           AND COALESCE(b.settings::json ->> 'processing', $3) = 'automatic'
         ORDER BY a.decide_at_ms LIMIT $4`,
        [reading.realMs, reading.globalOffsetMs, reading.processing, limit],
      );
      return rows.map(toApplication);
    },

    async applicationsWithStatus(status) {
      return (await db.query("SELECT * FROM applications WHERE status = $1 ORDER BY created_ms", [status])).rows.map(
        toApplication,
      );
    },

    async countApplications(status, businessUnitId) {
      const { rows } =
        businessUnitId === undefined
          ? await db.query<{ count: string }>("SELECT count(*) FROM applications WHERE status = $1", [status])
          : await db.query<{ count: string }>(
              "SELECT count(*) FROM applications WHERE status = $1 AND business_unit_id = $2",
              [status, businessUnitId],
            );
      return Number(rows[0]?.count ?? 0);
    },

    async earlyCompletedApplications(businessUnitId) {
      return (await db.query(earlyCompleted("$1"), [businessUnitId])).rows.map(toApplication);
    },

    async changeApplication(change) {
      const entries = Object.entries(change.patch) as [keyof ApplicationChange["patch"], unknown][];
      const values: unknown[] = [change.applicationId, change.fromStatus, change.updatedMs];
      const assignments = entries.map(([key, value]) => {
        values.push(
          key === "errors" || key === "warnings" ? json(value) : key === "earlyCompletion" ? (value ? 1 : 0) : value,
        );
        return `${APPLICATION_COLUMNS[key]} = $${values.length}`;
      });
      return db.transaction(async (client, changed) => {
        const updated = await db.query(
          `UPDATE applications SET ${[...assignments, "updated_ms = $3"].join(", ")} WHERE id = $1 AND status = $2`,
          values,
          client,
        );
        if (updated.rowCount !== 1) return false;
        if (change.correspondence) await insertCorrespondence(db, client, change.correspondence);
        await insertNotifications(db, client, change.notifications, changed);
        return true;
      });
    },

    async correspondenceOf(applicationId) {
      return (
        await db.query("SELECT * FROM correspondence WHERE application_id = $1 ORDER BY created_ms, seq", [
          applicationId,
        ])
      ).rows.map(toCorrespondence);
    },

    async insertAttachment(attachment) {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO attachments (application_id, business_unit_id, kind, document_id, certification_statement_type, message_text, status, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7) RETURNING id`,
        [
          attachment.applicationId,
          attachment.businessUnitId,
          attachment.kind,
          attachment.documentId,
          attachment.certificationStatementType,
          attachment.messageText,
          attachment.createdMs,
        ],
      );
      return Number(rows[0]?.id);
    },

    async pendingAttachments(limit) {
      return (
        await db.query("SELECT * FROM attachments WHERE status = 'PENDING' ORDER BY id LIMIT $1", [limit])
      ).rows.map(toAttachment);
    },

    async resolveAttachment(id, outcome, notifications) {
      return db.transaction(async (client, changed) => {
        const updated = await db.query(
          "UPDATE attachments SET status = $1, failure_reason = $2 WHERE id = $3 AND status = 'PENDING'",
          [outcome.status, outcome.failureReason, id],
          client,
        );
        if (updated.rowCount !== 1) return false;
        await insertNotifications(db, client, notifications, changed);
        return true;
      });
    },
  };
}

/** Inserts a correspondence record, in the transaction of the change that despatches it. */
export async function insertCorrespondence(
  db: PostgresDatabase,
  client: pg.PoolClient,
  record: CorrespondenceRow,
): Promise<void> {
  await db.query(
    "INSERT INTO correspondence (record_id, application_id, documents, created_ms) VALUES ($1, $2, $3, $4)",
    [record.recordId, record.applicationId, json(record.documents), record.createdMs],
    client,
  );
}
