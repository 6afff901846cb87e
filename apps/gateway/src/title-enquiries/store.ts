import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";

/** One official search that was answered 201 or 202, kept so that the Poll Request Service can answer it again. */
export interface OfficialSearchRow {
  id: string;
  businessUnitId: string;
  username: string;
  messageId: string;
  titleNumber: string;
  priorityType: string;
  applicant: string;
  receivedMs: number;
  /** When the result may be answered; equal to `receivedMs` for a result given at once. */
  readyMs: number;
  certificateMs: number;
  priorityExpiryDate: string;
  /** The 202 body while the result is deferred; null for a result given at once. */
  deferred: unknown;
  /** The 201 body, answered by the Poll Request Service from `readyMs` on. */
  result: unknown;
}

/** A search of the same title that still has priority. */
export interface PrioritySearch {
  certificateMs: number;
  priorityType: string;
  applicant: string;
}

type Row = Record<string, unknown>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS official_searches (
  business_unit_id TEXT NOT NULL,
  username TEXT NOT NULL,
  message_id TEXT NOT NULL,
  id TEXT NOT NULL UNIQUE,
  title_number TEXT NOT NULL,
  priority_type TEXT NOT NULL,
  applicant TEXT NOT NULL,
  received_ms INTEGER NOT NULL,
  ready_ms INTEGER NOT NULL,
  certificate_ms INTEGER NOT NULL,
  priority_expiry_date TEXT NOT NULL,
  deferred TEXT,
  result TEXT NOT NULL,
  PRIMARY KEY (business_unit_id, username, message_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS official_searches_by_title ON official_searches (business_unit_id, title_number, certificate_ms);
`;

/**
 * The title enquiry services' own SQLite file (`title-enquiries.sqlite` in the data directory): the searches
 * answered 201 or 202, keyed by business unit, user and `message_id`. Kept apart from the gateway's main store so
 * that the two evolve independently; WAL and synchronous FULL, like it, so that an answered search survives a crash.
 */
export class OfficialSearchStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #find: Database.Statement;
  readonly #withPriority: Database.Statement;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.#db = new Database(join(dataDir, "title-enquiries.sqlite"));
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = FULL");
    this.#db.pragma("busy_timeout = 5000");
    this.#db.exec(SCHEMA);
    this.#insert = this.#db.prepare(
      `INSERT INTO official_searches (business_unit_id, username, message_id, id, title_number, priority_type, applicant, received_ms, ready_ms,
         certificate_ms, priority_expiry_date, deferred, result)
       VALUES (@businessUnitId, @username, @messageId, @id, @titleNumber, @priorityType, @applicant, @receivedMs, @readyMs,
         @certificateMs, @priorityExpiryDate, @deferred, @result)
       ON CONFLICT DO NOTHING`,
    );
    this.#find = this.#db.prepare("SELECT * FROM official_searches WHERE business_unit_id = ? AND username = ? AND message_id = ?");
    this.#withPriority = this.#db.prepare(
      `SELECT certificate_ms, priority_type, applicant FROM official_searches
       WHERE business_unit_id = ? AND title_number = ? AND certificate_ms < ? AND priority_expiry_date >= ?
       ORDER BY certificate_ms LIMIT ?`,
    );
  }

  /** Records a search; answers false (and records nothing) when the user already used its `message_id`. */
  insert(row: OfficialSearchRow): boolean {
    const result = this.#insert.run({
      ...row,
      deferred: row.deferred === null ? null : JSON.stringify(row.deferred),
      result: JSON.stringify(row.result),
    });
    return result.changes === 1;
  }

  /** The user's search with this `message_id`, if any. */
  find(businessUnitId: string, username: string, messageId: string): OfficialSearchRow | undefined {
    const row = this.#find.get(businessUnitId, username, messageId) as Row | undefined;
    return (
      row && {
        id: String(row["id"]),
        businessUnitId: String(row["business_unit_id"]),
        username: String(row["username"]),
        messageId: String(row["message_id"]),
        titleNumber: String(row["title_number"]),
        priorityType: String(row["priority_type"]),
        applicant: String(row["applicant"]),
        receivedMs: Number(row["received_ms"]),
        readyMs: Number(row["ready_ms"]),
        certificateMs: Number(row["certificate_ms"]),
        priorityExpiryDate: String(row["priority_expiry_date"]),
        deferred: row["deferred"] === null ? null : (JSON.parse(String(row["deferred"])) as unknown),
        result: JSON.parse(String(row["result"])) as unknown,
      }
    );
  }

  /**
   * The business unit's searches of a title certified before `beforeMs` whose priority lasts at least until
   * `onDate` (a London date), oldest first.
   */
  withPriority(businessUnitId: string, titleNumber: string, beforeMs: number, onDate: string, limit: number): PrioritySearch[] {
    return (this.#withPriority.all(businessUnitId, titleNumber, beforeMs, onDate, limit) as Row[]).map((row) => ({
      certificateMs: Number(row["certificate_ms"]),
      priorityType: String(row["priority_type"]),
      applicant: String(row["applicant"]),
    }));
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

const open = new Map<string, OfficialSearchStore>();

/** The store of a data directory, opened on first use and shared until `closeOfficialSearchStore`. */
export function officialSearchStore(dataDir: string): OfficialSearchStore {
  const key = resolve(dataDir);
  let store = open.get(key);
  if (!store) {
    store = new OfficialSearchStore(key);
    open.set(key, store);
  }
  return store;
}

/** Closes the store of a data directory, if it was opened. */
export function closeOfficialSearchStore(dataDir: string): void {
  const key = resolve(dataDir);
  open.get(key)?.close();
  open.delete(key);
}
