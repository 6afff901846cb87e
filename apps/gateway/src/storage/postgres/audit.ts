import { auditRetention, auditWhere, json, toAuditEntry } from "../rows.js";
import type { AuditStore } from "../ports/audit.js";
import type { PostgresDatabase } from "./database.js";

/** The audit trail on PostgreSQL. */
export function postgresAudit(db: PostgresDatabase): AuditStore {
  return {
    async appendAuditEntry(entry, keepPerActor) {
      return db.transaction(async (client) => {
        const { rows } = await db.query<{ seq: number }>(
          `INSERT INTO audit_entries (recorded_ms, clock_ms, actor_kind, actor_unit, operation_id, method, path, request_body, status, problem_code, request_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING seq`,
          [
            entry.recordedMs,
            entry.clockMs,
            entry.actorKind,
            entry.actorUnit,
            entry.operationId,
            entry.method,
            entry.path,
            entry.requestBody === null ? null : json(entry.requestBody),
            entry.status,
            entry.problemCode,
            entry.requestId,
          ],
          client,
        );
        await db.query(
          auditRetention((index) => `$${index}`),
          [entry.actorKind, entry.actorUnit, entry.actorKind, entry.actorUnit, keepPerActor],
          client,
        );
        return Number(rows[0]?.seq);
      });
    },

    async listAuditEntries(query) {
      const { where, values } = auditWhere(query, (index) => `$${index}`);
      const { rows } = await db.query(`SELECT * FROM audit_entries ${where} ORDER BY seq LIMIT $${values.length + 1}`, [
        ...values,
        query.limit,
      ]);
      return rows.map(toAuditEntry);
    },
  };
}
