// A child process that serves the gateway on a seeded data directory, so that the load generator never shares its
// event loop. Started by startGateway(); reports its address over IPC and stops on "close".
import { randomBytes } from "node:crypto";
import { createServer } from "@lrg/gateway";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: gateway-child <data-dir>");
const gateway = await createServer({
  dataDir,
  sandboxToken: randomBytes(24).toString("base64url"),
  signingSecret: randomBytes(24).toString("base64url"),
  decisionDelayMs: 2000,
  logger: false,
});
const url = await gateway.app.listen({ port: 0, host: "127.0.0.1" });
process.on("message", (message) => {
  if (message === "close") void gateway.app.close().then(() => process.disconnect());
});
process.send?.({ url });
