import { createHash } from "node:crypto";
import type { Readable, Writable } from "node:stream";

/**
 * Where the gateway keeps document bytes, by content address: a blob's address is the lower-case hex SHA-256 of
 * its bytes. Nothing partial ever appears under an address, so whatever `has` finds is whole.
 * A directory (`DirectoryBlobStore`) or an S3 bucket (`S3BlobStore`); `openBlobStore` chooses from the config.
 */
export interface BlobStore {
  /** Starts a streamed write (an upload): its bytes go to a temporary place until `keep` names their address. */
  incoming(): IncomingBlob;
  /** Stores bytes held in memory (small generated documents); answers their address. */
  put(bytes: Buffer): Promise<string>;
  has(sha256Hex: string): Promise<boolean>;
  /** The blob's bytes; rejects with `BlobNotFoundError` when there is none at that address. */
  read(sha256Hex: string): Promise<Readable>;
  /**
   * Removes leftovers of writes that never completed (at start, after a crash). Where other running instances may
   * be writing too, only those untouched for `olderThanMs` go, so that no write in progress elsewhere is lost.
   */
  sweepIncoming(olderThanMs?: number): Promise<void>;
  /**
   * Whether the store answers (`reachable`) and takes a write now (`writable`): a small probe is written (and, in a
   * directory, removed). For `/readyz`, and for the start, which refuses a bucket it cannot write. Never throws.
   */
  probe(): Promise<BlobStoreHealth>;
}

/** What `probe` found, and what `/readyz` reports of the blob store. */
export interface BlobStoreHealth {
  kind: "directory" | "bucket";
  reachable: boolean;
  writable: boolean;
  /** Why not, when it is not (the error's message), for the log and the start's one line. */
  problem?: string;
}

/** The probe's bytes: its own content address, so that it can never be mistaken for a document. */
export const PROBE_NAME = "readyz-probe";

/** A blob being written: pipe its bytes into `stream`, then `keep` it, and `discard` it in any case. */
export interface IncomingBlob {
  /** Where the bytes go. */
  readonly stream: Writable;
  /**
   * Stores what was written under `sha256Hex`, which the caller has checked is its SHA-256. Refused unless
   * `stream` finished normally: a write that failed half way is never kept.
   */
  keep(sha256Hex: string): Promise<void>;
  /** Throws away whatever was not kept (safe to call after `keep`, and more than once). */
  discard(): Promise<void>;
}

/** There is no blob at an address (a reader branches on it: a download answers 404). */
export class BlobNotFoundError extends Error {
  constructor(readonly sha256Hex: string) {
    super(`no blob ${sha256Hex} in the blob store`);
    this.name = "BlobNotFoundError";
  }
}

/** The content address of `bytes`. */
export const addressOf = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

/** Refuses anything but a content address, so that no address can name a path or key outside the store. */
export function checkedAddress(sha256Hex: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex)) throw new Error(`not a blob address (64 lower-case hex): "${sha256Hex}"`);
  return sha256Hex;
}
