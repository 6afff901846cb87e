import { movedToAPart } from "../part-ledger.js";

/**
 * Versioned schema migrations, applied in order at start, then the store parts' (see `part-ledger.ts`), inside one
 * transaction. Never edit a migration that has shipped: add the next one; a step moved to a part keeps its version.
 * PostgreSQL applies each one translated (postgres/migrations.ts), except those marked `sqliteOnly`: how SQLite lays a
 * table out on its pages, where PostgreSQL has its own answer.
 */
export const migrations: { version: number; name: string; sql: string; sqliteOnly?: true }[] = [
  {
    version: 1,
    name: "business units, applications, notifications, documents",
    sql: `
      CREATE TABLE business_units (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_ms INTEGER NOT NULL
      );
      CREATE TABLE users (
        username TEXT PRIMARY KEY,
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        password_hash TEXT NOT NULL,
        created_ms INTEGER NOT NULL
      );
      CREATE TABLE applications (
        id TEXT PRIMARY KEY,
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        status TEXT NOT NULL,
        registry_reference TEXT UNIQUE,
        priority_ms INTEGER,
        additional_provider_filter TEXT,
        submission TEXT NOT NULL,
        errors TEXT NOT NULL DEFAULT '[]',
        warnings TEXT NOT NULL DEFAULT '[]',
        early_completion INTEGER NOT NULL DEFAULT 0,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL,
        decide_at_ms INTEGER
      );
      CREATE INDEX applications_by_status ON applications(status, decide_at_ms);
      CREATE TABLE idempotency_keys (
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        PRIMARY KEY (business_unit_id, key)
      );
      CREATE TABLE notifications (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        application_id TEXT NOT NULL,
        v1_type TEXT NOT NULL,
        v0_type TEXT,
        v1_payload TEXT NOT NULL,
        v0_payload TEXT,
        v1_schema TEXT NOT NULL,
        v0_schema TEXT,
        event_ms INTEGER NOT NULL,
        created_ms INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('NEW', 'ACKNOWLEDGED')),
        acknowledged_ms INTEGER,
        additional_provider_filter TEXT
      );
      CREATE INDEX notifications_by_unit ON notifications(business_unit_id, status, created_ms, seq);
      CREATE INDEX notifications_by_age ON notifications(created_ms);
      CREATE TABLE correspondence (
        record_id TEXT PRIMARY KEY,
        application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        documents TEXT NOT NULL,
        created_ms INTEGER NOT NULL
      );
      CREATE INDEX correspondence_by_application ON correspondence(application_id, created_ms);
      CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        document_type TEXT NOT NULL,
        file_length INTEGER NOT NULL,
        file_sha256 TEXT NOT NULL,
        status TEXT NOT NULL,
        failure_reason TEXT,
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL
      );
      CREATE TABLE registry_documents (
        download_id TEXT PRIMARY KEY,
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        application_id TEXT,
        code TEXT NOT NULL,
        name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        created_ms INTEGER NOT NULL
      );
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: "official searches of whole, kept for the Poll Request Service (were a second database file)",
    sql: `
      CREATE TABLE official_searches (
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
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
      CREATE INDEX official_searches_by_title ON official_searches (business_unit_id, title_number, certificate_ms);
      `,
  },
  {
    version: 3,
    name: "attachments and messages (Attach a document, Attach a message)",
    sql: `
      CREATE TABLE attachments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('DOCUMENT', 'MESSAGE')),
        document_id TEXT,
        certification_statement_type TEXT,
        message_text TEXT,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'ATTACHED', 'FAILED')),
        failure_reason TEXT,
        created_ms INTEGER NOT NULL
      );
      CREATE INDEX attachments_pending ON attachments(status, id);
    `,
  },
  {
    version: 4,
    name: "unit tokens (hashed) and each business unit's own sandbox clock and settings",
    sql: `
      ALTER TABLE business_units ADD COLUMN token_hash TEXT;
      ALTER TABLE business_units ADD COLUMN clock_offset_ms INTEGER;
      ALTER TABLE business_units ADD COLUMN settings TEXT;
      CREATE UNIQUE INDEX business_units_by_token ON business_units(token_hash);
    `,
  },
  {
    version: 5,
    name: "the control plane's audit trail (kept across resets, retention per actor)",
    sql: `
      CREATE TABLE audit_entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        recorded_ms INTEGER NOT NULL,
        clock_ms INTEGER NOT NULL,
        actor_kind TEXT NOT NULL CHECK (actor_kind IN ('admin', 'unit', 'unknown')),
        actor_unit TEXT NOT NULL DEFAULT '',
        operation_id TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        request_body TEXT,
        status INTEGER NOT NULL,
        problem_code TEXT,
        request_id TEXT NOT NULL
      );
      CREATE INDEX audit_entries_by_actor ON audit_entries(actor_kind, actor_unit, seq);
    `,
  },
  {
    version: 6,
    name: "notification status in a table of its own, ordered by business unit, status and creation",
    // PostgreSQL updates the status in place without touching an index (heap-only, migration 1003).
    sqliteOnly: true,
    // Acknowledging changed the status inside each notification's row, and a business unit's notifications are
    // spread over the whole table (every unit's are interleaved in creation order): 100 ids dirtied about 100 pages
    // of the table, each written whole to the WAL and flushed at commit. Here a unit's NEW (and acknowledged)
    // notifications sit side by side, so acknowledging 100 of them changes a few pages. The notification rows no
    // longer change after they are written.
    sql: `
      CREATE TABLE notification_status (
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('NEW', 'ACKNOWLEDGED')),
        created_ms INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        acknowledged_ms INTEGER,
        PRIMARY KEY (business_unit_id, status, created_ms, seq)
      ) WITHOUT ROWID;
      INSERT INTO notification_status (business_unit_id, status, created_ms, seq, acknowledged_ms)
        SELECT business_unit_id, status, created_ms, seq, acknowledged_ms FROM notifications;
      DROP INDEX notifications_by_unit;
      ALTER TABLE notifications DROP COLUMN status;
      ALTER TABLE notifications DROP COLUMN acknowledged_ms;
      CREATE INDEX notifications_by_unit ON notifications(business_unit_id, created_ms, seq);
    `,
  },
  {
    version: 7,
    name: "acknowledging finds its notifications in an index alone",
    // Acknowledging looks up each id's unit, creation instant and seq: from this index alone (about 70 bytes an
    // entry) instead of 100 rows of about a kilobyte scattered over the table. PostgreSQL reads one index as well.
    sqliteOnly: true,
    sql: `
      CREATE INDEX notifications_by_id ON notifications(id, business_unit_id, created_ms);
    `,
  },
  {
    version: 8,
    name: "a business unit's applications that completed early, found without reading the others",
    // Each completion looks for the unit's early completions naming one of its titles. It read every COMPLETED
    // application of every unit and parsed its submission: under the load run's mixed traffic that was 13 % of the
    // gateway's CPU after 30 s, and growing with every completion. The few that completed early have this index.
    sql: `
      CREATE INDEX applications_completed_early ON applications(business_unit_id, created_ms)
        WHERE status = 'COMPLETED' AND early_completion = 1;
    `,
  },
  {
    version: 9,
    name: "the heartbeat row that /readyz writes to learn whether the store accepts writes",
    // Reading proves little when the disk is full or read-only, or the database is a standby after a failover: a
    // write of one small row does. One row, updated in place.
    sql: `
      CREATE TABLE store_heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        beat_ms INTEGER NOT NULL
      );
    `,
  },
  // Versions 10, 11, 14 and 15 made and changed the tables of a store part, whose own ledger now holds those steps.
  movedToAPart(10),
  movedToAPart(11),
  movedToAPart(14),
  { ...movedToAPart(15), sqliteOnly: true },
];

/**
 * Migration 6's rule for finding a notification's row of notification_status: the row `s` of the notification `n`,
 * found by its whole key (the status being one of the two). For every reader that joins the two tables.
 */
export const STATUS_OF_NOTIFICATION = `s.business_unit_id = n.business_unit_id AND s.status IN ('NEW', 'ACKNOWLEDGED')
  AND s.created_ms = n.created_ms AND s.seq = n.seq`;
