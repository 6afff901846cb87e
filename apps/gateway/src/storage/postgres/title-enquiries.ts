import { json, toOfficialSearch, toPrioritySearch } from "../rows.js";
import type { TitleEnquiryStore } from "../ports/title-enquiries.js";
import type { PostgresDatabase } from "./database.js";

/** Official searches on PostgreSQL. */
export function postgresTitleEnquiries(db: PostgresDatabase): TitleEnquiryStore {
  return {
    async insertOfficialSearch(search) {
      const inserted = await db.query(
        `INSERT INTO official_searches (business_unit_id, username, message_id, id, title_number, priority_type, applicant, received_ms, ready_ms,
           certificate_ms, priority_expiry_date, deferred, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT DO NOTHING`,
        [
          search.businessUnitId,
          search.username,
          search.messageId,
          search.id,
          search.titleNumber,
          search.priorityType,
          search.applicant,
          search.receivedMs,
          search.readyMs,
          search.certificateMs,
          search.priorityExpiryDate,
          search.deferred === null ? null : json(search.deferred),
          json(search.result),
        ],
      );
      return inserted.rowCount === 1;
    },

    async findOfficialSearch(businessUnitId, username, messageId) {
      const row = (
        await db.query(
          "SELECT * FROM official_searches WHERE business_unit_id = $1 AND username = $2 AND message_id = $3",
          [businessUnitId, username, messageId],
        )
      ).rows[0];
      return row && toOfficialSearch(row);
    },

    async searchesWithPriority(businessUnitId, titleNumber, beforeMs, onDate, limit) {
      const { rows } = await db.query(
        `SELECT certificate_ms, priority_type, applicant FROM official_searches
         WHERE business_unit_id = $1 AND title_number = $2 AND certificate_ms < $3 AND priority_expiry_date >= $4
         ORDER BY certificate_ms LIMIT $5`,
        [businessUnitId, titleNumber, beforeMs, onDate, limit],
      );
      return rows.map(toPrioritySearch);
    },
  };
}
