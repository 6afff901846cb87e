import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ConnectionLimits } from "./http/limits.js";
import { parseBucketUrl, type S3Options } from "./storage/blobs/bucket.js";
import { DEFAULT_POOL_SIZE } from "./storage/postgres/defaults.js";

/** Everything the gateway needs to start. `createServer` takes it; `main.ts` reads it from the environment. */
export interface GatewayConfig {
  /** Directory of the SQLite file and the blob store. */
  dataDir: string;
  /**
   * A `postgres://` URL: the store is that PostgreSQL database, shared by every instance given it (blobs then go
   * in `blobDir`, which those instances must share too). Absent: the embedded SQLite file in `dataDir`.
   */
  databaseUrl?: string;
  /** Most connections one instance opens to PostgreSQL (default 10). */
  databasePoolSize?: number;
  /**
   * Most acknowledgement statements one instance runs on PostgreSQL at once (default 2), each carrying the
   * acknowledgements that arrived meanwhile. Their sum over the instances is best near the database server's cores.
   */
  databaseAcknowledgeStatements?: number;
  /** Most MiB of the SQLite file's pages its writer keeps in memory (default 64; not used on PostgreSQL). */
  sqliteCacheMib?: number;
  /** Directory of the content-addressed blobs (default `dataDir`/blobs). Not with `blobUrl`. */
  blobDir?: string;
  /**
   * `s3://bucket/optional/prefix`: the blobs are objects of that bucket instead of files, for instances on different
   * machines (uploads in progress still go to `dataDir`/blobs/incoming). Not with `blobDir`.
   */
  blobUrl?: string;
  /** How to reach the bucket of `blobUrl` (default: AWS in us-east-1, credentials from the AWS SDK's chain). */
  s3?: S3Options;
  /** Bearer token of the sandbox control plane. */
  sandboxToken: string;
  /** Secret for signing upload and download addresses. */
  signingSecret: string;
  /** Base address the gateway is reached at, used in links it hands out; derived from the request when absent. */
  publicUrl?: string;
  /** A business unit and user created at start when missing, so that a newcomer can log in at once. */
  demoUser?: { username: string; password: string };
  /** Delay before the simulated registry decides a submitted application in automatic processing. */
  decisionDelayMs: number;
  /** Timeouts and the connection cap (see `ConnectionLimits`); each member absent takes its default. */
  limits?: Partial<ConnectionLimits>;
  /** Structured logs (pino) on or off. */
  logger: boolean;
  /**
   * How logs are written: `json` (one pino object a line, for log collectors) or `human` (a short line per answered
   * request, for a terminal). Default `json`.
   */
  logFormat?: "json" | "human";
  /**
   * Serve the main listener over HTTPS with these PEM files. With `clientCa`, a client certificate signed by it
   * satisfies the title enquiries' mutual TLS (without one they answer 403 while the sandbox setting
   * `require_client_certificate` is true); with `requireClientCertificate` too, the TLS handshake itself refuses
   * clients without one. `npm start` adds a second, mutual TLS listener instead (`Gateway.listenMutualTls`).
   */
  tls?: { cert: string; key: string; clientCa?: string; requireClientCertificate?: boolean };
}

/**
 * The secrets the gateway made up (`generated`), kept in the data directory so that they stay the same across
 * restarts on it: the admin token a newcomer copied into a profile, the secret that signed addresses handed out. A
 * secret written there by an earlier start is read back; a secret given in the environment is never written.
 */
export function keepGeneratedSecrets<Config extends GatewayConfig & { generated: string[] }>(
  config: Config,
): Config & { kept: string[] } {
  const file = join(config.dataDir, SECRETS_FILE);
  mkdirSync(config.dataDir, { recursive: true });
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  const kept: string[] = [];
  const members = { LRG_SANDBOX_TOKEN: "sandboxToken", LRG_SIGNING_SECRET: "signingSecret" } as const;
  const next = { ...config };
  for (const name of config.generated) {
    const member = members[name as keyof typeof members];
    if (!member) continue;
    const earlier = stored[name];
    if (earlier) {
      next[member] = earlier;
      kept.push(name);
    } else stored[name] = config[member];
  }
  writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  return { ...next, kept };
}

/**
 * Where the gateway keeps what it stores, as the start banner says it: the data directory's absolute path (a relative
 * `LRG_DATA_DIR` is read from the directory the gateway started in, `apps/gateway` under `npm start`), or the
 * PostgreSQL server and database of `LRG_DATABASE_URL` (never its password); then the documents, when elsewhere.
 */
