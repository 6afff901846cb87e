import { open, type FileHandle } from "node:fs/promises";

/** Puts a file's written bytes on disk (`fdatasync`); the default opens the file once and keeps it open. */
export type Sync = () => Promise<void>;

/** `fdatasync` of `path` on libuv's thread pool, through one handle opened at the first call. */
export function datasyncOf(path: string): { sync: Sync; close: () => Promise<void> } {
  let handle: Promise<FileHandle> | undefined;
  return {
    sync: async () => (await (handle ??= open(path, "r"))).datasync(),
    close: async () => {
      if (handle) await (await handle).close();
      handle = undefined;
    },
  };
}

/**
 * Flushes the WAL to disk off the event loop. The store commits with `synchronous = NORMAL` (the commit writes the
 * WAL but does not wait for the disk) and answers a batch of writes only once a flush that *started after* its commit
 * has finished, so that nothing is confirmed before it is on disk, while the event loop goes on parsing and reading.
 * Flushes do not pile up: commits made while one runs share the next, and one flush covers every commit before it
 * started.
 */
export class WalFlusher {
  readonly #sync: Sync;
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  /** Flushes finished, for /metrics. */
  flushes = 0;

  constructor(sync: Sync) {
    this.#sync = sync;
  }

  /** Resolves once everything written before this call is on disk; rejects if the flush fails. */
  flush(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (!this.#running) return this.#start();
    // The running flush may have started before this caller's commit: the next one covers it.
    const queued = this.#running.then(
      () => this.#start(),
      () => this.#start(),
    );
    this.#queued = queued;
    return queued;
  }

  /** Resolves once no flush runs or waits. */
  async idle(): Promise<void> {
    while (this.#running ?? this.#queued) await (this.#queued ?? this.#running)?.catch(() => undefined);
  }

  #start(): Promise<void> {
    this.#queued = undefined;
    const running = this.#sync().then(() => {
      this.flushes += 1;
    });
    const settled = running.finally(() => {
      if (this.#running === settled) this.#running = undefined;
    });
    this.#running = settled;
    return settled;
  }
}
