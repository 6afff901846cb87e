import createClient, { type Client } from "openapi-fetch";
import type { paths as sandboxPaths } from "@lrg/spec/types/sandbox";
import { createRetryingFetch, type Fetch } from "./transport.js";

/** The openapi-fetch client over the gateway's sandbox control plane, typed from `spec/sandbox.yaml`. */
export type SandboxClient = Client<sandboxPaths>;

/** Options of {@link createSandboxClient}. */
export interface SandboxClientOptions {
  /** The gateway's address, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /** The sandbox bearer token from the gateway's configuration (printed at start-up). */
  readonly token: string;
  /** Per-attempt timeout. Default 30000 ms. */
  readonly timeoutMs?: number;
  readonly fetch?: Fetch;
}

/**
 * Creates a client of the sandbox control plane (business units, clock, day list, transitions, settings,
 * reset), for tests that drive the gateway's simulated registry. Not part of the registry's interface.
 */
export function createSandboxClient(options: SandboxClientOptions): SandboxClient {
  const transport: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  return createClient<sandboxPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: createRetryingFetch(transport, { timeoutMs: options.timeoutMs ?? 30_000 }),
    headers: { Authorization: `Bearer ${options.token}` },
  });
}
