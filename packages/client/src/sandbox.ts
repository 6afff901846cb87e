import createClient, { type Client } from "openapi-fetch";
import type { paths as sandboxPaths } from "@lrg/spec/types/sandbox";
import { unwrap } from "./errors.js";
import { createRetryingFetch, type Fetch } from "./transport.js";

/** The openapi-fetch client over the gateway's sandbox control plane, typed from `spec/sandbox.yaml`. */
export type SandboxClient = Client<sandboxPaths>;

/** Options of {@link createSandboxClient}. */
export interface SandboxClientOptions {
  /** The gateway's address, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /**
   * A bearer token of the control plane: a business unit's own token (`sandbox_token`, `lrgu_...`: the client then
   * acts on that unit alone, see {@link createBusinessUnitSandbox}) or the admin token from the gateway's
   * configuration (the whole sandbox).
   */
  readonly token: string;
  /** Per-attempt timeout. Default 30000 ms. */
  readonly timeoutMs?: number;
  readonly fetch?: Fetch;
}

/**
 * Creates a client of the sandbox control plane (business units, clock, day list, transitions, settings,
 * reset), for tests that drive the gateway's simulated registry. Not part of the registry's interface. With a unit
 * token every call acts on that business unit alone; with the admin token, on the whole sandbox.
 */
export function createSandboxClient(options: SandboxClientOptions): SandboxClient {
  const transport: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  return createClient<sandboxPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: createRetryingFetch(transport, { timeoutMs: options.timeoutMs ?? 30_000 }),
    headers: { Authorization: `Bearer ${options.token}` },
  });
}

/** Options of {@link createBusinessUnitSandbox}. */
export interface BusinessUnitSandboxOptions extends Omit<SandboxClientOptions, "token"> {
  /** The admin token (from the gateway's configuration): used once, to create the business unit. */
  readonly adminToken: string;
  /** The business unit's name. Default: the gateway's. */
  readonly name?: string;
}

/** A business unit of one's own: its registry credentials and a control-plane client bound to its unit token. */
export interface BusinessUnitSandbox {
  readonly businessUnitId: string;
  /** HTTP Basic credentials of the unit's user, for `createGatewayClient`. */
  readonly username: string;
  readonly password: string;
  /** The unit token (`lrgu_...`); shown once by the gateway, so keep it if another process needs it. */
  readonly token: string;
  /** The control plane acting on this business unit alone: its clock, settings, applications and reset. */
  readonly sandbox: SandboxClient;
}

/**
 * Creates a business unit with the admin token and answers a sandbox client bound to the new unit's own token, with
 * the unit's registry credentials: what a test suite or a CI pipeline sharing one gateway with others should drive,
 * so that its clock, settings and resets never touch anyone else's. Throws the typed error of a refusal (an
 * `AuthenticationError` for a wrong admin token, a `ProblemError` with code `403-05` for a unit token).
 */
export async function createBusinessUnitSandbox(options: BusinessUnitSandboxOptions): Promise<BusinessUnitSandbox> {
  const { adminToken, name, ...clientOptions } = options;
  const admin = createSandboxClient({ ...clientOptions, token: adminToken });
  const data = await unwrap(admin.POST("/sandbox/v1/business-units", { body: name === undefined ? {} : { name } }));
  return {
    businessUnitId: data.business_unit_id,
    username: data.username,
    password: data.password,
    token: data.sandbox_token,
    sandbox: createSandboxClient({ ...clientOptions, token: data.sandbox_token }),
  };
}
