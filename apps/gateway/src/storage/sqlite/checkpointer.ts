import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { SQLITE_DRIVER } from "./driver.js";

/**
 * How often the checkpointing thread copies the write-ahead log back into the database file. Each checkpoint
 * flushes the database file, and the commits' flushes of the log wait behind it on the same disk, so every request in
 * flight at that moment waits too. Acknowledging 100 ids on the benchmark's 1,000,000-notification file took 6.6–9.1 ms
 * with a checkpoint every 200 ms, 3.5–3.9 ms with one every second or none at all; at 32 connections the p99 of
 * acknowledge was 109–129 ms with one every second, 91–96 ms every 10 s and 82 ms with none (runs of 10 s at about
 * 415/s: three each for 1 s and 10 s, one without). Ten seconds of log is a few tens of megabytes under full load.
 */
const CHECKPOINT_INTERVAL_MS = 10_000;

// The thread's code, plain CommonJS evaluated by the worker (so that it runs the same from the TypeScript sources
// under test and from the build): its own connection to the file, a PASSIVE checkpoint every interval. PASSIVE
// never waits for the writer nor blocks it; what it cannot copy now it copies next time.
const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { file, driver, module, intervalMs } = workerData;
const db =
  driver === "node:sqlite" ? new (require("node:sqlite").DatabaseSync)(file) : new (require(module))(file);
db.exec("PRAGMA synchronous = FULL");
const timer = setInterval(() => {
  try {
    db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // Busy: the next round copies it.
  }
}, intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints an SQLite file in WAL mode from a thread of its own. SQLite's automatic checkpoint runs inside the
 * commit that crosses its threshold: the committing thread (the gateway's event loop) then writes a thousand pages
 * back into the database file and flushes it, and every request waits. Here the event loop only appends to the log
 * (flushed at each commit, so durability is unchanged) and the copying happens beside it.
 */
export class Checkpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  /** `onFailure`: the thread stopped on an error; the caller checkpoints itself again. */
  constructor(file: string, onFailure: () => void) {
    const module = SQLITE_DRIVER === "node:sqlite" ? "" : createRequire(import.meta.url).resolve("better-sqlite3");
    this.#worker = new Worker(SOURCE, {
      eval: true,
      workerData: { file, driver: SQLITE_DRIVER, module, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    this.#worker.unref();
    this.#exited = new Promise<void>((resolve) => this.#worker.once("exit", () => resolve()));
    // A failing thread never ends the process: the store goes back to SQLite's own checkpoints.
    this.#worker.on("error", onFailure);
  }

  /** Stops the thread and closes its connection. */
  async close(): Promise<void> {
    // Held until it has stopped: an unreferenced thread would let the process end in the middle of this await.
    this.#worker.ref();
    this.#worker.postMessage("close");
    await this.#exited;
  }
}
