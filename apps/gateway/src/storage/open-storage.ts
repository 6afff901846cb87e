import { PostgresStorage } from "./postgres/postgres-storage.js";
import { SqliteStorage } from "./sqlite/sqlite-storage.js";
import type { Storage } from "./storage.js";

/**
 * The store the configuration names: PostgreSQL when `databaseUrl` is a `postgres://` (or `postgresql://`) URL,
 * shared by every instance given the same URL; else the embedded SQLite file in the data directory.
 */
export async function openStorage(config: {
  dataDir: string;
  databaseUrl?: string | undefined;
  databasePoolSize?: number | undefined;
  databaseAcknowledgeStatements?: number | undefined;
  sqliteCacheMib?: number | undefined;
}): Promise<Storage> {
  if (!config.databaseUrl)
    return new SqliteStorage(
      config.dataDir,
      config.sqliteCacheMib === undefined ? {} : { cacheMib: config.sqliteCacheMib },
    );
  if (!/^postgres(ql)?:\/\//.test(config.databaseUrl)) throw new Error("LRG_DATABASE_URL must be a postgres:// URL");
  return PostgresStorage.open(config.databaseUrl, {
    ...(config.databasePoolSize === undefined ? {} : { poolSize: config.databasePoolSize }),
    ...(config.databaseAcknowledgeStatements === undefined
      ? {}
      : { acknowledgeStatements: config.databaseAcknowledgeStatements }),
  });
}
