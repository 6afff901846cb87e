// LRG_SQLITE_CACHE_MIB: how much of the SQLite file the gateway's writer keeps in memory. A whole number of MiB is
// taken and shown on /metrics; anything else stops the start with a message that says what was expected.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.js";
import { basic, DEMO } from "./support/gateway.js";
import { startGatewayProcess, type GatewayProcess } from "./support/process.js";

let running: GatewayProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), "lrg-cache-"));
afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const limitOn = async (url: string): Promise<number> => {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  return Number(/^lrg_db_page_cache_limit_bytes\{database="sqlite"\} (\d+)$/m.exec(metrics)?.[1]);
};

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

  it.each(["lots", "0", "1.5", "-8", "65537", " 16"])("refuses %j with what it expects", (value) => {
    expect(() => configFromEnv({ LRG_SQLITE_CACHE_MIB: value })).toThrow(
      `LRG_SQLITE_CACHE_MIB must be a whole number of MiB from 1 to 65536, not "${value}"`,
    );
  });

  it("takes 1 and 65536, the bounds", () => {
    expect(configFromEnv({ LRG_SQLITE_CACHE_MIB: "1" }).sqliteCacheMib).toBe(1);
    expect(configFromEnv({ LRG_SQLITE_CACHE_MIB: "65536" }).sqliteCacheMib).toBe(65_536);
  });
});
