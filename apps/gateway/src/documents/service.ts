import { createHash, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Principal } from "../auth/basic-auth.js";
import type { Clock } from "../clock.js";
import { Problem, storageProblemOf } from "../problems.js";
import { MAX_DOCUMENT_BYTES } from "@lrg/spec";
import type { BlobStore } from "../storage/blobs/blob-store.js";
import type { DocumentStore, RegistryDocumentRow } from "../storage/ports/documents.js";
import { checkFile } from "./file-type.js";
import type { AddressSigner } from "./signing.js";
import type { RegistryHooks } from "../hooks.js";

const UPLOAD_WINDOW_MS = 10 * 60 * 1000;
const DOWNLOAD_WINDOW_MS = 5 * 60 * 1000;
/** An upload that sends nothing for this long is given up (a slow one that keeps sending is never cut off). */
const UPLOAD_IDLE_MS = 60 * 1000;
/**
 * A document check that fails (the object store or the database out, a read cut off) runs again after this wait,
 * doubled after each further failure up to the bound: by the wall clock, since an outage is the machine's and not
 * any unit's (a sandbox clock may be frozen or far ahead).
 */
const CHECK_RETRY_FIRST_MS = 1000;
const CHECK_RETRY_MAX_MS = 60 * 1000;

/** The wait before the check's attempt after `failures` failed ones. */
export const checkRetryDelayMs = (failures: number): number =>
  Math.min(CHECK_RETRY_MAX_MS, CHECK_RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1));

export interface DocumentServiceDeps {
  storage: DocumentStore;
  clock: Clock;
  blobs: BlobStore;
  signer: AddressSigner;
  log: (error: unknown, message: string) => void;
  /** The hook points: `uploadAddressIssued` may have a new address issued already expired. */
  hooks?: Pick<RegistryHooks, "uploadAddressIssued">;
}

/** What a PUT to an upload address brings: its address parts, its headers and its body stream. */
export interface UploadAttempt {
  documentId: string;
  query: Record<string, unknown>;
  contentLength: string | undefined;
  checksum: string | undefined;
  body: Readable;
  /** Told the business unit of the document the address names, once it is found (before any check of the address). */
  onDocument?: (businessUnitId: string) => void;
}

const base64ToHex = (base64: string) => Buffer.from(base64, "base64").toString("hex");

/**
 * Send a document and Download a document: signed upload addresses, streamed uploads checked against what was
 * signed, asynchronous file checks, and downloads by short-lived signed redirect.
 */
export class DocumentService {
  readonly #deps: DocumentServiceDeps;
  readonly #inProgress = new Set<string>();
  readonly #checks = new Set<Promise<void>>();
  /** Checks waiting to run again after a failure, by document id. */
  readonly #retries = new Map<string, NodeJS.Timeout>();
  #closed = false;

  constructor(deps: DocumentServiceDeps) {
    this.#deps = deps;
  }

  async createUploadUrl(
    principal: Principal,
    request: { document_type: string; file_length: number; file_sha256: string },
    baseUrl: string,
  ) {
    const { storage, clock, signer, hooks } = this.#deps;
    const id = randomUUID();
    const now = clock.nowMs(principal.businessUnitId);
    // An address the `uploadAddressIssued` hook has issued already expired, as if the software had waited past its ten
    // minutes: its PUT is refused 403-02 by the usual rule below.
    const issued = hooks?.uploadAddressIssued;
    const expired = issued
      ? await issued(
          principal.businessUnitId,
          { id, fileLength: request.file_length, fileSha256: request.file_sha256 },
          now,
        )
      : false;
    const expires = expired ? Math.floor(now / 1000) - 1 : Math.floor((now + UPLOAD_WINDOW_MS) / 1000);
    await storage.insertDocument({
      id,
      businessUnitId: principal.businessUnitId,
      documentType: request.document_type,
      fileLength: request.file_length,
      fileSha256: request.file_sha256,
      status: "AWAITING_UPLOAD",
      failureReason: null,
      createdMs: now,
      expiresMs: expires * 1000,
    });
    const signature = signer.sign("upload", id, request.file_length, request.file_sha256, expires);
    return { upload_url: `${baseUrl}/v0/uploads/${id}?expires=${expires}&signature=${signature}`, document_id: id };
  }

