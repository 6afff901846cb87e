import { toDocument, toRegistryDocument, type Row } from "../rows.js";
import type { DocumentStore } from "../ports/documents.js";
import { rowById, type SqliteConnection } from "./connection.js";

/** Documents and registry documents on SQLite. */
export function sqliteDocuments(connection: SqliteConnection): DocumentStore {
  const { read, writer } = connection;
  return {
    async insertDocument(document) {
      return writer.run("insertDocument", document);
    },

    async completeUpload(id, _nowMs) {
      return writer.run("completeUpload", id);
    },

    async recordDocumentCheck(id, status, failureReason) {
      return writer.run("recordDocumentCheck", id, status, failureReason);
    },

    async documentsAwaitingCheck() {
      return (read("SELECT * FROM documents WHERE status = 'UPLOADED'").all() as Row[]).map(toDocument);
    },

    async findDocument(id, businessUnitId) {
      const row = rowById(connection, "documents", id, businessUnitId);
      return row && toDocument(row);
    },

    async putRegistryDocument(document) {
      return writer.run("putRegistryDocument", document);
    },

    async findRegistryDocument(downloadId) {
      const row = read("SELECT * FROM registry_documents WHERE download_id = ?").get(downloadId) as Row | undefined;
      return row && toRegistryDocument(row);
    },
  };
}
