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
