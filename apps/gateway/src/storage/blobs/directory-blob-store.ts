import { mkdirSync } from "node:fs";
import { open, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import {
  addressOf,
  BlobNotFoundError,
  checkedAddress,
  PROBE_NAME,
  type BlobStore,
  type BlobStoreHealth,
  type IncomingBlob,
} from "./blob-store.js";
import { IncomingFiles } from "./incoming-files.js";

/**
 * Blobs as files of a directory, `<root>/<first two hex digits>/<address>`. A write goes to a temporary file in
 * `<root>/incoming` that is flushed and renamed into place, so a crash never leaves a half-written blob under its
 * address. For one machine, or instances that share a file system.
 */
export class DirectoryBlobStore implements BlobStore {
  readonly #root: string;
  readonly #incoming: IncomingFiles;

  /** `root`: the blobs' own directory, `dataDir`/blobs by default (several instances may share one). */
  constructor(dataDir: string, root = join(dataDir, "blobs")) {
    this.#root = root;
    this.#incoming = new IncomingFiles(join(root, "incoming"));
  }

  #pathOf(sha256Hex: string): string {
    return join(this.#root, checkedAddress(sha256Hex).slice(0, 2), sha256Hex);
  }

  incoming(): IncomingBlob {
    return this.#incoming.open(async (path, sha256Hex) => {
      mkdirSync(join(this.#root, sha256Hex.slice(0, 2)), { recursive: true });
      // Atomic: a reader sees the whole blob or none. Two writers of the same bytes replace one another harmlessly.
      await rename(path, this.#pathOf(sha256Hex));
    });
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256Hex = addressOf(bytes);
    if (await this.has(sha256Hex)) return sha256Hex;
    const incoming = this.incoming();
    try {
      incoming.stream.end(bytes);
      await finished(incoming.stream);
      await incoming.keep(sha256Hex);
    } finally {
      await incoming.discard();
    }
    return sha256Hex;
  }

  async has(sha256Hex: string): Promise<boolean> {
    const path = this.#pathOf(sha256Hex);
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }

  async read(sha256Hex: string): Promise<Readable> {
    // Opened here, so that a missing blob fails this call rather than the stream later.
    const handle = await open(this.#pathOf(sha256Hex), "r").catch((error: unknown) => {
      throw (error as NodeJS.ErrnoException).code === "ENOENT" ? new BlobNotFoundError(sha256Hex) : error;
    });
    return handle.createReadStream({ highWaterMark: 64 * 1024 });
  }

  async probe(): Promise<BlobStoreHealth> {
    const reachable = await stat(this.#root).then(
      (found) => found.isDirectory(),
      () => false,
    );
    if (!reachable) return { kind: "directory", reachable, writable: false, problem: `${this.#root} is missing` };
    const probe = join(this.#root, `.${PROBE_NAME}-${process.pid}`);
    try {
      await writeFile(probe, PROBE_NAME);
      await rm(probe, { force: true });
      return { kind: "directory", reachable, writable: true };
    } catch (error) {
      return { kind: "directory", reachable, writable: false, problem: (error as Error).message };
    }
  }

  sweepIncoming(olderThanMs = 0): Promise<void> {
    return this.#incoming.sweep(olderThanMs);
  }
}
