import type { BlobStore } from "../storage/blob-store.js";
import type { ApplicationRow, Storage } from "../storage/storage.js";
import type { CorrespondenceDocument } from "../notifications/events.js";
/** The name of each correspondence document code, from the spec (`x-lrg-code-names`). */
export declare const DOCUMENT_NAMES: Record<string, string>;
/**
 * Writes the registry's documents for an application (real PDFs that say what they are), stores their bytes by
 * content address and records them, so that each `download_id` is the SHA-256 hex of the bytes served.
 */
export declare function generateDocuments(storage: Storage, blobs: BlobStore, application: Pick<ApplicationRow, "id" | "businessUnitId" | "registryReference">, codes: string[], nowMs: number): Promise<CorrespondenceDocument[]>;
