import { createRequire } from "node:module";

/**
 * The SQLite driver the embedded store runs on, chosen by the Node.js it runs under.
 *
 * better-sqlite3 12 is the last release that builds for Node 20, and from Node 24.19 it aborts the process
 * (`Assertion failed: (env) != nullptr` in `RemoveEnvironmentCleanupHook`) whenever a garbage-collected
 * statement is finalised: Node 24 added environment cleanup hooks to `ObjectWrap`, which its statements extend.
 * Node 24 ships its own SQLite (`node:sqlite`, stable enough to print no warning there), so from Node 24 the
 * store uses that, and better-sqlite3 (an optional dependency) only below. Both are reached through the small
 * surface below, which is the part of better-sqlite3's API the store uses: better-sqlite3 satisfies it as is.
 */
export interface SqliteDatabase {
  readonly open: boolean;
  exec(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  /** `PRAGMA` with its argument, e.g. `pragma("journal_mode = WAL")`; `simple` answers the first value only. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** Wraps `work` in a transaction (a savepoint when nested): committed when it returns, rolled back when it throws. */
  transaction<A extends unknown[], T>(work: (...args: A) => T): Transaction<A, T>;
  close(): unknown;
}

/** A transaction to run: called, it begins deferred (the write lock at the first write); `immediate` takes it first. */
export interface Transaction<A extends unknown[], T> {
  (...args: A): T;
  immediate(...args: A): T;
}

/** Named parameters come as one object (`@name` in the SQL), positional ones as values. */
export type SqliteParameter = string | number | bigint | null | Uint8Array | object;

/** What a write reports. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface SqliteStatement {
  run(...parameters: SqliteParameter[]): RunResult;
  get(...parameters: SqliteParameter[]): unknown;
  all(...parameters: SqliteParameter[]): unknown[];
  /** The same statement answering the first column's value instead of a row object. */
  pluck(): SqliteStatement;
  /** The same statement answering each row as an array of its column values. */
  raw(): SqliteStatement;
}

export interface OpenOptions {
  readonly?: boolean;
}

/** Which driver `openSqlite` uses under this Node.js. */
export const SQLITE_DRIVER: "node:sqlite" | "better-sqlite3" =
  Number(process.versions.node.split(".")[0]) >= 24 ? "node:sqlite" : "better-sqlite3";

const require = createRequire(import.meta.url);

/** Opens (creating when writable) the database file at `file`. */
export function openSqlite(file: string, options: OpenOptions = {}): SqliteDatabase {
  if (SQLITE_DRIVER === "node:sqlite") return new NodeSqliteDatabase(file, options);
  const BetterSqlite = require("better-sqlite3") as new (file: string, options: OpenOptions) => SqliteDatabase;
  return new BetterSqlite(file, options);
}

// The part of node:sqlite used here (the @types/node of Node 20 does not describe it).
interface NodeStatement {
  run(...parameters: unknown[]): RunResult;
  get(...parameters: unknown[]): Record<string, unknown> | unknown[] | undefined;
  all(...parameters: unknown[]): (Record<string, unknown> | unknown[])[];
  setAllowUnknownNamedParameters(enabled: boolean): void;
  setReturnArrays(enabled: boolean): void;
}
interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (file: string, options: { readOnly?: boolean }) => NodeDatabase;
}

type Shape = "rows" | "first-column" | "arrays";

class NodeSqliteStatement implements SqliteStatement {
  readonly #statement: NodeStatement;
  readonly #sql: string;
  readonly #database: NodeDatabase;
  readonly #shape: Shape;
  /** The pluck and raw views, prepared once each. */
  readonly #views = new Map<Shape, SqliteStatement>();

  constructor(database: NodeDatabase, sql: string, shape: Shape = "rows") {
    this.#database = database;
    this.#sql = sql;
    this.#shape = shape;
    this.#statement = database.prepare(sql);
    // better-sqlite3 ignores members of a parameter object the SQL does not name; the store relies on that.
    this.#statement.setAllowUnknownNamedParameters(true);
    this.#statement.setReturnArrays(shape !== "rows");
  }

  run(...parameters: SqliteParameter[]): RunResult {
    return this.#statement.run(...parameters);
  }

  get(...parameters: SqliteParameter[]): unknown {
    const row = this.#statement.get(...parameters);
    return this.#shape === "first-column" && Array.isArray(row) ? row[0] : row;
  }

  all(...parameters: SqliteParameter[]): unknown[] {
    const rows = this.#statement.all(...parameters);
    return this.#shape === "first-column" ? rows.map((row) => (row as unknown[])[0]) : rows;
  }

  pluck(): SqliteStatement {
    return this.#view("first-column");
  }

  raw(): SqliteStatement {
    return this.#view("arrays");
  }

  #view(shape: Shape): SqliteStatement {
    if (shape === this.#shape) return this;
    let view = this.#views.get(shape);
    if (!view) {
      view = new NodeSqliteStatement(this.#database, this.#sql, shape);
      this.#views.set(shape, view);
    }
    return view;
  }
}

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #database: NodeDatabase;
  #open = true;
  /** Transactions entered and not yet left: the outermost is BEGIN, the others savepoints. */
  #depth = 0;

  constructor(file: string, options: OpenOptions) {
    const { DatabaseSync } = require("node:sqlite") as NodeSqliteModule;
    this.#database = new DatabaseSync(file, { readOnly: options.readonly === true });
  }

  get open(): boolean {
    return this.#open;
  }

  exec(sql: string): void {
    this.#database.exec(sql);
  }

  prepare(sql: string): SqliteStatement {
    return new NodeSqliteStatement(this.#database, sql);
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  transaction<A extends unknown[], T>(work: (...args: A) => T): Transaction<A, T> {
    const run = (begin: string, args: A): T => {
      const savepoint = `lrg_${this.#depth}`;
      const nested = this.#depth > 0;
      this.#database.exec(nested ? `SAVEPOINT ${savepoint}` : begin);
      this.#depth += 1;
      try {
        const value = work(...args);
        this.#database.exec(nested ? `RELEASE ${savepoint}` : "COMMIT");
        return value;
      } catch (error) {
        try {
          this.#database.exec(nested ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : "ROLLBACK");
        } catch {
          // SQLite rolled the transaction back itself (a full disk, an I/O error): nothing is left to roll back, and
          // the error that made it do so is the one to answer (better-sqlite3 does the same).
        }
        throw error;
      } finally {
        this.#depth -= 1;
      }
    };
    return Object.assign((...args: A) => run("BEGIN", args), {
      immediate: (...args: A) => run("BEGIN IMMEDIATE", args),
    });
  }

  close(): void {
    if (!this.#open) return;
    this.#database.close();
    this.#open = false;
  }
}

/** Prepares each SQL text once on `db` and answers the same statement from then on. */
export function statementsOf(db: SqliteDatabase): (sql: string) => SqliteStatement {
  const statements = new Map<string, SqliteStatement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
