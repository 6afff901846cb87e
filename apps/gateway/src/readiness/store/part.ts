import type { StorePart } from "../../storage/store-part.js";
import { readinessMigrations } from "./migrations.js";
import type { ReadinessStore } from "./port.js";
import { postgresReadiness } from "./postgres.js";
import { sqliteReadiness } from "./sqlite.js";
import type { ReadinessWrites } from "./sqlite-writes.js";

/**
 * Readiness runs as a part of the store: their tables (a run's observations before the run), their migrations in the
 * part's own ledger, and their port on either store. The gateway opens its store with this part.
 */
export const readinessStorePart: StorePart<ReadinessStore, ReadinessWrites> = {
  name: "readiness",
  migrations: readinessMigrations,
  tables: ["readiness_observations", "readiness_runs"],
  sqlite: { writes: new URL("./sqlite-writes.js", import.meta.url), open: sqliteReadiness },
  postgres: { open: postgresReadiness },
};
