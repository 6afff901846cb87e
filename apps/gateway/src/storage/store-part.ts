import type { PartSchema } from "./part-ledger.js";
import type { PostgresDatabase } from "./postgres/database.js";
import type { SqliteStatement } from "./sqlite/driver.js";
import type { PartWrites } from "./sqlite/part-writes.js";

/**
 * What a domain contributes to the store to keep records of its own beside the others: its tables' migrations (in a
 * ledger of its own, see `part-ledger.ts`), the tables a reset empties, and its port, made by each store from what that
 * store is built on. The store composes the ports of the parts it is opened with beside its own, so that the domain's
 * tables, writes and queries live with the domain while reset, migrations and both backends still see them.
 */
export interface StorePart<Ports extends object, Writes extends PartWrites = PartWrites> extends PartSchema {
  /**
   * The part's tables, children before their parents, each with a `business_unit_id`: a reset empties them, a business
   * unit's reset deletes that unit's rows, before the store's own tables (which the part's rows may refer to).
   */
  tables: readonly string[];
  /** The part on SQLite: its writes, which the writer thread loads, and its port on the store's connection. */
  sqlite: {
    /** A module whose `partWrites` export makes the part's writes (see `PartWritesModule`). */
    writes: URL;
    open(connection: PartConnection<Writes>): Ports;
  };
  /** The part on PostgreSQL: its port on the store's database. */
  postgres: {
    open(db: PostgresDatabase): Ports;
  };
}

/** What a part's SQLite port works through: the reading connection's statements and the writer thread's part writes. */
export interface PartConnection<Writes extends PartWrites> {
  read: (sql: string) => SqliteStatement;
  /** Runs the part's write `name` in the writer thread's next group commit; resolves once it is on disk. */
  write<N extends keyof Writes & string>(name: N, ...args: Parameters<Writes[N]>): Promise<ReturnType<Writes[N]>>;
}

/** The ports of the parts of a list, together. */
export type PortsOfParts<Parts extends readonly StorePart<object>[]> = Parts extends readonly [
  StorePart<infer First>,
  ...infer Rest extends readonly StorePart<object>[],
]
  ? First & PortsOfParts<Rest>
  : unknown;

/**
 * A store's own ports with those its parts make (`open`): each part's methods beside the store's, none of them
 * named as another's.
 */
export function withPartPorts<Own extends object, const Parts extends readonly StorePart<object>[]>(
  own: Own,
  parts: Parts | undefined,
  open: (part: StorePart<object>) => object,
): Own & PortsOfParts<Parts> {
  // Ports are objects of methods: composed by name, then typed as the store's and the parts' ports together.
  const composed = { ...own } as Record<string, unknown>;
  for (const part of parts ?? []) {
    for (const [name, method] of Object.entries(open(part) as Record<string, unknown>)) {
      if (name in composed) throw new Error(`the store part ${part.name} names ${name}, which the store has already`);
      composed[name] = method;
    }
  }
  return composed as Own & PortsOfParts<Parts>;
}
