import { createHmac, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Problem } from "../problems.js";
import type { BusinessUnitStore, UserRow } from "../storage/ports/business-units.js";
import { addressKey, LoginThrottle } from "./login-throttle.js";
import { ChecksBusy, PasswordChecks, type PasswordCheckLimits } from "./password-checks.js";
import { decoyHash, verifyPassword } from "./passwords.js";

/** Who is calling: the user and the business unit every read and write is scoped to. */
export interface Principal {
  username: string;
  businessUnitId: string;
}

const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_LIMIT = 10_000;
/** The 401 of a missing, malformed or wrong credential: made when refused, not for every request (an Error's stack costs). */
const refused = (): Problem =>
  new Problem("401-01", "valid credentials are required", {
    headers: { "www-authenticate": 'Basic realm="land-registration-gateway"' },
  });

/**
 * A refused login is answered after this pause: a client that ignores Retry-After and asks again at once would
 * otherwise turn the cheap refusal into a flood of requests. At most PAUSED_LIMIT refusals wait at a time.
 */
const REFUSAL_PAUSE_MS = 1000;
const PAUSED_LIMIT = 1024;

/** How the authenticator is built: the gateway's clock for the failed-login budgets, the password-check limits. */
export interface BasicAuthOptions {
  now: () => number;
  checks?: PasswordCheckLimits;
}

/**
 * HTTP Basic authentication against the users of the store. A verified credential is remembered for a few
 * minutes under a keyed hash of the header (never the password itself), so that scrypt runs once per client
 * rather than once per request; a remembered credential is answered at once, before any budget or queue.
 * Otherwise the failed-login budgets (`LoginThrottle`) decide whether the password is checked at all, and checks
 * run under bounded concurrency (`PasswordChecks`).
 */
export class BasicAuthenticator {
  readonly #storage: BusinessUnitStore;
  readonly #cacheKey = randomBytes(32);
  readonly #verified = new Map<string, { principal: Principal; expiresMs: number }>();
  /** The checks under way, by the same key as #verified: callers with the credential of one wait for it. */
  readonly #checking = new Map<string, Promise<Principal>>();
  readonly #throttle: LoginThrottle;
  readonly #checks: PasswordChecks;
  readonly #refused = { address: 0, username: 0, queue: 0 };
  #paused = 0;

  constructor(storage: BusinessUnitStore, options: BasicAuthOptions) {
    this.#storage = storage;
    this.#throttle = new LoginThrottle(options.now);
    this.#checks = new PasswordChecks(options.checks);
  }

  /**
   * Answers the caller, or throws 401 (401-01) for a missing, malformed or wrong credential, or 429 (429-02) when
   * the failed-login budget of the client `address` or of the username is spent, or too many checks are waiting.
   */
  async authenticate(authorization: string | undefined, address: string | undefined): Promise<Principal> {
    const match = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(authorization?.trim() ?? "");
    if (!match?.[1]) throw refused();
    const key = createHmac("sha256", this.#cacheKey).update(match[1]).digest("base64");
    const cached = this.#verified.get(key);
    if (cached && cached.expiresMs > Date.now()) return cached.principal;
    // Requests that arrive together with one credential share one check: a client opening with a burst of parallel
    // calls neither queues a password check per call (and overflows the queue) nor spends the budget once per call.
    const pending = this.#checking.get(key);
    if (pending) return pending;
    const check = this.#check(match[1], key, address).finally(() => this.#checking.delete(key));
    this.#checking.set(key, check);
    return check;
  }

  async #check(encoded: string, key: string, address: string | undefined): Promise<Principal> {
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) throw refused();
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const admission = this.#throttle.admit(username, addressKey(address));
    if (!admission.admitted) {
      this.#refused[admission.reason] += 1;
      const whose = admission.reason === "address" ? "from this address" : "for this username";
      throw await this.#refusal(`too many failed logins ${whose}`, admission.retryAfterSeconds);
    }
    let ok = false;
    let user: UserRow | undefined;
    try {
      user = await this.#storage.findUser(username);
      const hash = user?.passwordHash ?? (await decoyHash);
      ok = (await this.#checks.run(() => verifyPassword(password, hash), admission.known)) && user !== undefined;
    } catch (error) {
      // No check ran (a full queue, the store failing): nothing was learnt about the password, so nothing is spent.
      admission.settle(undefined);
      if (!(error instanceof ChecksBusy)) throw error;
      this.#refused.queue += 1;
      throw await this.#refusal("too many password checks are waiting", 1);
    }
    admission.settle(ok);
    if (!user || !ok) throw refused();
    const principal = { username: user.username, businessUnitId: user.businessUnitId };
    if (this.#verified.size >= CACHE_LIMIT) this.#verified.clear();
    this.#verified.set(key, { principal, expiresMs: Date.now() + CACHE_TTL_MS });
    return principal;
  }

  /** Forgets every remembered credential (after a sandbox reset). */
  forget(): void {
    this.#verified.clear();
  }

  /** Forgets the failed-login budgets and the addresses known per user (a sandbox reset empties them). */
  forgetFailures(): void {
    this.#throttle.clear();
  }

  /** The login figures in the Prometheus text format. */
  metrics(): string[] {
    return [
      "# HELP lrg_auth_scrypt_total Password checks (scrypt) run for logins.",
      "# TYPE lrg_auth_scrypt_total counter",
      `lrg_auth_scrypt_total ${this.#checks.started}`,
      "# HELP lrg_auth_scrypt_waiting Password checks waiting for a slot.",
      "# TYPE lrg_auth_scrypt_waiting gauge",
      `lrg_auth_scrypt_waiting ${this.#checks.waiting}`,
      "# HELP lrg_auth_refused_total Logins answered 429 without a password check, by the budget or queue that refused them.",
      "# TYPE lrg_auth_refused_total counter",
      ...Object.entries(this.#refused).map(([reason, count]) => `lrg_auth_refused_total{reason="${reason}"} ${count}`),
    ];
  }

  /** The 429 of a refused login, once its pause is over (no pause when too many refusals already wait). */
  async #refusal(detail: string, retryAfterSeconds: number): Promise<Problem> {
    if (this.#paused < PAUSED_LIMIT) {
      this.#paused += 1;
      try {
        await sleep(REFUSAL_PAUSE_MS);
      } finally {
        this.#paused -= 1;
      }
    }
    const after = `retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}`;
    return new Problem("429-02", `${detail}; ${after}`, { headers: { "retry-after": String(retryAfterSeconds) } });
  }
}
