// Which errors are the store's failures (503 with Retry-After) and which are not (a bug stays a logged 500, a broken
// constraint stays what its caller makes of it): every store's way of saying it, one table. A disk that turned
// read-only under SQLite is shown end to end in read-only-disk.test.ts.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Problem, storageProblemOf } from "../src/problems.js";
import { problemFor } from "../src/routing.js";
import { diskRefusal, storageFaultOf, type StorageFault } from "../src/storage/errors.js";

const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });

const cases: [string, { given: unknown; want: StorageFault | undefined }][] = [
  ["PostgreSQL: backend terminated by an administrator (57P01)", { given: withCode("57P01"), want: "unreachable" }],
  ["PostgreSQL: the server is shutting down (57P02)", { given: withCode("57P02"), want: "unreachable" }],
  ["PostgreSQL: the server is starting up (57P03)", { given: withCode("57P03"), want: "unreachable" }],
  ["PostgreSQL: connection failure (08006)", { given: withCode("08006"), want: "unreachable" }],
  ["PostgreSQL: too many connections (53300)", { given: withCode("53300"), want: "unreachable" }],
  ["PostgreSQL: disk full (53100)", { given: withCode("53100"), want: "cannot-write" }],
  ["PostgreSQL: a standby refuses writes (25006)", { given: withCode("25006"), want: "cannot-write" }],
  ["PostgreSQL: I/O error (58030)", { given: withCode("58030"), want: "unreachable" }],
  ["node-postgres: connection lost", { given: new Error("Connection terminated unexpectedly"), want: "unreachable" }],
  [
    "node-postgres: no connection in time",
    { given: new Error("timeout exceeded when trying to connect"), want: "unreachable" },
  ],
  ["network: refused", { given: withCode("ECONNREFUSED"), want: "unreachable" }],
  ["better-sqlite3: disk full", { given: withCode("SQLITE_FULL"), want: "cannot-write" }],
  ["better-sqlite3: write I/O error", { given: withCode("SQLITE_IOERR_WRITE"), want: "unreachable" }],
  ["better-sqlite3: read-only database", { given: withCode("SQLITE_READONLY_DBMOVED"), want: "cannot-write" }],
  ["better-sqlite3: locked past busy_timeout", { given: withCode("SQLITE_BUSY"), want: "unreachable" }],
  [
    "node:sqlite: disk full (errcode 13)",
    { given: Object.assign(new Error("full"), { errcode: 13 }), want: "cannot-write" },
  ],
  [
    "node:sqlite: write I/O error (errcode 778)",
    { given: Object.assign(new Error("io"), { errcode: 778 }), want: "unreachable" },
  ],
  [
    "better-sqlite3: write I/O error on a disk that turned read-only (the disk's EROFS as its cause)",
    { given: Object.assign(withCode("SQLITE_IOERR_WRITE"), { cause: { code: "EROFS" } }), want: "cannot-write" },
  ],
  [
    "node:sqlite: fsync I/O error on a full disk (the disk's ENOSPC as its cause)",
    { given: Object.assign(new Error("io"), { errcode: 1034, cause: { code: "ENOSPC" } }), want: "cannot-write" },
  ],
  [
    "an I/O error whose cause is no store failure stays an I/O error",
    { given: Object.assign(withCode("SQLITE_IOERR_WRITE"), { cause: new TypeError("x") }), want: "unreachable" },
  ],
  ["file system: no space", { given: withCode("ENOSPC"), want: "cannot-write" }],
  ["file system: read-only", { given: withCode("EROFS"), want: "cannot-write" }],
  ["file system: I/O error", { given: withCode("EIO"), want: "unreachable" }],
  [
    "object store: the bucket refused",
    { given: Object.assign(new Error("NoSuchBucket"), { $metadata: { httpStatusCode: 404 } }), want: "unreachable" },
  ],
  ["not a store failure: a unique key", { given: withCode("SQLITE_CONSTRAINT_UNIQUE"), want: undefined }],
  ["not a store failure: PostgreSQL unique violation", { given: withCode("23505"), want: undefined }],
  ["not a store failure: a syntax error (a bug)", { given: withCode("42601"), want: undefined }],
  ["not a store failure: a plain bug", { given: new TypeError("x is undefined"), want: undefined }],
  ["not a store failure: not an error", { given: "oops", want: undefined }],
];

describe("store failures", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(storageFaultOf(given)).toBe(want);
  });

  it("finds no refusal on a disk that writes, and leaves no probe behind", () => {
    const dir = mkdtempSync(join(tmpdir(), "lrg-disk-refusal-"));
    try {
      expect(diskRefusal(dir)).toBeUndefined();
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers an unreachable store 503-02 and a full one 503-03, each with Retry-After; anything else 500-01", () => {
    const unreachable = problemFor(withCode("57P01"));
    expect([unreachable.status, unreachable.code]).toEqual([503, "503-02"]);
    expect(unreachable.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    const full = problemFor(withCode("SQLITE_FULL"));
    expect([full.status, full.code]).toEqual([503, "503-03"]);
    expect(Number(full.headers["retry-after"])).toBeGreaterThan(0);
    expect(problemFor(new TypeError("x is undefined")).code).toBe("500-01");
    expect(storageProblemOf(new TypeError("x"))).toBeUndefined();
    expect(problemFor(new Problem("409-01", "reused"))).toBeInstanceOf(Problem);
  });
});
