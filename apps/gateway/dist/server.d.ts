import { type FastifyInstance } from "fastify";
import { Clock } from "./clock.js";
import type { GatewayConfig } from "./config.js";
import { SqliteStorage } from "./storage/sqlite/sqlite-storage.js";
export type { GatewayConfig } from "./config.js";
/** What the gateway exposes beside its HTTP interface, for `main.ts` and for tests. */
export interface Gateway {
    app: FastifyInstance;
    storage: SqliteStorage;
    clock: Clock;
    /** Operations of the spec that this build does not answer yet. */
    unimplemented: string[];
}
/**
 * Builds the gateway: storage in `config.dataDir` (migrated), the simulated registry, every handled operation of
 * the spec and of the sandbox control plane, and the operational routes. Call `app.listen()` to serve;
 * `app.close()` finishes in-flight requests, stops the registry's background work and closes the store.
 */
export declare function createServer(config: GatewayConfig): Promise<Gateway>;
