// The store's SQLite surface behaves the same under both drivers: this file runs with better-sqlite3 on Node 20
// and 22 and with node:sqlite from Node 24 (CI runs it on both), so a difference between them fails here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqlite, SQLITE_DRIVER, type SqliteDatabase } from "../src/storage/sqlite/driver.js";

let dir: string;
let db: SqliteDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lrg-sqlite-"));
  db = openSqlite(join(dir, "test.sqlite"));
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const names = () => db.prepare("SELECT name FROM t ORDER BY id").pluck().all();

describe(`the SQLite driver (${SQLITE_DRIVER} on Node ${process.versions.node})`, () => {
  it("uses node:sqlite from Node 24 and better-sqlite3 below", () => {
    expect(SQLITE_DRIVER).toBe(Number(process.versions.node.split(".")[0]) >= 24 ? "node:sqlite" : "better-sqlite3");
  });

  it("binds named parameters from an object, ignoring members the SQL does not name", () => {
    const insert = db.prepare("INSERT INTO t (name) VALUES (@name)");
    expect(insert.run({ name: "a", unused: "ignored" }).changes).toBe(1);
    expect(db.prepare("SELECT id, name FROM t WHERE name = ?").get("a")).toEqual({ id: 1, name: "a" });
  });

  it("answers rows, first columns and arrays", () => {
    db.prepare("INSERT INTO t (name) VALUES (?), (?)").run("a", "b");
    const select = db.prepare("SELECT id, name FROM t ORDER BY id");
    expect(select.all().map((row) => ({ ...(row as object) }))).toEqual([
      { id: 1, name: "a" },
      { id: 2, name: "b" },
    ]);
    expect(select.raw().all()).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    expect(select.pluck().get()).toBe(1);
    expect(db.prepare("SELECT name FROM t WHERE id = 3").pluck().get()).toBeUndefined();
  });

  it("commits a transaction that returns and rolls back one that throws", () => {
    const insert = db.prepare("INSERT INTO t (name) VALUES (?)");
    expect(db.transaction((name: string) => insert.run(name).changes)("kept")).toBe(1);
    expect(() =>
      db.transaction(() => {
        insert.run("lost");
        throw new Error("refused");
      })(),
    ).toThrow("refused");
    expect(names()).toEqual(["kept"]);
  });

  it("rolls back a nested transaction alone, as the group commit needs", () => {
    const insert = db.prepare("INSERT INTO t (name) VALUES (?)");
    db.transaction(() => {
      insert.run("outer");
      expect(() =>
        db.transaction(() => {
          insert.run("inner");
          throw new Error("inner refused");
        })(),
      ).toThrow("inner refused");
      db.transaction(() => insert.run("second"))();
    })();
    expect(names()).toEqual(["outer", "second"]);
  });

  it("takes the write lock at the start of an immediate transaction, at the first write of a deferred one", () => {
    db.pragma("journal_mode = WAL");
    const other = openSqlite(join(dir, "test.sqlite"));
    try {
      other.pragma("busy_timeout = 0");
      const otherWrites = () => other.prepare("INSERT INTO t (name) VALUES ('other')").run().changes;
      // Deferred: nothing written yet, so the other connection may still write.
      expect(db.transaction(otherWrites)()).toBe(1);
      // Immediate: the lock is held before anything is written, so the other connection is refused at once.
      expect(() => db.transaction(otherWrites).immediate()).toThrow(/locked|busy/i);
      expect(names()).toEqual(["other"]);
    } finally {
      other.close();
    }
  });

  it("reads pragmas, simple or whole", () => {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.pragma("journal_mode = WAL");
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
  });

  it("opens read-only when asked, refusing writes", () => {
    const reader = openSqlite(join(dir, "test.sqlite"), { readonly: true });
    try {
      expect(() => reader.prepare("INSERT INTO t (name) VALUES ('x')").run()).toThrow();
      expect(reader.open).toBe(true);
    } finally {
      reader.close();
    }
    expect(reader.open).toBe(false);
  });
});

describe("a constraint violation", () => {
  it("is recognised whichever driver raised it (a duplicate registry reference must be a 4xx, never a 500)", async () => {
    const { isConstraintViolation } = await import("../src/storage/errors.js");
    const dir = mkdtempSync(join(tmpdir(), "lrg-sqlite-"));
    const db = openSqlite(join(dir, "test.sqlite"));
    try {
      db.exec("CREATE TABLE u (reference TEXT UNIQUE)");
      db.prepare("INSERT INTO u (reference) VALUES (?)").run("A1");
      let caught: unknown;
      try {
        db.prepare("INSERT INTO u (reference) VALUES (?)").run("A1");
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeDefined();
      expect(isConstraintViolation(caught)).toBe(true);
      expect(isConstraintViolation(new Error("disk I/O error"))).toBe(false);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
