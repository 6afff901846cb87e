import { parentPort, workerData } from "node:worker_threads";
import { dirname } from "node:path";
import { diskRefusal, storageFaultOf } from "../errors.js";
import { openSqlite, statementsOf } from "./driver.js";
import type { PartWritesModule } from "./part-writes.js";
import { datasyncOf, WalFlusher } from "./wal-flusher.js";
import { SqliteWrites, type WriteName } from "./writes.js";
import type { ThreadError, ToWriter, WriterData, WriterReport, WriteRequest } from "./writer.js";

// The writer thread: the one connection that writes to the embedded store's file, with the group commit. Writes
// arrive as messages; those that arrived by the time the thread gets to them run in one transaction, each in its own
// savepoint (one failing leaves the others be), and each is answered once that transaction is committed and the WAL
// flushed to disk. The event loop of the gateway meanwhile goes on parsing, reading and answering.

const port = parentPort!;
const { file, cacheKib, partWrites, partTables } = workerData as WriterData;
const db = openSqlite(file);
// NORMAL: the commit writes the WAL without waiting for the disk; the flusher then flushes it (see WalFlusher).
db.pragma("synchronous = NORMAL");
db.pragma("foreign_keys = ON");
db.pragma("busy_timeout = 5000");
// Checkpoints run on a thread of their own (see Checkpointer), not inside whichever commit crosses the threshold.
db.pragma("wal_autocheckpoint = 0");
// Its page cache (see DEFAULT_CACHE_MIB in sqlite-storage.ts): negative means KiB.
db.pragma(`cache_size = -${cacheKib}`);
const writes = new SqliteWrites(db, partTables);
const writeOfPart = await loadPartWrites();
const wal = datasyncOf(`${file}-wal`);
const flusher = new WalFlusher(wal.sync);
const pending: WriteRequest[] = [];
let groupCommits = 0;

port.on("message", (message: ToWriter) => {
  if (message.kind === "write") {
    pending.push(message);
    if (pending.length === 1) setImmediate(commitPending);
  } else if (message.kind === "autocheckpoint") {
    db.pragma(`wal_autocheckpoint = ${message.pages}`);
  } else {
    void close();
  }
});

/**
 * The store parts' writes by name, made by their modules on this connection. A part's write never takes a name of the
 * store's own writes or of another part's: the name alone says which write runs.
 */
async function loadPartWrites(): Promise<Map<string, (...args: unknown[]) => unknown>> {
  const named = new Map<string, (...args: unknown[]) => unknown>();
  const context = { db, prepared: statementsOf(db), records: writes.records };
  for (const href of partWrites) {
    const module = (await import(href)) as PartWritesModule;
    for (const [name, write] of Object.entries(module.partWrites(context))) {
      if (name in writes || named.has(name)) throw new Error(`${href} makes the write ${name}, which is taken`);
      // Its arguments are what the part's port sent by this name (see `PartConnection.write`).
      named.set(name, write as (...args: unknown[]) => unknown);
    }
  }
  return named;
}

/** Runs the write `name` with its arguments: a part's, else the store's own. */
function runWrite(name: string, args: unknown[]): unknown {
  const ofPart = writeOfPart.get(name);
  if (ofPart) return ofPart(...args);
  const own = writes[name as WriteName] as (...args: unknown[]) => unknown;
  return own.apply(writes, args);
}

function report(answers: WriterReport["answers"], changedUnits: (string | null)[] = []): void {
  port.postMessage({ answers, changedUnits, groupCommits, walFlushes: flusher.flushes } satisfies WriterReport);
}

function commitPending(): void {
  if (pending.length === 0) return;
  groupCommits += 1;
  const jobs = pending.splice(0);
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  try {
    // IMMEDIATE: the write lock first (waiting up to busy_timeout for another process's writer), so that a job which
    // reads before it writes never finds its snapshot outdated by another connection's commit (SQLITE_BUSY at once).
    db.transaction(() => {
      for (const job of jobs) {
        try {
          outcomes.push({ ok: true, value: db.transaction(() => runWrite(job.name, job.args))() });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    }).immediate();
  } catch (error) {
    writes.takeChangedUnits();
    // A write that failed for the store's sake (a full disk) may have made SQLite roll the whole transaction back, so
    // the commit then fails for want of a transaction: that write's error says why every job of the batch failed.
    const cause = outcomes.find((outcome) => !outcome.ok && storageFaultOf(outcome.error));
    const reason = cause && !cause.ok ? cause.error : error;
    const answer = threadError(reason);
    report(jobs.map((job) => ({ id: job.id, error: answer })));
    return;
  }
  const committed: { id: number; value: unknown }[] = [];
  const failed: { id: number; error: ThreadError }[] = [];
  jobs.forEach((job, index) => {
    const outcome = outcomes[index];
    if (outcome?.ok) committed.push({ id: job.id, value: outcome.value });
    else failed.push({ id: job.id, error: threadError(outcome?.error) });
  });
  // Committed: the changed units are announced now (their cached pages go), the writers answered once on disk.
  report(failed, writes.takeChangedUnits());
  if (committed.length === 0) return;
  flusher.flush().then(
    () => report(committed),
    (error: unknown) => {
      const answer = threadError(error);
      report(committed.map(({ id }) => ({ id, error: answer })));
    },
  );
}

/**
 * An error as data: what crosses to the gateway's thread is its message and the codes that say what it was, and for
 * an I/O error, what the disk says of it (a read-only or full disk is answered 503-03, as the blob store's EROFS is).
 */
function threadError(error: unknown): ThreadError {
  const { name, message, code, errcode } = (error instanceof Error ? error : new Error(String(error))) as Error & {
    code?: unknown;
    errcode?: unknown;
  };
  const refusal = storageFaultOf(error) === "unreachable" ? diskRefusal(dirname(file)) : undefined;
  return {
    name,
    message,
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof errcode === "number" ? { errcode } : {}),
    ...(refusal ? { cause: { code: refusal } } : {}),
  };
}

async function close(): Promise<void> {
  commitPending();
  await flusher.idle();
  await wal.close();
  db.close();
  // The thread ends once its last answers are sent.
  port.removeAllListeners("message");
  port.unref();
}
