import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";

/** SQLite's primary result code for a constraint violation (the low byte of its extended codes, e.g. 2067). */
const SQLITE_CONSTRAINT = 19;

/**
 * Whether a store refused a write because it breaks a constraint (a unique key, a foreign key): better-sqlite3 says
 * `SQLITE_CONSTRAINT_*` in `code`, node:sqlite (Node 24) gives the extended result code in `errcode`, PostgreSQL
 * the SQLSTATE class 23.
 */
export function isConstraintViolation(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === "number" && (errcode & 0xff) === SQLITE_CONSTRAINT) return true;
  return String(code).startsWith("SQLITE_CONSTRAINT") || /^23\d{3}$/.test(String(code));
}

/**
 * Whether PostgreSQL aborted a statement or transaction only because it met another one (SQLSTATE 40P01, a deadlock
 * it broke by choosing this one; 40001, a serialization failure): run again, it succeeds or meets a real error.
 */
export function isTransientConflict(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === "40P01" || code === "40001";
}

/**
 * What kind of store failure an error is, if it is one: `unreachable` (the database cannot be reached or lost the
 * connection, an I/O error: it comes back by itself) or `cannot-write` (the disk is full or read-only, or the database
 * refuses writes as a standby does: it comes back once an operator makes room). An error's `cause`, when it is a store
 * failure, decides (see diskRefusal): one condition is one code, whichever store met it. Anything else (a bug, a
 * constraint) is not a store failure. Both are answered 503 with Retry-After (503-02, 503-03), never 500, and the
 * client retries.
 */
export type StorageFault = "unreachable" | "cannot-write";

/** SQLite's primary result codes of a store failure (better-sqlite3 names them, node:sqlite numbers them). */
const SQLITE_FAULTS: Record<number, StorageFault> = {
  5: "unreachable", // SQLITE_BUSY: another process held the write lock past busy_timeout
  8: "cannot-write", // SQLITE_READONLY
  10: "unreachable", // SQLITE_IOERR
  13: "cannot-write", // SQLITE_FULL
  14: "unreachable", // SQLITE_CANTOPEN
};
const SQLITE_NAMES: Record<string, number> = {
  SQLITE_BUSY: 5,
  SQLITE_READONLY: 8,
  SQLITE_IOERR: 10,
  SQLITE_FULL: 13,
  SQLITE_CANTOPEN: 14,
};

/** File-system errors (blob writes, SQLite's own files) and the network errors of a lost database connection. */
const SYSTEM_FAULTS: Record<string, StorageFault> = {
  ENOSPC: "cannot-write",
  EDQUOT: "cannot-write",
  EFBIG: "cannot-write",
  EROFS: "cannot-write",
  EIO: "unreachable",
  ECONNREFUSED: "unreachable",
  ECONNRESET: "unreachable",
  ETIMEDOUT: "unreachable",
  EPIPE: "unreachable",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  ENOTFOUND: "unreachable",
  EAI_AGAIN: "unreachable",
};

/**
 * Why the file system refuses writes in `directory` now, if it does: the code of a small file's failed write there
 * when it names a disk that cannot write (EROFS, ENOSPC, EDQUOT). SQLite reports a write the disk refused as a bare
 * SQLITE_IOERR, without the errno, which alone reads as a failing disk (503-02) while the same disk refuses an upload
 * with EROFS (503-03). Asked after such an error, the disk names the condition; the error carries it as its `cause`.
 * (A file is written rather than access(2) asked: ext4 turned read-only by an error answers access as writable.)
 */
export function diskRefusal(directory: string): string | undefined {
  const probe = join(directory, `.lrg-write-probe-${process.pid}-${threadId}`);
  try {
    writeFileSync(probe, "probe");
    return undefined;
  } catch (error) {
    const { code } = error as { code?: unknown };
    return typeof code === "string" && SYSTEM_FAULTS[code] === "cannot-write" ? code : undefined;
  } finally {
    try {
      rmSync(probe, { force: true });
    } catch {
      // never written (the disk refused it)
    }
  }
}

/** node-postgres's own messages for a connection it lost or could not make (they carry no code). */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

export function storageFaultOf(error: unknown): StorageFault | undefined {
  // What caused it says more than what reported it: an I/O error caused by a read-only disk is the read-only disk's.
  const cause = (error as { cause?: unknown } | null)?.cause;
  return (cause !== error ? faultOf(cause) : undefined) ?? faultOf(error);
}

function faultOf(error: unknown): StorageFault | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  // The bucket of the object store refused or failed a request (the AWS SDK's service errors carry `$metadata`): a
  // missing bucket, refused credentials, the service busy. The caller did nothing wrong either way.
  if ("$metadata" in error) return "unreachable";
  // A call to the object store past its bound (LRG_BLOB_TIMEOUT_MS): the service is frozen or silent.
  if ((error as { name?: unknown }).name === "TimeoutError") return "unreachable";
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (typeof errcode === "number") return SQLITE_FAULTS[errcode & 0xff];
  if (typeof code === "string") {
    if (code.startsWith("SQLITE_")) {
      const primary = SQLITE_NAMES[code.replace(/^(SQLITE_[A-Z]+?)(_.*)?$/, "$1")];
      return primary === undefined ? undefined : SQLITE_FAULTS[primary];
    }
    const system = SYSTEM_FAULTS[code];
    if (system) return system;
    // PostgreSQL's SQLSTATE: 08 connection exception, 57P01-57P03 shut down or starting, 58 system I/O error,
    // 53 insufficient resources (53100 disk full), 25006 a read-only transaction (a standby after a failover).
    if (code === "53100" || code === "25006") return "cannot-write";
    if (/^(08...|57P0[123]|58...|53...)$/.test(code)) return "unreachable";
  }
  if (typeof message === "string" && LOST_CONNECTION.test(message)) return "unreachable";
  return undefined;
}
