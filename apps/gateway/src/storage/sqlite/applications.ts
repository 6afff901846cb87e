import { earlyCompleted, toApplication, toAttachment, toCorrespondence, type Row } from "../rows.js";
import type { ApplicationStore } from "../ports/applications.js";
import { rowById, type SqliteConnection } from "./connection.js";

/** Applications, their correspondence and attachments, on SQLite. */
export function sqliteApplications(connection: SqliteConnection): ApplicationStore {
  const { read, writer } = connection;
  return {
    async submitApplication(application, claim) {
      return writer.run("submitApplication", application, claim);
    },

    async findApplication(id, businessUnitId) {
      const row = rowById(connection, "applications", id, businessUnitId);
      return row && toApplication(row);
    },

    async applicationsDue(reading, limit) {
      // Each application is compared with its own unit's clock and processing (the unit's, else the global ones).
      const rows = read(
        `SELECT a.* FROM applications a JOIN business_units b ON b.id = a.business_unit_id
         WHERE a.status = 'VALIDATING' AND a.decide_at_ms IS NOT NULL
           AND a.decide_at_ms <= @realMs + COALESCE(b.clock_offset_ms, @globalOffsetMs)
           AND COALESCE(json_extract(b.settings, '$.processing'), @processing) = 'automatic'
         ORDER BY a.decide_at_ms LIMIT @limit`,
      ).all({ ...reading, limit }) as Row[];
      return rows.map(toApplication);
    },

    async applicationsWithStatus(status) {
      return (read("SELECT * FROM applications WHERE status = ? ORDER BY created_ms").all(status) as Row[]).map(
        toApplication,
      );
    },

    async countApplications(status, businessUnitId) {
      return businessUnitId === undefined
        ? (read("SELECT count(*) FROM applications WHERE status = ?").pluck().get(status) as number)
        : (read("SELECT count(*) FROM applications WHERE status = ? AND business_unit_id = ?")
            .pluck()
            .get(status, businessUnitId) as number);
    },

    async earlyCompletedApplications(businessUnitId) {
      return (read(earlyCompleted("?")).all(businessUnitId) as Row[]).map(toApplication);
    },

    async changeApplication(change) {
      return writer.run("changeApplication", change);
    },

    async correspondenceOf(applicationId) {
      const rows = read("SELECT * FROM correspondence WHERE application_id = ? ORDER BY created_ms, rowid").all(
        applicationId,
      ) as Row[];
      return rows.map(toCorrespondence);
    },

    async insertAttachment(attachment) {
      return writer.run("insertAttachment", attachment);
    },

    async pendingAttachments(limit) {
      const rows = read("SELECT * FROM attachments WHERE status = 'PENDING' ORDER BY id LIMIT ?").all(limit) as Row[];
      return rows.map(toAttachment);
    },

    async resolveAttachment(id, outcome, notifications) {
      return writer.run("resolveAttachment", id, outcome, notifications);
    },
  };
}