  /**
   * Receives an upload: every check that the headers allow happens before a byte is read; the body is then
   * streamed to a temporary file while hashed, and kept (under its content address) only if it is exactly what
   * was signed. Throws the Problem to answer; nothing is kept from a refused upload.
   */
  async receiveUpload(attempt: UploadAttempt): Promise<void> {
    const { storage, clock, blobs, signer, log } = this.#deps;
    const refused = (detail: string) => new Problem("403-01", `signature verification failure: ${detail}`);
    const document = /^[0-9a-f-]{36}$/.test(attempt.documentId)
      ? await storage.findDocument(attempt.documentId)
      : undefined;
    if (document) attempt.onDocument?.(document.businessUnitId);
    const expires = String(attempt.query["expires"] ?? "");
    if (
      !document ||
      !/^\d{1,12}$/.test(expires) ||
      !signer.verify(
        attempt.query["signature"],
        "upload",
        document.id,
        document.fileLength,
        document.fileSha256,
        Number(expires),
      )
    ) {
      throw refused("the upload address was altered or is not one the registry issued");
    }
    // By the clock of the unit that asked for the address (its expiry was computed by it).
    if (clock.nowMs(document.businessUnitId) > Number(expires) * 1000) {
      throw new Problem(
        "403-02",
        `the upload address expired at ${new Date(Number(expires) * 1000).toISOString()}; ask for a new one`,
      );
    }
    if (document.status !== "AWAITING_UPLOAD" || this.#inProgress.has(document.id)) {
      throw new Problem("409-04", "this upload address was used already; each address accepts one upload");
    }
    if (attempt.contentLength === undefined) throw refused("Content-Length is missing");
    if (!/^\d{1,15}$/.test(attempt.contentLength)) throw refused("Content-Length is not a number of bytes");
    const length = Number(attempt.contentLength);
    // A length other than the signed one is a signature failure whatever its size: no signed file_length exceeds
    // the 40 MiB bound, so an over-size Content-Length is refused here before any byte is read.
    if (length !== document.fileLength)
      throw refused("Content-Length differs from the file_length given at generation");
    if (attempt.checksum === undefined) throw refused("X-Provider-Checksum-Sha256 is missing");
    if (attempt.checksum !== document.fileSha256)
      throw refused("X-Provider-Checksum-Sha256 differs from the file_sha256 given at generation");

    this.#inProgress.add(document.id);
    const incoming = blobs.incoming();
    try {
      const hash = createHash("sha256");
      let received = 0;
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          if (received > MAX_DOCUMENT_BYTES)
            return callback(new Problem("413-01", `a document may not exceed ${MAX_DOCUMENT_BYTES} bytes`));
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      // A request stream (IncomingMessage) can watch its socket for inactivity.
      (attempt.body as Readable & { setTimeout?: (ms: number, callback: () => void) => void }).setTimeout?.(
        UPLOAD_IDLE_MS,
        () => attempt.body.destroy(new Error("upload idle")),
      );
      // Whose fault a broken pipeline is: the disk's (full, read-only, failing: 503, logged, the address stays
      // usable) or the client's (it stopped sending: 400-05).
      let storeFailure: unknown;
      const file = incoming.stream.once("error", (error) => (storeFailure = error));
      try {
        await pipeline(attempt.body, hashing, file);
      } catch (error) {
        if (error instanceof Problem) throw error;
        if (storeFailure !== undefined) {
          log(storeFailure, `storing the upload of document ${document.id} failed`);
          // Not a fault the store names (a bug): the error handler answers 500 and logs it.
          throw storageProblemOf(storeFailure) ?? (storeFailure as Error);
        }
        throw new Problem("400-05", `the upload ended after ${received} of ${length} bytes`);
      }
      if (received !== length) throw new Problem("400-05", `the upload ended after ${received} of ${length} bytes`);
      if (hash.digest("base64") !== document.fileSha256)
        throw refused("the bytes' SHA-256 differs from X-Provider-Checksum-Sha256");
      await incoming.keep(base64ToHex(document.fileSha256));
      if (!(await storage.completeUpload(document.id, clock.nowMs(document.businessUnitId)))) {
        throw new Problem("409-04", "this upload address was used already; each address accepts one upload");
      }
    } finally {
      this.#inProgress.delete(document.id);
      await incoming.discard();
    }
    this.#scheduleCheck(document.id, document.fileSha256);
  }

