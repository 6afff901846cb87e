// `@lrg/gateway/testing`: the one way a test (of this package, the client, conformance, docs, the bench) starts a
// gateway, and the few internals a bench seed needs to write rows exactly as the gateway would.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GatewayConfig } from "./config.js";
import type { SandboxComponents } from "./operation-types.js";
import { createServer, type Composition, type Gateway } from "./server.js";

export { hashPassword } from "./auth/passwords.js";
export { copyToPostgres } from "./copy-to-postgres.js";
export { notificationsFor, type ApplicationEvent } from "./notifications/events.js";
export type { CorrespondenceDocument } from "./registry/correspondence.js";
export { allTitles } from "./registry/register.js";
export { seededRandom } from "./registry/seeded-random.js";
export type { NotificationRow } from "./storage/ports/notifications.js";
export { postgresBinDir, startPostgres, type TestPostgres } from "./testing/postgres.js";
export { startRoundRobin, type RoundRobin } from "./testing/round-robin.js";
export { serveRuntime, type ServeRuntime } from "./testing/serve-runtime.js";

/** How to start a test gateway; every member has a default fit for a test. */
export interface TestGatewayOptions {
  /** An existing data directory (a restart); it is kept at stop. Default: a new temporary one, removed at stop. */
  dataDir?: string;
  /** HTTPS on the listener with these PEM files; with `clientCa`, the title enquiries may check client certificates. */
  tls?: GatewayConfig["tls"];
  /** Sandbox settings applied (through the control plane) before the gateway is handed over. */
  settings?: SandboxComponents["schemas"]["SandboxSettingsUpdate"];
  /** The demo user created at start; null for none. Default: `demo` with a fresh password. */
  demoUser?: { username: string; password: string } | null;
  /** Bearer token of the control plane. Default: a fresh one. */
  sandboxToken?: string;
  signingSecret?: string;
  publicUrl?: string;
  /** Delay of automatic decisions. Default 50 ms, so that tests do not wait. */
  decisionDelayMs?: number;
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  logger?: boolean;
  /** A PostgreSQL database (see `startPostgres`) instead of the embedded SQLite file. */
  databaseUrl?: string;
  /** On PostgreSQL: acknowledgement statements at once (`LRG_DATABASE_ACKNOWLEDGE_STATEMENTS`). Default 2. */
  databaseAcknowledgeStatements?: number;
  /** Where blobs live when instances share them. Default: inside the data directory. */
  blobDir?: string;
  /** Timeouts and the connection cap; each member absent takes its default. */
  limits?: GatewayConfig["limits"];
  /** Blobs in this bucket (`s3://bucket/prefix`, `LRG_BLOB_URL`) instead of a directory, reached with `s3`. */
  blobUrl?: string;
  s3?: GatewayConfig["s3"];
  /** How the gateway is composed (see `Composition`): a benchmark's gateway may leave a feature out. */
  composition?: Composition;
}

/** A gateway listening for a test. */
export interface TestGateway {
  /** Its address (`https:` with `tls`). */
  url: string;
  gateway: Gateway;
  dataDir: string;
  sandboxToken: string;
  /** The demo user's credentials, when there is one. */
  demo: { username: string; password: string } | undefined;
  /** Closes the gateway and removes the data directory it made. */
  stop(): Promise<void>;
}

/** Starts a gateway on a free port (127.0.0.1) over a temporary data directory, for a test. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "lrg-gateway-")));
  const removeDataDir = async () => {
    if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
  };
  const sandboxToken = options.sandboxToken ?? randomBytes(18).toString("base64url");
  const demo =
    options.demoUser === null
      ? undefined
      : (options.demoUser ?? { username: "demo", password: `demo-${randomBytes(12).toString("base64url")}` });
  let gateway: Gateway | undefined;
  try {
    gateway = await createServer(
      {
        dataDir,
        sandboxToken,
        signingSecret: options.signingSecret ?? randomBytes(18).toString("base64url"),
        decisionDelayMs: options.decisionDelayMs ?? 50,
        logger: options.logger ?? false,
        ...(demo ? { demoUser: demo } : {}),
        ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
        ...(options.tls ? { tls: options.tls } : {}),
        ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
        ...(options.databaseAcknowledgeStatements
          ? { databaseAcknowledgeStatements: options.databaseAcknowledgeStatements }
          : {}),
        ...(options.blobDir ? { blobDir: options.blobDir } : {}),
        ...(options.limits ? { limits: options.limits } : {}),
        ...(options.blobUrl ? { blobUrl: options.blobUrl } : {}),
        ...(options.s3 ? { s3: options.s3 } : {}),
      },
      options.composition,
    );
    if (options.settings) {
      // Through the control plane in process, so that the settings are checked as any caller's are.
      const answer = await gateway.app.inject({
        method: "PUT",
        url: "/sandbox/v1/settings",
        headers: { authorization: `Bearer ${sandboxToken}` },
        payload: options.settings,
      });
      if (answer.statusCode !== 200) throw new Error(`sandbox settings refused (${answer.statusCode}): ${answer.body}`);
    }
    const url = await gateway.app.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
    const started = gateway;
    return {
      url,
      gateway: started,
      dataDir,
      sandboxToken,
      demo,
      stop: async () => {
        try {
          await started.app.close();
        } finally {
          await removeDataDir();
        }
      },
    };
  } catch (error) {
    await gateway?.app.close();
    await removeDataDir();
    throw error;
  }
}
