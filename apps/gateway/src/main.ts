#!/usr/bin/env node
// Reads the configuration from the environment, starts the gateway and says where it is.
import { join, resolve } from "node:path";
import { configFromEnv, StartFailure, storeLocation } from "./config.js";
import { keepGeneratedSecrets, prepareDirectory, SECRETS_FILE } from "./data-dir.js";
import { createServer } from "./server.js";

/** Why a port cannot be bound, by the system's error code. */
const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: "the port is in use, by another gateway or program",
  EACCES: "the port needs privileges this process does not have",
  EADDRNOTAVAIL: "the address is not one of this machine's",
};

const config = startOrStop(() => {
  const fromEnv = configFromEnv();
  prepareDirectory(fromEnv.dataDir, "LRG_DATA_DIR");
  if (fromEnv.blobDir !== undefined) prepareDirectory(fromEnv.blobDir, "LRG_BLOB_DIR");
  return keepGeneratedSecrets(fromEnv);
});
const gateway = await createServer(config).catch(stop);
const { app } = gateway;
// Every listener is bound before the gateway says it is ready: the mutual TLS one first, so that nothing answers
// (not even /healthz) when one of them cannot be bound.
const mutualTls =
  config.httpsPort === null
    ? undefined
    : await gateway
        .listenMutualTls({ port: config.httpsPort, host: config.host })
        .catch((error: unknown) => cannotListen(error, "LRG_HTTPS_PORT", config.httpsPort, "a free port, or off"));
const address = await app
  .listen({ port: config.port, host: config.host })
  .catch((error: unknown) => cannotListen(error, "PORT", config.port, "a free port"));

const lines = [
  "",
  `Land Registration Gateway listening on ${address}  (${storeLocation(config)})`,
  `  Docs:          ${address}/docs`,
  `  Spec:          ${address}/openapi.json   (sandbox control plane: ${address}/sandbox.json)`,
  `  Demo login:    ${config.demoUser?.username ?? "-"} / ${config.demoUser?.password ?? "-"}   (HTTP Basic)`,
  // The admin token is a secret: shown when the gateway made it up (nobody else knows it), never when it was given.
  config.generated.includes("LRG_SANDBOX_TOKEN")
    ? `  Sandbox token: ${config.sandboxToken}   (admin; generated ${config.kept.includes("LRG_SANDBOX_TOKEN") ? "at the first start, the same at every start on" : "now, kept for the next starts in"} ${join(resolve(config.dataDir), SECRETS_FILE)}; set LRG_SANDBOX_TOKEN to choose it)`
    : "  Sandbox token: the admin token of LRG_SANDBOX_TOKEN (not shown); each business unit created gets its own",
  ...(mutualTls
    ? mutualTlsLines(mutualTls)
    : [
        "  Mutual TLS:    off (LRG_HTTPS_PORT=off); title enquiries answer 403 until require_client_certificate is false",
      ]),
  "",
];
// The stop is handled before the banner says the gateway listens: a signal sent as soon as it is read (a supervisor,
// a test) finds its handler, instead of ending the process by the signal's default (exit 143 for SIGTERM).
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
console.log(lines.join("\n"));

/** The banner's lines about the mutual TLS listener: where it is, the demo certificates, and a request to paste. */
function mutualTlsLines({
  address: tlsAddress,
  certificates,
}: Awaited<ReturnType<typeof gateway.listenMutualTls>>): string[] {
  // The certificate names localhost and the loopback addresses: a wildcard listener is reached through 127.0.0.1.
  const reachable = tlsAddress.replace(/^https:\/\/(0\.0\.0\.0|\[::\])/, "https://127.0.0.1");
  const login = `${config.demoUser?.username ?? "demo"}:${config.demoUser?.password ?? "demo-password"}`;
  return [
    `  Mutual TLS:    ${reachable}   (title enquiries need the demo client certificate; plain HTTP answers them 403)`,
    `  Certificates:  ${certificates.dir}   (${certificates.created ? "made now" : "reused"}; delete the directory to make new ones)`,
    `                 CA ${certificates.caCert}`,
    `                 client ${certificates.clientCert}, key ${certificates.clientKey}`,
    `  Try it:        curl --cert ${certificates.clientCert} --key ${certificates.clientKey} --cacert ${certificates.caCert} -u ${login} ${reachable}/s1/v1/titles/ZZ100001/official-copies/availability`,
  ];
}

/** What `start` answers; a `StartFailure` stops the start (see `stop`). */
function startOrStop<T>(start: () => T): T {
  try {
    return start();
  } catch (error) {
    return stop(error);
  }
}

/**
 * Stops the start on a `StartFailure`: its one line (naming the variable or the file, and what to do), no stack trace,
 * exit 1. Any other error is thrown as it is: not a setting to change but a fault, whose stack is the report.
 */
function stop(error: unknown): never {
  if (!(error instanceof StartFailure)) throw error;
  console.error(`lrg-gateway: ${error.message.replace(/\s*\n\s*/g, " ")}`);
  process.exit(1);
}

/**
 * Stops the start when a listener cannot be bound: one line naming the variable to change, no stack trace, exit 1.
 * Any other error is thrown as it is.
 */
async function cannotListen(error: unknown, variable: string, port: number | null, instead: string): Promise<never> {
  const code = (error as { code?: unknown }).code;
  const why = LISTEN_FAILURES[String(code)];
  if (!why) throw error;
  console.error(
    `lrg-gateway: cannot listen on ${config.host}:${String(port)} (${why}); set ${variable} to ${instead}${code === "EADDRNOTAVAIL" ? ", or HOST to an address of this machine" : ""}`,
  );
  await app.close().catch(() => undefined);
  process.exit(1);
}
