import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Problem } from "../problems.js";
import type { Storage } from "../storage/storage.js";
import { decoyHash, verifyPassword } from "./passwords.js";

/** Who is calling: the user and the business unit every read and write is scoped to. */
export interface Principal {
  username: string;
  businessUnitId: string;
}

const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_LIMIT = 10_000;

/**
 * HTTP Basic authentication against the users of the store. A verified credential is remembered for a few
 * minutes under a keyed hash of the header (never the password itself), so that scrypt runs once per client
 * rather than once per request.
 */
export class BasicAuthenticator {
  readonly #storage: Storage;
  readonly #cacheKey = randomBytes(32);
  readonly #verified = new Map<string, { principal: Principal; expiresMs: number }>();

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  /** Answers the caller, or throws 401 (401-01) for a missing, malformed or wrong credential. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    const refused = new Problem("401-01", "valid credentials are required", {
      headers: { "www-authenticate": 'Basic realm="land-registration-gateway"' },
    });
    const match = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(authorization?.trim() ?? "");
    if (!match?.[1]) throw refused;
    const key = createHmac("sha256", this.#cacheKey).update(match[1]).digest("base64");
    const cached = this.#verified.get(key);
    if (cached && cached.expiresMs > Date.now()) return cached.principal;

    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) throw refused;
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const user = await this.#storage.findUser(username);
    const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
    if (!user || !ok) throw refused;
    const principal = { username: user.username, businessUnitId: user.businessUnitId };
    if (this.#verified.size >= CACHE_LIMIT) this.#verified.clear();
    this.#verified.set(key, { principal, expiresMs: Date.now() + CACHE_TTL_MS });
    return principal;
  }

  /** Forgets every remembered credential (after a sandbox reset). */
  forget(): void {
    this.#verified.clear();
  }
}

/** Checks the sandbox bearer token in constant time; throws 401 otherwise. */
export function checkBearer(authorization: string | undefined, token: string): void {
  const presented = /^Bearer (.+)$/i.exec(authorization?.trim() ?? "")?.[1] ?? "";
  const a = createHmac("sha256", token).update(presented).digest();
  const b = createHmac("sha256", token).update(token).digest();
  if (!timingSafeEqual(a, b)) {
    throw new Problem("401-01", "a valid sandbox bearer token is required", {
      headers: { "www-authenticate": 'Bearer realm="sandbox"' },
    });
  }
}
