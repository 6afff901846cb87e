import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { migrations } from "./migrations.js";
const json = (value) => JSON.stringify(value);
const parse = (text) => JSON.parse(String(text));
function toApplication(row) {
    return {
        id: String(row["id"]),
        businessUnitId: String(row["business_unit_id"]),
        status: String(row["status"]),
        registryReference: row["registry_reference"] ?? null,
        priorityMs: row["priority_ms"] ?? null,
        additionalProviderFilter: row["additional_provider_filter"] ?? null,
        submission: parse(row["submission"]),
        errors: parse(row["errors"]),
        warnings: parse(row["warnings"]),
        earlyCompletion: row["early_completion"] === 1,
        createdMs: Number(row["created_ms"]),
        updatedMs: Number(row["updated_ms"]),
        decideAtMs: row["decide_at_ms"] ?? null,
    };
}
function toNotification(row) {
    return {
        id: String(row["id"]),
        businessUnitId: String(row["business_unit_id"]),
        applicationId: String(row["application_id"]),
        v1Type: String(row["v1_type"]),
        v0Type: row["v0_type"] ?? null,
        v1Payload: parse(row["v1_payload"]),
        v0Payload: row["v0_payload"] === null ? null : parse(row["v0_payload"]),
        v1Schema: String(row["v1_schema"]),
        v0Schema: row["v0_schema"] ?? null,
        eventMs: Number(row["event_ms"]),
        createdMs: Number(row["created_ms"]),
        status: row["status"],
        additionalProviderFilter: row["additional_provider_filter"] ?? null,
    };
}
const APPLICATION_COLUMNS = {
    status: "status",
    registryReference: "registry_reference",
    priorityMs: "priority_ms",
    errors: "errors",
    warnings: "warnings",
    earlyCompletion: "early_completion",
    decideAtMs: "decide_at_ms",
};
/**
 * The embedded store: one SQLite file in the data directory, in WAL mode with foreign keys on and
 * `synchronous = FULL`, so that a committed change survives a crash of the process or the machine.
 */
