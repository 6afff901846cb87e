import { toOfficialSearch, toPrioritySearch, type Row } from "../rows.js";
import type { TitleEnquiryStore } from "../ports/title-enquiries.js";
import type { SqliteConnection } from "./connection.js";

/** Official searches on SQLite. */
export function sqliteTitleEnquiries({ read, writer }: SqliteConnection): TitleEnquiryStore {
  return {
    async insertOfficialSearch(search) {
      return writer.run("insertOfficialSearch", search);
    },

    async findOfficialSearch(businessUnitId, username, messageId) {
      const row = read(
        "SELECT * FROM official_searches WHERE business_unit_id = ? AND username = ? AND message_id = ?",
      ).get(businessUnitId, username, messageId) as Row | undefined;
      return row && toOfficialSearch(row);
    },

    async searchesWithPriority(businessUnitId, titleNumber, beforeMs, onDate, limit) {
      const rows = read(
        `SELECT certificate_ms, priority_type, applicant FROM official_searches
         WHERE business_unit_id = ? AND title_number = ? AND certificate_ms < ? AND priority_expiry_date >= ?
         ORDER BY certificate_ms LIMIT ?`,
      ).all(businessUnitId, titleNumber, beforeMs, onDate, limit) as Row[];
      return rows.map(toPrioritySearch);
    },
  };
}
