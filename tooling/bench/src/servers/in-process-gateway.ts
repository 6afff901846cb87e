// One gateway in this process for the client resilience test (it reads the gateway's store and data directory):
// a temporary data directory, a random sandbox token, logs off.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Gateway } from "@lrg/gateway";

/** A gateway listening on 127.0.0.1 and a free port. */
export interface InProcessGateway {
  url: string;
  sandboxToken: string;
  dataDir: string;
  gateway: Gateway;
  stop(): Promise<void>;
}

/** Starts the gateway (createServer from @lrg/gateway) over a new temporary data directory, removed at stop. */
export async function startInProcessGateway(): Promise<InProcessGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), "lrg-bench-gateway-"));
  const sandboxToken = randomBytes(18).toString("base64url");
  const gateway = await createServer({ dataDir, sandboxToken, signingSecret: randomBytes(24).toString("base64url"), decisionDelayMs: 50, logger: false });
  const url = await gateway.app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url,
    sandboxToken,
    dataDir,
    gateway,
    stop: async () => {
      try {
        await gateway.app.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
