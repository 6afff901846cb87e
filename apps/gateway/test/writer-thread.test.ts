// The embedded store writes on a thread of its own (see SqliteWriter): a write that waits on the store does not hold
// the gateway's event loop, so other requests are still read and answered meanwhile. Shown with a write that cannot
// go on: another connection holds SQLite's write lock, and the gateway's writer waits for it (busy_timeout).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "../src/storage/sqlite/driver.js";
import { startGateway, type TestGateway } from "./support/gateway.js";
import { metric } from "./support/metrics.js";

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});

afterAll(async () => {
  await gateway.stop();
});

/** Counts the acknowledges still waiting, as /metrics says. */
function pendingWrites(): Promise<number> {
  return metric(gateway.url, "lrg_db_pending_writes");
}

describe("a write waiting for the SQLite file", () => {
  it("holds no other request: reads are answered while it waits, and it completes once the file is free", async () => {
    expect((await gateway.call("GET", "/v1/notifications?limit=1")).status).toBe(200);
    const other = openSqlite(join(gateway.dataDir, "gateway.sqlite"));
    other.exec("BEGIN IMMEDIATE");
    let acknowledged = false;
    const acknowledge = gateway
      .call("POST", "/v1/notifications/acknowledge", { body: { data: [crypto.randomUUID()] } })
      .finally(() => (acknowledged = true));
    try {
      // The acknowledge reaches the writer, which waits for the lock ...
      while ((await pendingWrites()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      // ... while reads, which need no lock, are answered (on the event loop the write would have held).
      for (let i = 0; i < 5; i += 1) {
        expect((await gateway.call("GET", "/v1/notifications?limit=5")).status).toBe(200);
        expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
      }
      expect(acknowledged).toBe(false);
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    expect((await acknowledge).status).toBe(200);
    expect(await pendingWrites()).toBe(0);
  });
});
