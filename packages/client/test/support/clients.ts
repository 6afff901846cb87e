import { createGatewayClient, type GatewayClient, type GatewayClientOptions } from "../../src/index.js";

/** The address of the gateway a test's own fetch plays: no request to it leaves the process. */
export const FAKE_GATEWAY = "http://gateway.test";

/** A client of {@link FAKE_GATEWAY} as user `u`, with `options` beside (the test's own fetch, another address, retries). */
export const clientWith = (options: Partial<GatewayClientOptions> = {}): GatewayClient =>
  createGatewayClient({ baseUrl: FAKE_GATEWAY, username: "u", password: "p", ...options });