export function storeLocation(
  config: Pick<GatewayConfig, "dataDir" | "databaseUrl" | "blobDir" | "blobUrl">,
  cwd: string = process.cwd(),
): string {
  const documents = config.blobUrl ?? resolve(cwd, config.blobDir ?? join(config.dataDir, "blobs"));
  if (config.databaseUrl !== undefined)
    return `data in PostgreSQL ${databaseAddress(config.databaseUrl)}, documents in ${documents}`;
  const data = `data in ${resolve(cwd, config.dataDir)}`;
  return config.blobUrl !== undefined || config.blobDir !== undefined ? `${data}, documents in ${documents}` : data;
}

/** `host:port/database` of a PostgreSQL URL, without its credentials; the variable's name when it names no host. */
function databaseAddress(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    if (host !== "") return `${host}${pathname}`;
  } catch {
    // Not a URL the WHATWG parser reads (pg also takes other forms): name where it comes from instead.
  }
  return "(LRG_DATABASE_URL)";
}

/** The file of the data directory that keeps the generated secrets (owner-readable only). */
export const SECRETS_FILE = "secrets.json";

/** Reads the configuration from the environment (see README); generates what is absent. */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): GatewayConfig & { port: number; host: string; httpsPort: number | null; generated: string[] } {
  const generated: string[] = [];
  const secret = (name: string): string => {
    const value = env[name];
    if (value) return value;
    generated.push(name);
    return randomBytes(24).toString("base64url");
  };
  const config = {
    port: Number(env["PORT"] ?? 8080),
    host: env["HOST"] ?? "127.0.0.1",
    // The second listener, HTTPS with mutual TLS on the demo certificates of the data directory; `off` removes it.
    httpsPort: env["LRG_HTTPS_PORT"] === "off" ? null : Number(env["LRG_HTTPS_PORT"] ?? 8443),
    dataDir: env["LRG_DATA_DIR"] ?? "./.data",
    ...(env["LRG_DATABASE_URL"] ? { databaseUrl: env["LRG_DATABASE_URL"] } : {}),
    ...(env["LRG_DATABASE_POOL_SIZE"]
      ? {
          databasePoolSize: whole(
            "LRG_DATABASE_POOL_SIZE",
            env["LRG_DATABASE_POOL_SIZE"],
            MAX_POOL_SIZE,
            "connections",
          ),
        }
      : {}),
    ...(env["LRG_DATABASE_ACKNOWLEDGE_STATEMENTS"]
      ? {
          databaseAcknowledgeStatements: whole(
            "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS",
            env["LRG_DATABASE_ACKNOWLEDGE_STATEMENTS"],
            MAX_ACKNOWLEDGE_STATEMENTS,
            "statements",
          ),
        }
      : {}),
    ...(env["LRG_SQLITE_CACHE_MIB"]
      ? { sqliteCacheMib: whole("LRG_SQLITE_CACHE_MIB", env["LRG_SQLITE_CACHE_MIB"], MAX_CACHE_MIB, "MiB") }
      : {}),
    ...(env["LRG_BLOB_DIR"] ? { blobDir: env["LRG_BLOB_DIR"] } : {}),
    ...bucketFromEnv(env),
    sandboxToken: secret("LRG_SANDBOX_TOKEN"),
    signingSecret: secret("LRG_SIGNING_SECRET"),
    ...(env["LRG_PUBLIC_URL"] ? { publicUrl: env["LRG_PUBLIC_URL"] } : {}),
    demoUser: { username: env["LRG_DEMO_USERNAME"] ?? "demo", password: env["LRG_DEMO_PASSWORD"] ?? "demo-password" },
    decisionDelayMs: Number(env["LRG_DECISION_DELAY_MS"] ?? 2000),
    logger: env["LRG_LOG"] !== "off",
    // `npm start` and a terminal read short lines; anything else (a collector, a file, a pipe) JSON.
    logFormat: logFormatOf(env["LRG_LOG"], Boolean(process.stdout.isTTY)),
    limits: limitsFromEnv(env),
    ...(env["LRG_TLS_CERT"] && env["LRG_TLS_KEY"]
      ? {
          tls: {
            cert: env["LRG_TLS_CERT"],
            key: env["LRG_TLS_KEY"],
            ...(env["LRG_TLS_CLIENT_CA"] ? { clientCa: env["LRG_TLS_CLIENT_CA"] } : {}),
            requireClientCertificate: env["LRG_TLS_REQUIRE_CLIENT_CERT"] === "1",
          },
        }
      : {}),
    generated,
  };
  // Each statement holds a connection while it runs: as many as the pool would leave reads and writes none.
  const pool = config.databasePoolSize ?? DEFAULT_POOL_SIZE;
  if ((config.databaseAcknowledgeStatements ?? 0) >= pool)
    throw new Error(
      `LRG_DATABASE_ACKNOWLEDGE_STATEMENTS must be below LRG_DATABASE_POOL_SIZE (${pool}), not ${config.databaseAcknowledgeStatements}: the statements would hold every connection`,
    );
  return config;
}

