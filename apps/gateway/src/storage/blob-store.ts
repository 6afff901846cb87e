import { createHash, randomUUID } from "node:crypto";
import { createReadStream, mkdirSync, type ReadStream } from "node:fs";
import { open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Content-addressed files: a blob's name is the lower-case hex SHA-256 of its bytes. Writes go to a temporary
 * file that is flushed and renamed into place, so a crash never leaves a half-written blob under its name.
 */
export class BlobStore {
  readonly #root: string;
  readonly #incoming: string;

  /** `root`: the blobs' own directory, `dataDir`/blobs by default (several instances may share one). */
  constructor(dataDir: string, root = join(dataDir, "blobs")) {
    this.#root = root;
    this.#incoming = join(root, "incoming");
    mkdirSync(this.#incoming, { recursive: true });
  }

  pathOf(sha256Hex: string): string {
    return join(this.#root, sha256Hex.slice(0, 2), sha256Hex);
  }

  /** A fresh temporary path for a blob being written. */
  incomingPath(): string {
    return join(this.#incoming, `${randomUUID()}.part`);
  }

  /** Moves a fully written, flushed temporary file under its content address. */
  async commit(temporaryPath: string, sha256Hex: string): Promise<string> {
    const target = this.pathOf(sha256Hex);
    mkdirSync(join(this.#root, sha256Hex.slice(0, 2)), { recursive: true });
    await rename(temporaryPath, target);
    return target;
  }

  /** Stores bytes held in memory (small generated documents); answers their SHA-256 hex. */
  async put(bytes: Buffer): Promise<string> {
    const sha256Hex = createHash("sha256").update(bytes).digest("hex");
    if (await this.has(sha256Hex)) return sha256Hex;
    const temporary = this.incomingPath();
    const handle = await open(temporary, "w");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.commit(temporary, sha256Hex);
    return sha256Hex;
  }

  async has(sha256Hex: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256Hex))).isFile();
    } catch {
      return false;
    }
  }

  read(sha256Hex: string): ReadStream {
    return createReadStream(this.pathOf(sha256Hex));
  }

  /**
   * Removes leftovers of writes that never completed (at start, after a crash). In a directory shared with other
   * running instances only those untouched for `olderThanMs` go, so that no write in progress elsewhere is lost.
   */
  async sweepIncoming(olderThanMs = 0): Promise<void> {
    if (olderThanMs === 0) {
      await rm(this.#incoming, { recursive: true, force: true });
      mkdirSync(this.#incoming, { recursive: true });
      return;
    }
    for (const name of await readdir(this.#incoming)) {
      const path = join(this.#incoming, name);
      const info = await stat(path).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > olderThanMs) await rm(path, { force: true });
    }
  }
}
