import { auditWhere, toAuditEntry, type Row } from "../rows.js";
import type { AuditStore } from "../ports/audit.js";
import type { SqliteConnection } from "./connection.js";

/** The audit trail on SQLite. */
export function sqliteAudit({ read, writer }: SqliteConnection): AuditStore {
  return {
    async appendAuditEntry(entry, keepPerActor) {
      return writer.run("appendAuditEntry", entry, keepPerActor);
    },

    async listAuditEntries(query) {
      const { where, values } = auditWhere(query, () => "?");
      const rows = read(`SELECT * FROM audit_entries ${where} ORDER BY seq LIMIT ?`).all(
        ...values,
        query.limit,
      ) as Row[];
      return rows.map(toAuditEntry);
    },
  };
}
