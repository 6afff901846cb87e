#!/usr/bin/env node
// Reads the configuration from the environment, starts the gateway and says where it is.
import { configFromEnv } from "./config.js";
import { createServer } from "./server.js";

const config = configFromEnv();
const { app } = await createServer(config);
const address = await app.listen({ port: config.port, host: config.host });

const lines = [
  "",
  `Land Registration Gateway listening on ${address}  (data in ${config.dataDir})`,
  `  Docs:          ${address}/docs`,
  `  Spec:          ${address}/openapi.json   (sandbox control plane: ${address}/sandbox.json)`,
  `  Demo login:    ${config.demoUser?.username ?? "-"} / ${config.demoUser?.password ?? "-"}   (HTTP Basic)`,
  `  Sandbox token: ${config.sandboxToken}${config.generated.includes("LRG_SANDBOX_TOKEN") ? "   (generated; set LRG_SANDBOX_TOKEN to fix it)" : ""}`,
  "",
];
console.log(lines.join("\n"));

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.log(`${signal}: finishing in-flight requests, then stopping.`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
