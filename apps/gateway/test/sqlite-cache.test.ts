// LRG_SQLITE_CACHE_MIB: how much of the SQLite file the gateway's writer keeps in memory. A whole number of MiB is
// taken and shown on /metrics (config.test.ts: anything else stops the start with what was expected).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { basic, DEMO } from "./support/gateway.js";
import { metric } from "./support/metrics.js";
import { startGatewayProcess, type GatewayProcess } from "./support/process.js";

let running: GatewayProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), "lrg-cache-"));
afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const limitOn = (url: string): Promise<number> => metric(url, "lrg_db_page_cache_limit_bytes");

describe("LRG_SQLITE_CACHE_MIB", () => {
  it("sets the writer's page cache, shown on /metrics (64 MiB when unset)", async () => {
    running = await startGatewayProcess(dataDir, { LRG_SQLITE_CACHE_MIB: "16" });
    expect(await limitOn(running.url)).toBe(16 * 1024 * 1024);
    // The gateway still writes and reads with it.
    const answer = await fetch(`${running.url}/v1/notifications/acknowledge`, {
      method: "POST",
      headers: {
        authorization: basic(DEMO),
        "content-type": "application/json",
      },
      body: JSON.stringify({ data: [crypto.randomUUID()] }),
    });
    expect(answer.status).toBe(200);
    await running.stop();
    running = await startGatewayProcess(dataDir);
    expect(await limitOn(running.url)).toBe(64 * 1024 * 1024);
  });
});
