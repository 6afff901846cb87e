import type { Storage } from "../storage/storage.js";
/** Who is calling: the user and the business unit every read and write is scoped to. */
export interface Principal {
    username: string;
    businessUnitId: string;
}
/**
 * HTTP Basic authentication against the users of the store. A verified credential is remembered for a few
 * minutes under a keyed hash of the header (never the password itself), so that scrypt runs once per client
 * rather than once per request.
 */
export declare class BasicAuthenticator {
    #private;
    constructor(storage: Storage);
    /** Answers the caller, or throws 401 (401-01) for a missing, malformed or wrong credential. */
    authenticate(authorization: string | undefined): Promise<Principal>;
    /** Forgets every remembered credential (after a sandbox reset). */
    forget(): void;
}
/** Checks the sandbox bearer token in constant time; throws 401 otherwise. */
export declare function checkBearer(authorization: string | undefined, token: string): void;