  /** Runs the checks of documents whose bytes arrived before a restart. */
  async resumeChecks(): Promise<void> {
    for (const document of await this.#deps.storage.documentsAwaitingCheck())
      this.#scheduleCheck(document.id, document.fileSha256);
  }

  /**
   * For shutdown: no check starts any more (one waiting to run again is left UPLOADED, and resumed at the next start
   * by this instance or another), and the running ones finish.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#retries.values()) clearTimeout(timer);
    this.#retries.clear();
    while (this.#checks.size > 0) await Promise.all([...this.#checks]);
  }

  /** Runs a document's checks; a failed attempt is tried again with a bounded backoff until one gets through. */
  #scheduleCheck(documentId: string, fileSha256: string, failures = 0): void {
    const { storage, blobs, log } = this.#deps;
    const check = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const outcome = await checkFile(await blobs.read(base64ToHex(fileSha256)));
      await storage.recordDocumentCheck(
        documentId,
        outcome.accepted ? "ACCEPTED" : "REJECTED",
        outcome.accepted ? null : outcome.reason,
      );
    })()
      .catch((error: unknown) => {
        if (this.#closed) return log(error, `checks of document ${documentId} failed; resumed at the next start`);
        const delayMs = checkRetryDelayMs(failures + 1);
        log(error, `checks of document ${documentId} failed; tried again in ${delayMs / 1000} s`);
        const timer = setTimeout(() => {
          this.#retries.delete(documentId);
          this.#scheduleCheck(documentId, fileSha256, failures + 1);
        }, delayMs);
        // The listeners keep a gateway alive; a check waiting to run again does not hold a process that is ending.
        timer.unref();
        this.#retries.set(documentId, timer);
      })
      .finally(() => this.#checks.delete(check));
    this.#checks.add(check);
  }

  /** The business unit whose document a signed address names by its path (an upload's or a download's), if any. */
  async ownerOfAddress(params: Record<string, unknown>): Promise<string | undefined> {
    const { storage } = this.#deps;
    const { document_id: documentId, download_id: downloadId } = params;
    if (typeof documentId === "string" && /^[0-9a-f-]{36}$/.test(documentId))
      return (await storage.findDocument(documentId))?.businessUnitId;
    if (typeof downloadId === "string") return (await storage.findRegistryDocument(downloadId))?.businessUnitId;
    return undefined;
  }

  /** The signed, short-lived address of a registry document of the caller's business unit. */
  async downloadAddress(principal: Principal, downloadId: string, baseUrl: string): Promise<string> {
    const document = await this.#deps.storage.findRegistryDocument(downloadId);
    if (!document || document.businessUnitId !== principal.businessUnitId)
      throw new Problem("404-01", `no document ${downloadId}`);
    const expires = Math.floor((this.#deps.clock.nowMs(principal.businessUnitId) + DOWNLOAD_WINDOW_MS) / 1000);
    return `${baseUrl}/v1/document-downloads/${downloadId}?expires=${expires}&signature=${this.#deps.signer.sign("download", downloadId, expires)}`;
  }

  /** The document behind a signed download address, once the address verifies. */
  async openDownload(
    downloadId: string,
    query: Record<string, unknown>,
    onDocument?: (businessUnitId: string) => void,
  ): Promise<{ document: RegistryDocumentRow; body: Readable }> {
    const expires = String(query["expires"] ?? "");
    const valid =
      /^\d{1,12}$/.test(expires) &&
      this.#deps.signer.verify(query["signature"], "download", downloadId, Number(expires));
    const expired = new Problem(
      "403-04",
      "the download address is expired or its signature does not verify; request the document again",
    );
    if (!valid) throw expired;
    const document = await this.#deps.storage.findRegistryDocument(downloadId);
    if (document) onDocument?.(document.businessUnitId);
    // By the clock of the unit the address was issued to (its expiry was computed by it).
    if (this.#deps.clock.nowMs(document?.businessUnitId ?? null) > Number(expires) * 1000) throw expired;
    if (!document || !(await this.#deps.blobs.has(downloadId)))
      throw new Problem("404-01", `no document ${downloadId}`);
    return { document, body: await this.#deps.blobs.read(downloadId) };
  }
}
