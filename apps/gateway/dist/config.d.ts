/** Everything the gateway needs to start. `createServer` takes it; `main.ts` reads it from the environment. */
export interface GatewayConfig {
    /** Directory of the SQLite file and the blob store. */
    dataDir: string;
    /** Bearer token of the sandbox control plane. */
    sandboxToken: string;
    /** Secret for signing upload and download addresses. */
    signingSecret: string;
    /** Base address the gateway is reached at, used in links it hands out; derived from the request when absent. */
    publicUrl?: string;
    /** A business unit and user created at start when missing, so that a newcomer can log in at once. */
    demoUser?: {
        username: string;
        password: string;
    };
    /** Delay before the simulated registry decides a submitted application in automatic processing. */
    decisionDelayMs: number;
    /** Structured logs (pino) on or off. */
    logger: boolean;
}
/** Reads the configuration from the environment (see README); generates what is absent. */
export declare function configFromEnv(env?: NodeJS.ProcessEnv): GatewayConfig & {
    port: number;
    host: string;
    generated: string[];
};
