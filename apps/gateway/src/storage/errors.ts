/** Whether a store refused a write for breaking a constraint: SQLite's `SQLITE_CONSTRAINT*`, PostgreSQL's class 23. */
export function isConstraintViolation(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code);
  return code.startsWith("SQLITE_CONSTRAINT") || /^23\d{3}$/.test(code);
}