/** The bucket of `LRG_BLOB_URL` and how to reach it, from the variables the AWS tools read too. */
function bucketFromEnv(env: NodeJS.ProcessEnv): Pick<GatewayConfig, "blobUrl" | "s3"> {
  const url = env["LRG_BLOB_URL"];
  const endpoint = env["LRG_S3_ENDPOINT"] || env["AWS_ENDPOINT_URL"];
  const pathStyle = env["LRG_S3_FORCE_PATH_STYLE"];
  if (!url) {
    // The AWS variables may be set for other tools; the gateway's own ones mean a bucket was intended.
    for (const name of ["LRG_S3_ENDPOINT", "LRG_S3_FORCE_PATH_STYLE"])
      if (env[name]) throw new Error(`${name} is set but LRG_BLOB_URL is not: set LRG_BLOB_URL=s3://bucket/prefix`);
    return {};
  }
  if (env["LRG_BLOB_DIR"])
    throw new Error(
      "LRG_BLOB_DIR and LRG_BLOB_URL are both set: the blobs go in a directory or in a bucket, set only one",
    );
  if (!parseBucketUrl(url))
    throw new Error(`LRG_BLOB_URL must be s3://bucket or s3://bucket/prefix (a valid S3 bucket name), not "${url}"`);
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint))
    throw new Error(
      `${env["LRG_S3_ENDPOINT"] ? "LRG_S3_ENDPOINT" : "AWS_ENDPOINT_URL"} must be an http:// or https:// address, not "${endpoint}"`,
    );
  if (pathStyle && pathStyle !== "0" && pathStyle !== "1")
    throw new Error(`LRG_S3_FORCE_PATH_STYLE must be 1 or 0, not "${pathStyle}"`);
  const accessKeyId = env["AWS_ACCESS_KEY_ID"];
  const secretAccessKey = env["AWS_SECRET_ACCESS_KEY"];
  if (!accessKeyId !== !secretAccessKey)
    throw new Error("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither");
  const sessionToken = env["AWS_SESSION_TOKEN"];
  return {
    blobUrl: url,
    s3: {
      region: env["AWS_REGION"] || "us-east-1",
      ...(endpoint ? { endpoint } : {}),
      // Most S3-compatible services (an endpoint of one's own) have no per-bucket host names.
      forcePathStyle: pathStyle ? pathStyle === "1" : Boolean(endpoint),
      ...(accessKeyId && secretAccessKey
        ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } }
        : {}),
    },
  };
}

/** `LRG_LOG`: `off`, `json`, `human`, or unset (or `on`): human on a terminal, JSON otherwise. */
function logFormatOf(value: string | undefined, terminal: boolean): "json" | "human" {
  if (value === "json" || value === "human") return value;
  if (value === undefined || value === "" || value === "on" || value === "off") return terminal ? "human" : "json";
  throw new Error(`LRG_LOG must be off, json or human (or unset), not "${value}"`);
}

/** The variable of each connection limit, and its ceiling (a day for the timeouts). */
const LIMIT_VARIABLES: Record<keyof ConnectionLimits, { name: string; max: number; unit: string }> = {
  headersTimeoutMs: { name: "LRG_HEADERS_TIMEOUT_MS", max: 86_400_000, unit: "milliseconds" },
  bodyTimeoutMs: { name: "LRG_BODY_TIMEOUT_MS", max: 86_400_000, unit: "milliseconds" },
  requestTimeoutMs: { name: "LRG_REQUEST_TIMEOUT_MS", max: 86_400_000, unit: "milliseconds" },
  maxConnections: { name: "LRG_MAX_CONNECTIONS", max: 1_000_000, unit: "connections" },
};

/** The connection limits the environment sets; the others keep their defaults. */
function limitsFromEnv(env: NodeJS.ProcessEnv): Partial<ConnectionLimits> {
  const limits: Partial<ConnectionLimits> = {};
  for (const [member, { name, max, unit }] of Object.entries(LIMIT_VARIABLES)) {
    const text = env[name];
    if (text !== undefined && text !== "") limits[member as keyof ConnectionLimits] = whole(name, text, max, unit);
  }
  return limits;
}

/** The largest page cache a setting may ask for: 64 GiB. */
const MAX_CACHE_MIB = 65_536;
/** PostgreSQL's own ceiling on connections (max_connections) is 262,143; no instance needs more than this. */
const MAX_POOL_SIZE = 10_000;
/** Statements in flight beyond a pool's worth would only wait for a connection. */
const MAX_ACKNOWLEDGE_STATEMENTS = 100;

/** A setting that counts something, from 1 to `max`; refuses anything else with what it expected. */
function whole(name: string, text: string, max: number, unit: string): number {
  const count = Number(text);
  if (!/^\d+$/.test(text) || count < 1 || count > max)
    throw new Error(`${name} must be a whole number of ${unit} from 1 to ${max}, not "${text}"`);
  return count;
}
