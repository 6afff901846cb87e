// The WAL flusher behind the SQLite store's group commit: a write is answered only once a flush that started after
// its commit has finished, and flushes asked for while one runs share the next one.
import { describe, expect, it } from "vitest";
import { WalFlusher } from "../src/storage/sqlite/wal-flusher.js";

/** A sync whose calls are counted and finished by hand. */
function manualSync() {
  const calls: { finish: () => void; fail: (error: Error) => void }[] = [];
  const sync = () => new Promise<void>((resolve, reject) => calls.push({ finish: resolve, fail: reject }));
  return { sync, calls };
}

/** Whether `promise` has settled, after the microtasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("WalFlusher", () => {
  it("answers a flush asked for while one runs only after a second flush, started once the first ended", async () => {
    const { sync, calls } = manualSync();
    const flusher = new WalFlusher(sync);
    const first = flusher.flush();
    const second = flusher.flush();
    expect(calls).toHaveLength(1);
    calls[0]?.finish();
    await first;
    expect(await settled(second)).toBe(false);
    expect(calls).toHaveLength(2);
    calls[1]?.finish();
    await second;
    expect(flusher.flushes).toBe(2);
  });

  it("lets every flush asked for while one runs share the next one", async () => {
    const { sync, calls } = manualSync();
    const flusher = new WalFlusher(sync);
    const first = flusher.flush();
    const waiting = [flusher.flush(), flusher.flush(), flusher.flush()];
    calls[0]?.finish();
    await first;
    expect(calls).toHaveLength(2);
    calls[1]?.finish();
    await Promise.all(waiting);
    expect(calls).toHaveLength(2);
    await flusher.idle();
  });

  it("rejects the callers of a failed flush, and flushes again for the next", async () => {
    const { sync, calls } = manualSync();
    const flusher = new WalFlusher(sync);
    const failed = flusher.flush();
    calls[0]?.fail(new Error("EIO"));
    await expect(failed).rejects.toThrow("EIO");
    const next = flusher.flush();
    expect(calls).toHaveLength(2);
    calls[1]?.finish();
    await next;
    expect(flusher.flushes).toBe(1);
  });

  it("is idle only once no flush runs or waits", async () => {
    const { sync, calls } = manualSync();
    const flusher = new WalFlusher(sync);
    void flusher.flush();
    void flusher.flush();
    const idle = flusher.idle();
    calls[0]?.finish();
    expect(await settled(idle)).toBe(false);
    calls[1]?.finish();
    await idle;
  });
});
