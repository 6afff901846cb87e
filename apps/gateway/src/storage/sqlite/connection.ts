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
