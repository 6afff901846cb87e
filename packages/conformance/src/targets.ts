// Opening a session with each kind of target: Prism (started here unless an address is given), the gateway
// (started in this process on a free port with a temporary data directory unless an address is given), or a
// remote environment described by the environment variables of the registry's test environment.
import { HttpClient, type TlsFiles } from "./http.js";
import { Session, type Capability, type Credentials, type TargetName } from "./session.js";

/** A target the suite would start in this process, whose package is not installed beside it. */
export class MissingTargetPackageError extends Error {
  override name = "MissingTargetPackageError";
}

/**
 * Loads the package of an in-process target. @lrg/gateway and @lrg/mock are optional peers: checking a target
 * at --url needs neither, so an installed suite does not pull in the gateway's SQLite or Prism.
 */
async function loadTarget<T>(target: "mock" | "gateway", name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing =
      (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
      String((error as Error).message).includes(`'${name}'`);
    if (!missing) throw error;
    throw new MissingTargetPackageError(
      `--target ${target} without --url starts ${name} in this process, and ${name} is not installed: install ${name} beside @lrg/conformance, or give --url of a running ${target}`,
    );
  }
}

/** What each kind of target offers (a property needing more is skipped there). */
export const TARGET_CAPABILITIES: Record<TargetName, readonly Capability[]> = {
  mock: ["writes"],
  gateway: ["writes", "semantics", "control-plane"],
  remote: ["semantics"],
};

/** Options shared by the targets. */
export interface TargetOptions {
  /** Address of an already running target; the suite starts its own when absent (mock, gateway). */
  url?: string;
}

/** A target started in this process: its address, and how to stop it. */
export interface StartedTarget {
  url: string;
  stop(): Promise<void>;
}

/** Prism serving the bundled spec, on a free port (@lrg/mock must be installed). */
export async function startPrism(): Promise<StartedTarget> {
  const { startMock } = await loadTarget("mock", "@lrg/mock", () => import("@lrg/mock"));
  const mock = await startMock({ port: 0 });
  return { url: mock.url, stop: () => mock.close() };
}

/**
 * The gateway in this process (@lrg/gateway must be installed), through its test harness: a free port on
 * 127.0.0.1, a temporary data directory (removed at stop), a random control-plane token, logs off.
 */
export async function startGateway(): Promise<StartedTarget & { sandboxToken: string }> {
  const { startTestGateway } = await loadTarget("gateway", "@lrg/gateway", () => import("@lrg/gateway/testing"));
  const gateway = await startTestGateway();
  return { url: gateway.url, sandboxToken: gateway.sandboxToken, stop: () => gateway.stop() };
}

/** Prism serving the bundled spec: schemas and examples, no behaviour behind them. */
export async function openMock(options: TargetOptions = {}): Promise<Session> {
  const started = options.url === undefined ? await startPrism() : undefined;
  const url = options.url ?? (started as StartedTarget).url;
  const close = started?.stop ?? (async () => {});
  // Prism checks that credentials are present and well formed, not whom they name.
  return new Session({
    target: "mock",
    http: new HttpClient(url),
    capabilities: [...TARGET_CAPABILITIES.mock],
    credentials: { username: "conformance", password: "any-password" },
    onClose: close,
  });
}

export interface GatewayTargetOptions extends TargetOptions {
  /** The admin token of the control plane of a running gateway (default: LRG_SANDBOX_TOKEN). */
  sandboxToken?: string;
  /**
   * The gateway at `url` is the suite's alone while it runs: the properties that change registry-wide state (the
   * day list, the global clock, the client address's failed-login budget) run too. Always true for a gateway the
   * suite starts itself; false by default for one at `url`, which other runs may share.
   */
  exclusive?: boolean;
}

/**
 * The settings every business unit the suite creates starts from, set through the unit's own token: manual
 * processing for determinism, no faults, duplicates or latency, title enquiries at any hour and over the suite's
 * plain HTTP (the properties on service hours and client certificates set those themselves).
 */
export const SUITE_SETTINGS = {
  processing: "manual",
  duplicate_rate: 0,
  latency_ms: 0,
  error_rate: 0,
  duplicate_seed: null,
  strict_date_times: false,
  service_hours: "always-open",
  require_client_certificate: false,
} as const;

