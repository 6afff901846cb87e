import type pg from "pg";
import { toDocument, toRegistryDocument } from "../rows.js";
import type { DocumentStore, RegistryDocumentRow } from "../ports/documents.js";
import { rowById, type PostgresDatabase } from "./database.js";

/** Documents and registry documents on PostgreSQL. */
export function postgresDocuments(db: PostgresDatabase): DocumentStore {
  return {
    async insertDocument(document) {
      await db.query(
        `INSERT INTO documents (id, business_unit_id, document_type, file_length, file_sha256, status, failure_reason, created_ms, expires_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          document.id,
          document.businessUnitId,
          document.documentType,
          document.fileLength,
          document.fileSha256,
          document.status,
          document.failureReason,
          document.createdMs,
          document.expiresMs,
        ],
      );
    },

    async completeUpload(id, _nowMs) {
      return (
        (await db.query("UPDATE documents SET status = 'UPLOADED' WHERE id = $1 AND status = 'AWAITING_UPLOAD'", [id]))
          .rowCount === 1
      );
    },

    async recordDocumentCheck(id, status, failureReason) {
      await db.query("UPDATE documents SET status = $1, failure_reason = $2 WHERE id = $3 AND status = 'UPLOADED'", [
        status,
        failureReason,
        id,
      ]);
    },

    async documentsAwaitingCheck() {
      return (await db.query("SELECT * FROM documents WHERE status = 'UPLOADED'")).rows.map(toDocument);
    },

    async findDocument(id, businessUnitId) {
      const row = await rowById(db, "documents", id, businessUnitId);
      return row && toDocument(row);
    },

    async putRegistryDocument(document) {
      await insertRegistryDocument(db, document);
    },

    async findRegistryDocument(downloadId) {
      const row = (await db.query("SELECT * FROM registry_documents WHERE download_id = $1", [downloadId])).rows[0];
      return row && toRegistryDocument(row);
    },
  };
}

/** Inserts a registry document unless its download id is taken (the first write wins), in `client`'s transaction if given. */
export async function insertRegistryDocument(
  db: PostgresDatabase,
  document: RegistryDocumentRow,
  client?: pg.PoolClient,
): Promise<void> {
  await db.query(
    `INSERT INTO registry_documents (download_id, business_unit_id, application_id, code, name, content_type, size, created_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
    [
      document.downloadId,
      document.businessUnitId,
      document.applicationId,
      document.code,
      document.name,
      document.contentType,
      document.size,
      document.createdMs,
    ],
    client,
  );
}
