import { randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { open, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { checkedAddress, type IncomingBlob } from "./blob-store.js";

/**
 * The temporary files of streamed writes in progress, in one directory: each store decides how a flushed file is
 * kept (renamed into place, or sent to a bucket); the writing, the flush and the sweep are the same for all.
 */
export class IncomingFiles {
  readonly #directory: string;

  constructor(directory: string) {
    this.#directory = directory;
    mkdirSync(directory, { recursive: true });
  }

  /** A new temporary file; `keep` is handed its path, flushed, and the address to store it under. */
  open(keep: (path: string, sha256Hex: string) => Promise<void>): IncomingBlob {
    return new IncomingFile(join(this.#directory, `${randomUUID()}.part`), keep);
  }

  /** Removes the temporary files, all of them or only those untouched for `olderThanMs` (see `BlobStore`). */
  async sweep(olderThanMs = 0): Promise<void> {
    if (olderThanMs === 0) {
      await rm(this.#directory, { recursive: true, force: true });
      mkdirSync(this.#directory, { recursive: true });
      return;
    }
    for (const name of await readdir(this.#directory)) {
      const path = join(this.#directory, name);
      const info = await stat(path).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > olderThanMs) await rm(path, { force: true });
    }
  }
}

class IncomingFile implements IncomingBlob {
  readonly stream: WriteStream;
  readonly #path: string;
  readonly #keep: (path: string, sha256Hex: string) => Promise<void>;

  constructor(path: string, keep: (path: string, sha256Hex: string) => Promise<void>) {
    this.#path = path;
    this.#keep = keep;
    this.stream = createWriteStream(path);
    // The writer (a pipeline) sees the stream's errors; this keeps one that comes before the writer listens (the
    // file cannot be created) from being an uncaught exception.
    this.stream.on("error", () => {});
  }

  async keep(sha256Hex: string): Promise<void> {
    checkedAddress(sha256Hex);
    if (!this.stream.writableFinished || this.stream.errored)
      throw new Error("a blob is kept only once all of its bytes were written");
    // Flushed before it is kept: after a crash, what is under an address is whole.
    const handle = await open(this.#path, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.#keep(this.#path, sha256Hex);
    await rm(this.#path, { force: true });
  }

  async discard(): Promise<void> {
    // Closed first: a file still being opened would otherwise appear again after its removal.
    if (!this.stream.closed)
      await new Promise<void>((resolve) => {
        this.stream.once("close", () => resolve());
        this.stream.destroy();
      });
    await rm(this.#path, { force: true });
  }
}
