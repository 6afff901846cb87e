// A child process that serves the gateway on a seeded data directory (or, given a database URL, on PostgreSQL), so
// that the load generator never shares its event loop. Started by startGateway(), which sends its GatewayChildInit
// first; reports its address over IPC and stops on "close". Also serves the connections its parent hands over.
import { Socket } from "node:net";
import { startTestGateway } from "@lrg/gateway/testing";
import type { GatewayChildInit } from "./processes.js";

const [dataDir, databaseUrl, acknowledgeStatements] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: gateway-child <data-dir> [postgres-url [acknowledge-statements]]");
const init = await new Promise<GatewayChildInit>((resolve) =>
  process.once("message", (message) => resolve(message as GatewayChildInit)),
);
const gateway = await startTestGateway({
  dataDir,
  demoUser: null,
  decisionDelayMs: 2000,
  ...(databaseUrl ? { databaseUrl } : {}),
  ...(acknowledgeStatements ? { databaseAcknowledgeStatements: Number(acknowledgeStatements) } : {}),
  ...(init.sandboxToken ? { sandboxToken: init.sandboxToken } : {}),
  ...(init.composition ? { composition: init.composition } : {}),
});
process.on("message", (message, handle) => {
  // A connection a balancer in the parent accepted and handed over (see startHandoverBalancer).
  if (message === "connection" && handle instanceof Socket) gateway.gateway.app.server.emit("connection", handle);
  if (message === "close") void gateway.stop().then(() => process.disconnect());
});
process.send?.({ url: gateway.url });
