import type { Row } from "../rows.js";
import type { SqliteStatement } from "./driver.js";
import type { SqliteWriter } from "./writer.js";

/**
 * What each port of the embedded store (`sqlite/<port>.ts`) works through: statements of the reading connection,
 * prepared once by their SQL and run on the gateway's event loop, each on the latest commit; and the writer thread,
 * which runs every write (`writes.ts`) in its group commit.
 */
export interface SqliteConnection {
  read: (sql: string) => SqliteStatement;
  writer: SqliteWriter;
}

/** The row of `table` with this id, if any; of that business unit alone when one is named (a request's scope). */
export function rowById(
  { read }: SqliteConnection,
  table: "applications" | "documents",
  id: string,
  businessUnitId: string | undefined,
): Row | undefined {
  return (
    businessUnitId === undefined
      ? read(`SELECT * FROM ${table} WHERE id = ?`).get(id)
      : read(`SELECT * FROM ${table} WHERE id = ? AND business_unit_id = ?`).get(id, businessUnitId)
  ) as Row | undefined;
}
