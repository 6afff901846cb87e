import { randomBytes } from "node:crypto";
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
 * A start that cannot go on for a reason the operator can fix. Its message is the whole of what `main.ts` prints: one
 * line naming the variable or the file and what to do (no stack trace, which would only bury it).
 */
export class StartFailure extends Error {
  override name = "StartFailure";
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
    port: portOf("PORT", env["PORT"], 8080),
    host: env["HOST"] ?? "127.0.0.1",
    // The second listener, HTTPS with mutual TLS on the demo certificates of the data directory; `off` removes it.
    httpsPort: env["LRG_HTTPS_PORT"] === "off" ? null : portOf("LRG_HTTPS_PORT", env["LRG_HTTPS_PORT"], 8443, "off"),
    dataDir: env["LRG_DATA_DIR"] ?? "./.data",
    ...(env["LRG_DATABASE_URL"] ? { databaseUrl: databaseUrlOf(env["LRG_DATABASE_URL"]) } : {}),
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
    decisionDelayMs: env["LRG_DECISION_DELAY_MS"]
      ? whole("LRG_DECISION_DELAY_MS", env["LRG_DECISION_DELAY_MS"], MAX_DELAY_MS, "milliseconds", 0)
      : DEFAULT_DECISION_DELAY_MS,
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
    throw new StartFailure(
      `LRG_DATABASE_ACKNOWLEDGE_STATEMENTS must be below LRG_DATABASE_POOL_SIZE (${pool}), not ${config.databaseAcknowledgeStatements}: the statements would hold every connection`,
    );
  return config;
}

/**
 * A port to listen on, from 0 (any free port) to 65535; `fallback` when the variable is unset or empty. `or`: the
 * other word the variable may hold, said in the message.
 */
function portOf(name: string, text: string | undefined, fallback: number, or?: string): number {
  if (text === undefined || text === "") return fallback;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535)
    throw new StartFailure(
      `${name} must be a port number from 0 to 65535${or ? `, or ${or}` : " (0: any free port)"}, not "${text}"`,
    );
  return Number(text);
}

/**
 * `LRG_DATABASE_URL` when it is a postgres:// (or postgresql://) URL. The message never repeats it: it may hold a
 * password.
 */
function databaseUrlOf(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url) || !URL.canParse(url))
    throw new StartFailure(
      "LRG_DATABASE_URL must be a postgres:// URL, such as postgres://user:password@host:5432/database (the value given is not shown: it may hold a password)",
    );
  return url;
}

/** The bucket of `LRG_BLOB_URL` and how to reach it, from the variables the AWS tools read too. */
function bucketFromEnv(env: NodeJS.ProcessEnv): Pick<GatewayConfig, "blobUrl" | "s3"> {
  const url = env["LRG_BLOB_URL"];
  const endpoint = env["LRG_S3_ENDPOINT"] || env["AWS_ENDPOINT_URL"];
  const pathStyle = env["LRG_S3_FORCE_PATH_STYLE"];
  if (!url) {
    // The AWS variables may be set for other tools; the gateway's own ones mean a bucket was intended.
    for (const name of ["LRG_S3_ENDPOINT", "LRG_S3_FORCE_PATH_STYLE"])
      if (env[name])
        throw new StartFailure(`${name} is set but LRG_BLOB_URL is not: set LRG_BLOB_URL=s3://bucket/prefix`);
    return {};
  }
  if (env["LRG_BLOB_DIR"])
    throw new StartFailure(
      "LRG_BLOB_DIR and LRG_BLOB_URL are both set: the blobs go in a directory or in a bucket, set only one",
    );
  if (!parseBucketUrl(url))
    throw new StartFailure(
      `LRG_BLOB_URL must be s3://bucket or s3://bucket/prefix (a valid S3 bucket name), not "${url}"`,
    );
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint))
    throw new StartFailure(
      `${env["LRG_S3_ENDPOINT"] ? "LRG_S3_ENDPOINT" : "AWS_ENDPOINT_URL"} must be an http:// or https:// address, not "${endpoint}"`,
    );
  if (pathStyle && pathStyle !== "0" && pathStyle !== "1")
    throw new StartFailure(`LRG_S3_FORCE_PATH_STYLE must be 1 or 0, not "${pathStyle}"`);
  const accessKeyId = env["AWS_ACCESS_KEY_ID"];
  const secretAccessKey = env["AWS_SECRET_ACCESS_KEY"];
  if (!accessKeyId !== !secretAccessKey)
    throw new StartFailure("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither");
  const sessionToken = env["AWS_SESSION_TOKEN"];
  const timeout = env["LRG_BLOB_TIMEOUT_MS"];
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
      ...(timeout ? { timeoutMs: whole("LRG_BLOB_TIMEOUT_MS", timeout, 86_400_000, "milliseconds") } : {}),
    },
  };
}

/** `LRG_LOG`: `off`, `json`, `human`, or unset (or `on`): human on a terminal, JSON otherwise. */
function logFormatOf(value: string | undefined, terminal: boolean): "json" | "human" {
  if (value === "json" || value === "human") return value;
  if (value === undefined || value === "" || value === "on" || value === "off") return terminal ? "human" : "json";
  throw new StartFailure(`LRG_LOG must be off, json or human (or unset), not "${value}"`);
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

/** The simulated registry's delay before it decides an application in automatic processing. */
const DEFAULT_DECISION_DELAY_MS = 2000;
/** The longest delay a setting may ask for: a day, as the connection timeouts. */
const MAX_DELAY_MS = 86_400_000;
/** The largest page cache a setting may ask for: 64 GiB. */
const MAX_CACHE_MIB = 65_536;
/** PostgreSQL's own ceiling on connections (max_connections) is 262,143; no instance needs more than this. */
const MAX_POOL_SIZE = 10_000;
/** Statements in flight beyond a pool's worth would only wait for a connection. */
const MAX_ACKNOWLEDGE_STATEMENTS = 100;

/** A setting that counts something, from `min` (1 unless told) to `max`; refuses anything else with what it expected. */
function whole(name: string, text: string, max: number, unit: string, min = 1): number {
  const count = Number(text);
  if (!/^\d+$/.test(text) || count < min || count > max)
    throw new StartFailure(`${name} must be a whole number of ${unit} from ${min} to ${max}, not "${text}"`);
  return count;
}
