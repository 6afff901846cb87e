/** Documents sent to the registry (signed upload, checks) and the registry's own documents, downloaded by id. */
export interface DocumentStore {
  insertDocument(document: DocumentRow): Promise<void>;
  findDocument(id: string, businessUnitId?: string): Promise<DocumentRow | undefined>;
  /** Moves a document from AWAITING_UPLOAD to UPLOADED; false when it was uploaded already (single use). */
  completeUpload(id: string, nowMs: number): Promise<boolean>;
  /** Records the outcome of a document's asynchronous checks. */
  recordDocumentCheck(id: string, status: "ACCEPTED" | "REJECTED", failureReason: string | null): Promise<void>;
  /** Documents whose bytes arrived but whose checks have not finished (resumed after a restart). */
  documentsAwaitingCheck(): Promise<DocumentRow[]>;
  putRegistryDocument(document: RegistryDocumentRow): Promise<void>;
  findRegistryDocument(downloadId: string): Promise<RegistryDocumentRow | undefined>;
}

export interface DocumentRow {
  id: string;
  businessUnitId: string;
  documentType: string;
  fileLength: number;
  fileSha256: string;
  status: "AWAITING_UPLOAD" | "UPLOADED" | "ACCEPTED" | "REJECTED";
  failureReason: string | null;
  createdMs: number;
  expiresMs: number;
}

export interface RegistryDocumentRow {
  downloadId: string;
  businessUnitId: string;
  applicationId: string | null;
  code: string;
  name: string;
  contentType: string;
  size: number;
  createdMs: number;
}
