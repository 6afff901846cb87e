import { toDocument, toRegistryDocument, type Row } from "../rows.js";
import type { DocumentStore } from "../ports/documents.js";
import type { SqliteConnection } from "./connection.js";

/** Documents and registry documents on SQLite. */
export function sqliteDocuments({ read, writer }: SqliteConnection): DocumentStore {
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
      const row = (
        businessUnitId === undefined
          ? read("SELECT * FROM documents WHERE id = ?").get(id)
          : read("SELECT * FROM documents WHERE id = ? AND business_unit_id = ?").get(id, businessUnitId)
      ) as Row | undefined;
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
