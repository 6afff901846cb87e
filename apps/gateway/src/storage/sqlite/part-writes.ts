import type { ApplicationRow, CorrespondenceRow } from "../ports/applications.js";
import type { RegistryDocumentRow } from "../ports/documents.js";
import type { NotificationRow } from "../ports/notifications.js";
import type { SqliteDatabase, SqliteStatement } from "./driver.js";

/**
 * A store part's writes on the embedded store, by name: each synchronous on the writing connection, run by the writer
 * thread in its group commit as the store's own writes are (see `writes.ts`), so their arguments and answers are
 * plain data.
 */
export type PartWrites = Record<string, (...args: never[]) => unknown>;

/** What the writer thread gives a part to make its writes with. */
export interface PartWriteContext {
  db: SqliteDatabase;
  /** Statements of the writing connection, prepared once by their SQL. */
  prepared: (sql: string) => SqliteStatement;
  /** The store's own records, for a part's write that raises some in its transaction. */
  records: RecordWrites;
}

/**
 * The store's records a part's write may add in its own transaction, written as the store's writes write them (a
 * notification's creation instant in commit order, its unit's cached pages dropped).
 */
export interface RecordWrites {
  insertApplication(application: ApplicationRow): void;
  insertNotification(notification: NotificationRow): void;
  insertCorrespondence(record: CorrespondenceRow): void;
  putRegistryDocument(document: RegistryDocumentRow): void;
}

/** The module a part names as its SQLite writes (`StorePart.sqlite.writes`): the writer thread imports it. */
export interface PartWritesModule {
  partWrites(context: PartWriteContext): PartWrites;
}
