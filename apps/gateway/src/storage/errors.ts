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
