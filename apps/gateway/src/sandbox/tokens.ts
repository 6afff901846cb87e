import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Problem } from "../problems.js";
import type { BusinessUnitStore } from "../storage/ports/business-units.js";
import type { ControlActor } from "../auth/control-actor.js";

/** What every unit token starts with, so that a leaked one is recognisable (secret scanners, logs). */
export const UNIT_TOKEN_PREFIX = "lrgu_";
/** A unit token: the prefix and 32 random bytes, base64url (43 characters). */
const UNIT_TOKEN = /^lrgu_[A-Za-z0-9_-]{43}$/;

/** A new unit token: 256 bits from the system's CSPRNG. It is answered once and only its hash is kept. */
export function newUnitToken(): string {
  return `${UNIT_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/**
 * The hash the store keeps of a unit token. Plain SHA-256 is right here, unlike for passwords: the token is 256
 * random bits, so there is nothing to guess and a slow, salted hash (scrypt) would only cost every control-plane
 * request its time; the hash is also what the store is searched by, which a salt would prevent.
 */
export function unitTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The bearer tokens of the control plane: the admin token of the configuration, and each business unit's own token,
 * looked up by its hash in the store on every request. Nothing is remembered between requests, so a rotated token
 * stops working at once on every instance sharing the store.
 */
export class ControlTokens {
  readonly #storage: BusinessUnitStore;
  readonly #adminToken: string;
  readonly #key = randomBytes(32);

  constructor(storage: BusinessUnitStore, adminToken: string) {
    this.#storage = storage;
    this.#adminToken = adminToken;
  }

  /** Who a request's `Authorization: Bearer` proves to be; throws 401 (401-01) for a missing or unknown token. */
  async resolve(authorization: string | undefined): Promise<ControlActor> {
    const presented = /^Bearer (.+)$/i.exec(authorization?.trim() ?? "")?.[1];
    if (presented !== undefined) {
      // Compared as keyed hashes of equal length, so the time taken says nothing of how much of the token matched.
      if (timingSafeEqual(this.#mac(presented), this.#mac(this.#adminToken))) return { kind: "admin" };
      if (UNIT_TOKEN.test(presented)) {
        const hash = unitTokenHash(presented);
        const unit = await this.#storage.findBusinessUnitByTokenHash(hash);
        // The store found the row by the hash; comparing it again in constant time costs nothing and does not rely
        // on how the database compares strings.
        if (unit?.tokenHash && timingSafeEqual(Buffer.from(unit.tokenHash), Buffer.from(hash)))
          return { kind: "unit", businessUnitId: unit.id };
      }
    }
    throw new Problem("401-01", "a valid sandbox bearer token is required", {
      headers: { "www-authenticate": 'Bearer realm="sandbox"' },
    });
  }

  #mac(value: string): Buffer {
    return createHmac("sha256", this.#key).update(value).digest();
  }
}