/**
 * The gateway, driven through its sandbox control plane. The admin token creates the session's own business unit
 * (and any other a property needs); everything else goes through the unit token of the business unit whose data it
 * concerns: each unit gets the suite's settings when it is created, moves its own clock and decides its own
 * applications. The global clock and settings are never changed, so runs on other business units of the same
 * gateway go on undisturbed. Only an exclusive session touches registry-wide state: it opens the day list before
 * each property and puts it back as it found it when it closes.
 */
export async function openGateway(options: GatewayTargetOptions = {}): Promise<Session> {
  let url = options.url;
  let sandboxToken = options.sandboxToken ?? process.env["LRG_SANDBOX_TOKEN"];
  let stop = async () => {};
  if (url === undefined) {
    const started = await startGateway();
    ({ url, sandboxToken, stop } = started);
  } else if (sandboxToken === undefined) {
    throw new Error("the gateway target at --url needs the control plane's admin token in LRG_SANDBOX_TOKEN");
  }
  const session = new Session({
    target: "gateway",
    http: new HttpClient(url),
    capabilities: [...TARGET_CAPABILITIES.gateway],
    credentials: { username: "", password: "" },
    sandboxToken,
    exclusive: options.url === undefined || options.exclusive === true,
    onClose: stop,
  });
  try {
    session.unitSetup = async (unit) => {
      await session.control("PUT", "/sandbox/v1/settings", SUITE_SETTINGS, { as: unit });
    };
    session.credentials = await session.newBusinessUnit();
    // Every property starts from the suite's settings on the session's own unit, whatever the property before it
    // did; an exclusive session also starts each from an open day list (the day list is the registry's, not a unit's).
    let reopen = async () => {};
    if (session.exclusive) {
      const before = await session.control<{ open: boolean }>("GET", "/sandbox/v1/day-list", undefined, {
        as: "admin",
      });
      reopen = async () => {
        await session.control("PUT", "/sandbox/v1/day-list", { open: true }, { as: "admin" });
      };
      session.onClose(async () => {
        await session.control("PUT", "/sandbox/v1/day-list", { open: before.open }, { as: "admin" });
      });
    }
    session.beforeEachProperty = async () => {
      await session.control("PUT", "/sandbox/v1/settings", SUITE_SETTINGS);
      await reopen();
    };
    await reopen();
  } catch (error) {
    await session.close();
    throw error;
  }
  return session;
}

export interface RemoteTargetOptions {
  baseUrl: string;
  username: string;
  password: string;
  tls?: TlsFiles;
}

/** The remote options from LRG_BASE_URL, LRG_USERNAME, LRG_PASSWORD and LRG_CLIENT_CERT/KEY and LRG_CA. */
export function remoteOptionsFromEnv(env: NodeJS.ProcessEnv = process.env, url?: string): RemoteTargetOptions {
  const baseUrl = url ?? env["LRG_BASE_URL"];
  const missing = [
    baseUrl === undefined ? "LRG_BASE_URL (or --url)" : "",
    env["LRG_USERNAME"] === undefined ? "LRG_USERNAME" : "",
    env["LRG_PASSWORD"] === undefined ? "LRG_PASSWORD" : "",
  ].filter(Boolean);
  if (missing.length > 0) throw new Error(`the remote target needs ${missing.join(", ")}`);
  const tls: TlsFiles = {
    ...(env["LRG_CLIENT_CERT"] ? { cert: env["LRG_CLIENT_CERT"] } : {}),
    ...(env["LRG_CLIENT_KEY"] ? { key: env["LRG_CLIENT_KEY"] } : {}),
    ...(env["LRG_CA"] ? { ca: env["LRG_CA"] } : {}),
  };
  return {
    baseUrl: String(baseUrl),
    username: String(env["LRG_USERNAME"]),
    password: String(env["LRG_PASSWORD"]),
    tls,
  };
}

/** A remote environment: observed only, never changed. */
export async function openRemote(options: RemoteTargetOptions): Promise<Session> {
  const credentials: Credentials = { username: options.username, password: options.password };
  return new Session({
    target: "remote",
    http: new HttpClient(options.baseUrl, options.tls ?? {}),
    capabilities: [...TARGET_CAPABILITIES.remote],
    credentials,
  });
}
