import { Worker } from "node:worker_threads";
import { storageFaultOf } from "../errors.js";
import type { SqliteWrites, WriteName } from "./writes.js";

/** What the writer thread is started with. */
export interface WriterData {
  file: string;
  /** The writing connection's page cache, at most, in KiB. */
  cacheKib: number;
  /** The modules of the store parts' writes (`StorePart.sqlite.writes`), which the thread imports. */
  partWrites: string[];
  /** The store parts' tables, children before their parents, which resets empty first. */
  partTables: string[];
}

/** A write for the writer thread: the SqliteWrites method, or the store part's write, `name` with `args`. */
export interface WriteRequest {
  kind: "write";
  id: number;
  name: string;
  args: unknown[];
}

/** What the writer thread is told. */
export type ToWriter =
  | WriteRequest
  /** Back to SQLite's own checkpoints, every `pages` pages (the checkpointing thread failed). */
  | { kind: "autocheckpoint"; pages: number }
  /** Commit what is queued, flush, close the connection and end. */
  | { kind: "close" };

/** An error as it crosses from the writer thread: enough to tell what it was (see isConstraintViolation). */
export interface ThreadError {
  name: string;
  message: string;
  code?: string;
  errcode?: number;
  /** What the disk said when asked after an I/O error (see diskRefusal). */
  cause?: { code: string };
}

/** What the writer thread reports: answers to writes, the units whose notifications changed, its counters. */
export interface WriterReport {
  answers: ({ id: number; value: unknown } | { id: number; error: ThreadError })[];
  changedUnits: (string | null)[];
  groupCommits: number;
  walFlushes: number;
}

type Waiting = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

/**
 * The gateway's side of the embedded store's writer thread (writer-thread.ts), which owns the connection that writes:
 * SQLite work there holds that thread, not the event loop, so a batch of writes never keeps connections from being
 * accepted or other requests from being parsed and answered, and the two run on both cores.
 */
export class SqliteWriter {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  readonly #exited: Promise<void>;
  #nextId = 1;
  /** Why writes are refused: the thread failed, or the store closed. */
  #refusal: Error | undefined;
  #failing = false;
  groupCommits = 0;
  walFlushes = 0;

  /** `onChanged`: called with the units whose notifications a committed batch changed (null: every unit). */
  constructor(data: WriterData, onChanged: (units: (string | null)[]) => void) {
    this.#worker = startThread(data);
    this.#worker.unref();
    this.#exited = new Promise<void>((resolve) => this.#worker.once("exit", () => resolve()));
    this.#worker.on("message", (report: WriterReport) => {
      this.groupCommits = report.groupCommits;
      this.walFlushes = report.walFlushes;
      if (report.changedUnits.length > 0) onChanged(report.changedUnits);
      for (const answer of report.answers) {
        const waiting = this.#waiting.get(answer.id);
        this.#waiting.delete(answer.id);
        if ("error" in answer) {
          const error = Object.assign(new Error(answer.error.message), answer.error);
          if (storageFaultOf(error)) this.#failing = true;
          waiting?.reject(error);
        } else {
          this.#failing = false;
          waiting?.resolve(answer.value);
        }
      }
      if (this.#waiting.size === 0) this.#worker.unref();
    });
    this.#worker.on("error", (error) => this.#refuse(error));
    this.#worker.on("exit", () => this.#refuse(new Error("The SQLite store is closed")));
  }

  /**
   * Whether the last write answered failed for the store's sake (a full or read-only disk, an I/O error, the lock
   * held past busy_timeout), and none has succeeded since.
   */
  get failing(): boolean {
    return this.#failing;
  }

  /** Whether writes are taken: false once the thread failed or the store closed. */
  get running(): boolean {
    return this.#refusal === undefined;
  }

  /** Writes waiting for their answer. */
  get pending(): number {
    return this.#waiting.size;
  }

  /** Runs the write `name` in the writer thread's next group commit; resolves once it is committed and on disk. */
  run<N extends WriteName>(name: N, ...args: Parameters<SqliteWrites[N]>): Promise<ReturnType<SqliteWrites[N]>> {
    return this.runPartWrite(name, ...args) as Promise<ReturnType<SqliteWrites[N]>>;
  }

  /** Runs a store part's write `name` (see `PartConnection.write`), as `run` runs the store's own. */
  runPartWrite(name: string, ...args: unknown[]): Promise<unknown> {
    if (this.#refusal) return Promise.reject(this.#refusal);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      // Held while a write waits: an unreferenced thread would let the process end before the answer.
      if (this.#waiting.size === 1) this.#worker.ref();
      this.#worker.postMessage({ kind: "write", id, name, args } satisfies ToWriter);
    });
  }

  /** Back to SQLite's own checkpoints in the writing connection. */
  checkpointEvery(pages: number): void {
    if (!this.#refusal) this.#worker.postMessage({ kind: "autocheckpoint", pages } satisfies ToWriter);
  }

  /** Commits and flushes the writes sent so far, closes the writing connection and ends the thread. */
  async close(): Promise<void> {
    if (!this.#refusal) {
      this.#refusal = new Error("The SQLite store is closed");
      this.#worker.ref();
      this.#worker.postMessage({ kind: "close" } satisfies ToWriter);
    }
    await this.#exited;
  }

  #refuse(error: Error): void {
    this.#refusal ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}

/** The thread, from the build (writer-thread.js) or, when this module runs from its TypeScript sources, through tsx. */
function startThread(workerData: WriterData): Worker {
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./writer-thread.js", import.meta.url), { workerData });
  return new Worker(new URL("./writer-thread-from-sources.mjs", import.meta.url), {
    workerData: { ...workerData, entry: new URL("./writer-thread.ts", import.meta.url).href },
  });
}