export class SqliteStorage {
    #db;
    #insertNotification;
    constructor(dataDir) {
        mkdirSync(dataDir, { recursive: true });
        this.#db = new Database(join(dataDir, "gateway.sqlite"));
        this.#db.pragma("journal_mode = WAL");
        this.#db.pragma("synchronous = FULL");
        this.#db.pragma("foreign_keys = ON");
        this.#db.pragma("busy_timeout = 5000");
        this.#migrate();
        this.#insertNotification = this.#db.prepare(`INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, status, additional_provider_filter)
       VALUES (@id, @businessUnitId, @applicationId, @v1Type, @v0Type, @v1Payload, @v0Payload, @v1Schema, @v0Schema, @eventMs, @createdMs, @status, @additionalProviderFilter)`);
    }
    #migrate() {
        this.#db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)");
        const applied = new Set(this.#db.prepare("SELECT version FROM schema_migrations").pluck().all());
        for (const migration of migrations.filter((m) => !applied.has(m.version))) {
            this.#db.transaction(() => {
                this.#db.exec(migration.sql);
                this.#db.prepare("INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?, ?, ?)").run(migration.version, migration.name, Date.now());
            })();
        }
    }
    /** The schema versions applied to this database. */
    appliedMigrations() {
        return this.#db.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all();
    }
    async createBusinessUnit(unit, user) {
        this.#db.transaction(() => {
            this.#db.prepare("INSERT INTO business_units (id, name, created_ms) VALUES (?, ?, ?)").run(unit.id, unit.name, unit.createdMs);
            this.#db
                .prepare("INSERT INTO users (username, business_unit_id, password_hash, created_ms) VALUES (?, ?, ?, ?)")
                .run(user.username, user.businessUnitId, user.passwordHash, user.createdMs);
        })();
    }
    async findUser(username) {
        const row = this.#db.prepare("SELECT * FROM users WHERE username = ?").get(username);
        return row && {
            username: String(row["username"]),
            businessUnitId: String(row["business_unit_id"]),
            passwordHash: String(row["password_hash"]),
            createdMs: Number(row["created_ms"]),
        };
    }
    async submitApplication(application, idempotency) {
        return this.#db.transaction(() => {
            const seen = this.#db
                .prepare("SELECT request_hash, application_id FROM idempotency_keys WHERE business_unit_id = ? AND key = ?")
                .get(application.businessUnitId, idempotency.key);
            if (seen) {
                return seen["request_hash"] === idempotency.requestHash ? { kind: "replayed", applicationId: String(seen["application_id"]) } : { kind: "conflict" };
            }
            this.#db
                .prepare(`INSERT INTO applications (id, business_unit_id, status, registry_reference, priority_ms, additional_provider_filter, submission, errors, warnings, early_completion, created_ms, updated_ms, decide_at_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
                .run(application.id, application.businessUnitId, application.status, application.registryReference, application.priorityMs, application.additionalProviderFilter, json(application.submission), json(application.errors), json(application.warnings), application.earlyCompletion ? 1 : 0, application.createdMs, application.updatedMs, application.decideAtMs);
            this.#db
                .prepare("INSERT INTO idempotency_keys (business_unit_id, key, request_hash, application_id) VALUES (?, ?, ?, ?)")
                .run(application.businessUnitId, idempotency.key, idempotency.requestHash, application.id);
            return { kind: "created", applicationId: application.id };
        })();
    }
    async findApplication(id, businessUnitId) {
        const row = (businessUnitId === undefined
            ? this.#db.prepare("SELECT * FROM applications WHERE id = ?").get(id)
            : this.#db.prepare("SELECT * FROM applications WHERE id = ? AND business_unit_id = ?").get(id, businessUnitId));
        return row && toApplication(row);
    }
    async applicationsDue(nowMs, limit) {
        const rows = this.#db
            .prepare("SELECT * FROM applications WHERE status = 'VALIDATING' AND decide_at_ms IS NOT NULL AND decide_at_ms <= ? ORDER BY decide_at_ms LIMIT ?")
            .all(nowMs, limit);
        return rows.map(toApplication);
    }
    async applicationsWithStatus(status) {
        return this.#db.prepare("SELECT * FROM applications WHERE status = ? ORDER BY created_ms").all(status).map(toApplication);
    }
    async changeApplication(change) {
        const entries = Object.entries(change.patch);
        const assignments = entries.map(([key]) => `${APPLICATION_COLUMNS[key]} = @${key}`);
        const values = { id: change.applicationId, fromStatus: change.fromStatus, updatedMs: change.updatedMs };
        for (const [key, value] of entries) {
            values[key] = key === "errors" || key === "warnings" ? json(value) : key === "earlyCompletion" ? (value ? 1 : 0) : value;
        }
        const update = this.#db.prepare(`UPDATE applications SET ${[...assignments, "updated_ms = @updatedMs"].join(", ")} WHERE id = @id AND status = @fromStatus`);
        return this.#db.transaction(() => {
            if (update.run(values).changes !== 1)
                return false;
            if (change.correspondence) {
                const record = change.correspondence;
                this.#db
                    .prepare("INSERT INTO correspondence (record_id, application_id, documents, created_ms) VALUES (?, ?, ?, ?)")
                    .run(record.recordId, record.applicationId, json(record.documents), record.createdMs);
            }
            for (const notification of change.notifications)
                this.#insert(notification);
            return true;
        })();
    }
    #insert(notification) {
        this.#insertNotification.run({
            ...notification,
            v1Payload: json(notification.v1Payload),
            v0Payload: notification.v0Payload === null ? null : json(notification.v0Payload),
        });
    }
    async correspondenceOf(applicationId) {
        const rows = this.#db.prepare("SELECT * FROM correspondence WHERE application_id = ? ORDER BY created_ms, rowid").all(applicationId);
        return rows.map((row) => ({
            recordId: String(row["record_id"]),
            applicationId: String(row["application_id"]),
            documents: parse(row["documents"]),
            createdMs: Number(row["created_ms"]),
        }));
    }
    async listNotifications(query) {
        const where = ["business_unit_id = @businessUnitId", "status = @status"];
        if (query.version === "v0")
            where.push("v0_type IS NOT NULL");
        if (query.createdAfterMs !== undefined)
            where.push("created_ms > @createdAfterMs");
        if (query.createdBeforeMs !== undefined)
            where.push("created_ms < @createdBeforeMs");
        if (query.occurredAfterMs !== undefined)
            where.push("event_ms > @occurredAfterMs");
        if (query.occurredBeforeMs !== undefined)
            where.push("event_ms < @occurredBeforeMs");
        if (query.notificationType !== undefined)
            where.push(`${query.version === "v0" ? "v0_type" : "v1_type"} = @notificationType`);
        if (query.subject !== undefined)
            where.push("application_id = @subject");
        where.push(query.additionalProviderFilter === null ? "additional_provider_filter IS NULL" : "additional_provider_filter = @additionalProviderFilter");
        const sql = `SELECT * FROM notifications WHERE ${where.join(" AND ")} ORDER BY created_ms, seq LIMIT @limit`;
        return this.#db.prepare(sql).all(query).map(toNotification);
    }
    async acknowledgeNotifications(businessUnitId, ids, nowMs) {
        const unique = [...new Set(ids)];
        if (unique.length === 0)
            return [];
        const placeholders = unique.map(() => "?").join(", ");
        return this.#db.transaction(() => {
            this.#db
                .prepare(`UPDATE notifications SET status = 'ACKNOWLEDGED', acknowledged_ms = ? WHERE business_unit_id = ? AND status = 'NEW' AND id IN (${placeholders})`)
                .run(nowMs, businessUnitId, ...unique);
            const found = new Set(this.#db.prepare(`SELECT id FROM notifications WHERE business_unit_id = ? AND id IN (${placeholders})`).pluck().all(businessUnitId, ...unique));
            return unique.filter((id) => found.has(id));
        })();
    }
    async purgeNotifications(createdBeforeMs) {
        return this.#db.prepare("DELETE FROM notifications WHERE created_ms < ?").run(createdBeforeMs).changes;
    }
    async findDocument(id, businessUnitId) {
        const row = (businessUnitId === undefined
            ? this.#db.prepare("SELECT * FROM documents WHERE id = ?").get(id)
            : this.#db.prepare("SELECT * FROM documents WHERE id = ? AND business_unit_id = ?").get(id, businessUnitId));
        return row && {
            id: String(row["id"]),
            businessUnitId: String(row["business_unit_id"]),
            documentType: String(row["document_type"]),
            fileLength: Number(row["file_length"]),
            fileSha256: String(row["file_sha256"]),
            status: row["status"],
            failureReason: row["failure_reason"] ?? null,
            createdMs: Number(row["created_ms"]),
            expiresMs: Number(row["expires_ms"]),
        };
    }
    async putRegistryDocument(document) {
        this.#db
            .prepare(`INSERT OR IGNORE INTO registry_documents (download_id, business_unit_id, application_id, code, name, content_type, size, created_ms)
         VALUES (@downloadId, @businessUnitId, @applicationId, @code, @name, @contentType, @size, @createdMs)`)
            .run(document);
    }
    async findRegistryDocument(downloadId) {
        const row = this.#db.prepare("SELECT * FROM registry_documents WHERE download_id = ?").get(downloadId);
        return row && {
            downloadId: String(row["download_id"]),
            businessUnitId: String(row["business_unit_id"]),
            applicationId: row["application_id"] ?? null,
            code: String(row["code"]),
            name: String(row["name"]),
            contentType: String(row["content_type"]),
            size: Number(row["size"]),
            createdMs: Number(row["created_ms"]),
        };
    }
    async getSetting(key) {
        const value = this.#db.prepare("SELECT value FROM settings WHERE key = ?").pluck().get(key);
        return value === undefined ? undefined : parse(value);
    }
    async putSetting(key, value) {
        this.#db.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, json(value));
    }
    async reset() {
        this.#db.transaction(() => {
            for (const table of ["notifications", "correspondence", "idempotency_keys", "registry_documents", "documents", "applications", "users", "business_units", "settings"]) {
                this.#db.exec(`DELETE FROM ${table}`);
            }
        })();
    }
    async ping() {
        return this.#db.prepare("SELECT 1").pluck().get() === 1;
    }
    async close() {
        if (this.#db.open)
            this.#db.close();
    }
    /** `PRAGMA integrity_check`, for the crash-recovery tests. */
    integrityCheck() {
        return String(this.#db.pragma("integrity_check", { simple: true }));
    }
}
//# sourceMappingURL=sqlite-storage.js.map