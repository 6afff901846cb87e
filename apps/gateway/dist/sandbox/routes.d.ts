import type { ApplicationService } from "../applications/service.js";
import type { BasicAuthenticator } from "../auth/basic-auth.js";
import { type Clock } from "../clock.js";
import type { SandboxState } from "../registry/sandbox-state.js";
import type { Handler } from "../routing.js";
import type { Storage } from "../storage/storage.js";
export interface SandboxDeps {
    storage: Storage;
    clock: Clock;
    state: SandboxState;
    applications: ApplicationService;
    authenticator: BasicAuthenticator;
    /** Work that follows a change of the clock: due decisions, retention. */
    afterClockChange: () => Promise<void>;
    /** Recreates what start-up creates (the demo business unit) after a reset. */
    afterReset: () => Promise<void>;
}
/** Creates a business unit with one user; answers the credentials (the only time the password is shown). */
export declare function createBusinessUnit(storage: Storage, name: string, credentials?: {
    username: string;
    password: string;
}): Promise<{
    business_unit_id: `${string}-${string}-${string}-${string}-${string}`;
    username: string;
    password: string;
}>;
/** Handlers of the sandbox control plane (spec/sandbox.yaml). */
export declare function sandboxHandlers(deps: SandboxDeps): Record<string, Handler>;
