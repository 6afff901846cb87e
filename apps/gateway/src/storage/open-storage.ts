import { StartFailure } from "../config.js";
import { CONNECT_TIMEOUT_MS } from "./postgres/defaults.js";
import { openPostgresStorage } from "./postgres/postgres-storage.js";
import { openSqliteStorage } from "./sqlite/sqlite-storage.js";
import type { Storage } from "./storage.js";
import type { PortsOfParts, StorePart } from "./store-part.js";

/**
 * The store the configuration names: PostgreSQL when `databaseUrl` is a `postgres://` (or `postgresql://`) URL,
 * shared by every instance given the same URL; else the embedded SQLite file in the data directory. A database that
 * cannot be reached or used (refused, unknown, wrong credentials, no right to create the tables) is a `StartFailure`
 * naming `LRG_DATABASE_URL`. The store keeps the tables of `parts` and answers their ports beside its own.
 */
export async function openStorage<const Parts extends readonly StorePart<object>[]>(
  config: {
    dataDir: string;
    databaseUrl?: string | undefined;
    databasePoolSize?: number | undefined;
    databaseAcknowledgeStatements?: number | undefined;
    sqliteCacheMib?: number | undefined;
  },
  parts: Parts,
): Promise<Storage & PortsOfParts<Parts>> {
  if (!config.databaseUrl)
    return openSqliteStorage(config.dataDir, {
      parts,
      ...(config.sqliteCacheMib === undefined ? {} : { cacheMib: config.sqliteCacheMib }),
    });
  const url = config.databaseUrl;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new StartFailure("LRG_DATABASE_URL must be a postgres:// URL");
  return openPostgresStorage(url, {
    parts,
    ...(config.databasePoolSize === undefined ? {} : { poolSize: config.databasePoolSize }),
    ...(config.databaseAcknowledgeStatements === undefined
      ? {}
      : { acknowledgeStatements: config.databaseAcknowledgeStatements }),
  }).catch((error: unknown) => {
    throw databaseFailure(url, error);
  });
}

/** Why a database cannot be reached, by the system's error code. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "the connection was refused: nothing listens there",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "its host name cannot be resolved now",
  ETIMEDOUT: "no answer",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  ECONNRESET: "the connection was reset",
};

/**
 * One line for an operator on a database that failed at start: where it is (never the URL itself, which may hold a
 * password), why, and what to do.
 */
function databaseFailure(url: string, error: unknown): StartFailure {
  const where = placeOf(url);
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const unreachable =
    (typeof code === "string" ? UNREACHABLE[code] : undefined) ??
    (/timeout/i.test(message) ? `no answer within ${CONNECT_TIMEOUT_MS / 1000} s` : undefined);
  if (unreachable)
    return new StartFailure(
      `cannot reach the database of LRG_DATABASE_URL at ${where} (${unreachable}); start PostgreSQL there, or set LRG_DATABASE_URL to a database that runs`,
    );
  return new StartFailure(
    `cannot use the database of LRG_DATABASE_URL at ${where} (${message.replace(/\s*\n\s*/g, " ")}); set LRG_DATABASE_URL to a database whose user may connect and create tables`,
  );
}

/** `host:port` of a database URL (its socket directory when it names one), without its credentials. */
function placeOf(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  const host = parsed?.hostname || parsed?.searchParams.get("host") || "localhost";
  return `${host}:${parsed?.port || "5432"}`;
}
