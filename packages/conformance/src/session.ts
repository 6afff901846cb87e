// A session with one target: every call goes through the shared conformance checker, so no property can forget it.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { assertConformant, mediaTypeOf } from "@lrg/spec/check";
import type { HttpClient } from "./http.js";

/** The kinds of target the suite runs against. */
export type TargetName = "mock" | "gateway" | "remote";

/**
 * What a target offers beyond answering requests. `control-plane`: the sandbox control plane drives its state.
 * `semantics`: it implements the behaviour behind the schemas (a mock only echoes examples). `writes`: the suite
 * may send requests that create or change data there.
 */
export type Capability = "control-plane" | "semantics" | "writes";

/** HTTP Basic credentials of a business unit's user, and the unit token its creation answered (gateway only). */
export interface Credentials {
  username: string;
  password: string;
  business_unit_id?: string;
  /** The unit token (`lrgu_...`): the control plane over this business unit alone. */
  sandbox_token?: string;
}

/**
 * Whose control plane a sandbox call acts on: a business unit (through the unit token of its credentials), or
 * `"admin"` (the admin token: creating business units, the registry-wide day list, the global clock and settings).
 */
export type ControlScope = Credentials | "admin";

/** Options of a control-plane call that must answer one status. */
export interface ControlOptions {
  /** The status the call must answer (200 when absent). */
  status?: number;
  /** Whose control plane: the session's own business unit when absent. */
  as?: ControlScope | undefined;
}

export interface CallOptions {
  /** Whose credentials to send; `null` sends none. The session's own credentials when absent. */
  as?: Credentials | null;
  /** An Authorization header sent as it is (instead of `as`). */
  authorization?: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (sent with `application/json` unless `headers` name another content type). */
  json?: unknown;
  /** A body sent byte for byte. */
  body?: Buffer | string;
  headers?: Record<string, string>;
}

/** An answer as the checker saw it. */
export interface CheckedAnswer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the text of another body, or undefined when there is none. */
  body: unknown;
  bytes: Buffer;
}

/** An answer, already checked against the spec. */
export interface Answer extends CheckedAnswer {
  text: string;
}

/** The Authorization header of HTTP Basic credentials. */
export function basic(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}

/** Builds the query string of a request; undefined members are left out. */
export function queryString(query: CallOptions["query"]): string {
  const entries = Object.entries(query ?? {}).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
  );
  return entries.length === 0
    ? ""
    : `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}

export interface SessionOptions {
  target: TargetName;
  http: HttpClient;
  capabilities: Capability[];
  credentials: Credentials;
  /** The admin token of the control plane (needed to create business units). */
  sandboxToken?: string;
  /**
   * The suite has the target to itself: properties that change registry-wide state (the day list, the global clock,
   * the client address's failed-login budget) may run. False when absent.
   */
  exclusive?: boolean;
  /** Runs when the session closes (stop what the target started, restore settings). */
  onClose?: () => Promise<void>;
}

/** One target under test, as every property sees it. */
export class Session {
  readonly target: TargetName;
  readonly http: HttpClient;
  readonly capabilities: ReadonlySet<Capability>;
  /** The credentials calls use by default. */
  credentials: Credentials;
  /** Whether the suite has the target to itself (see SessionOptions.exclusive). */
  readonly exclusive: boolean;
  /** Requests sent so far. */
  calls = 0;
  readonly #adminToken: string | undefined;
  readonly #fixtures = new Map<string, Promise<unknown>>();
  #onClose: (() => Promise<void>)[] = [];

  constructor(options: SessionOptions) {
    this.target = options.target;
    this.http = options.http;
    this.capabilities = new Set(options.capabilities);
    this.credentials = options.credentials;
    this.#adminToken = options.sandboxToken;
    this.exclusive = options.exclusive ?? false;
    if (options.onClose) this.#onClose.push(options.onClose);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  has(capability: Capability): boolean {
    return this.capabilities.has(capability);
  }

  /** Sends a request and checks the answer against the spec (throws ConformanceError when it departs). */
  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    const as = options.as === undefined ? this.credentials : options.as;
    if (options.authorization !== undefined) headers["authorization"] = options.authorization;
    else if (as) headers["authorization"] = basic(as);
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] = "application/json";
    }
    Object.assign(headers, options.headers);
    const url = `${path}${queryString(options.query)}`;
    let answer = await this.#send(method, url, headers, body);
    // Runs sharing a gateway from one address share its failed-login budget, which refills by wall-clock time there
    // (only an exclusive session moves the global clock): a login it refused (429-02) is sent again after its
    // Retry-After. An exclusive session spends the budget alone, so its 429 is the target's answer to judge.
    for (let retry = 0; retry < 10 && this.#sharedBudgetSpent(answer); retry += 1) {
      await sleep(Number(answer.headers["retry-after"] ?? 1) * 1000);
      answer = await this.#send(method, url, headers, body);
    }
    return answer;
  }

  #sharedBudgetSpent(answer: Answer): boolean {
    return (
      this.target === "gateway" &&
      !this.exclusive &&
      answer.status === 429 &&
      (answer.body as { code?: unknown } | undefined)?.code === "429-02"
    );
  }

  /**
   * The bearer token of a control-plane scope: the unit token of `as` (the session's own business unit when
   * absent), or the admin token for `"admin"`. The suite's data is only ever driven through its owner's token.
   */
  #tokenOf(as: ControlScope | undefined): string {
    if (this.#adminToken === undefined) throw new Error(`the ${this.target} target has no sandbox control plane`);
    if (as === "admin") return this.#adminToken;
    const unit = as ?? this.credentials;
    if (unit.sandbox_token === undefined)
      throw new Error(`business unit ${unit.business_unit_id ?? unit.username} has no unit token (sandbox_token)`);
    return unit.sandbox_token;
  }

  /**
   * Calls the sandbox control plane with a bearer token (the unit token of `as`, the session's own business unit
   * when absent, or the admin token for `"admin"`); answers are checked against sandbox.yaml.
   */
  async sandbox(method: string, path: string, json?: unknown, as?: ControlScope): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#tokenOf(as)}` };
    if (json !== undefined) headers["content-type"] = "application/json";
    return this.#send(method, path, headers, json === undefined ? undefined : JSON.stringify(json));
  }

  /** Calls the control plane with the options of `call` (raw bodies, headers, query); `scope` as in `sandbox`. */
  async sandboxCall(
    method: string,
    path: string,
    options: Omit<CallOptions, "as" | "authorization"> & { scope?: ControlScope } = {},
  ): Promise<Answer> {
    const { scope, ...rest } = options;
    return this.call(method, path, { ...rest, authorization: `Bearer ${this.#tokenOf(scope)}` });
  }

  /** A control-plane call that must answer `options.status` (200); answers the body. */
  async control<T>(method: string, path: string, json?: unknown, options: ControlOptions = {}): Promise<T> {
    const status = options.status ?? 200;
    const answer = await this.sandbox(method, path, json, options.as);
    if (answer.status !== status)
      throw new Error(`${method} ${path}: expected ${status}, got ${answer.status}: ${answer.text.slice(0, 500)}`);
    return answer.body as T;
  }

  /**
   * A new business unit with its own user and unit token (created with the admin token). Before it is answered,
   * `unitSetup` (the suite's settings) runs for it through its own token.
   */
  async newBusinessUnit(): Promise<Credentials> {
    const unit = await this.control<Credentials>(
      "POST",
      "/sandbox/v1/business-units",
      { name: `conformance ${randomUUID().slice(0, 8)}` },
      { status: 201, as: "admin" },
    );
    await this.unitSetup?.(unit);
    return unit;
  }

  /** What every business unit the session creates gets through its own token (the gateway: the suite's settings). */
  unitSetup: ((unit: Credentials) => Promise<void>) | undefined;

  /** A value created once per session (e.g. a business unit holding many notifications). */
  fixture<T>(key: string, create: () => Promise<T>): Promise<T> {
    let value = this.#fixtures.get(key) as Promise<T> | undefined;
    if (!value) {
      value = create();
      this.#fixtures.set(key, value);
      value.catch(() => this.#fixtures.delete(key));
    }
    return value;
  }

  /** Work to do before each property (the gateway puts the settings of the session's own unit back to the suite's). */
  beforeEachProperty: (() => Promise<void>) | undefined;

  /** Runs `cleanup` when the session closes (last registered, first run). */
  onClose(cleanup: () => Promise<void>): void {
    this.#onClose.unshift(cleanup);
  }

  async close(): Promise<void> {
    const cleanups = this.#onClose;
    this.#onClose = [];
    for (const cleanup of cleanups) await cleanup();
    this.http.close();
  }

  async #send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: Buffer | string | undefined,
  ): Promise<Answer> {
    this.calls += 1;
    const response = await this.http.send({ method, url, headers, ...(body !== undefined ? { body } : {}) });
    const text = response.bytes.toString("utf8");
    const mediaType = mediaTypeOf(response.headers["content-type"]);
    let parsed: unknown = response.bytes.length === 0 ? undefined : text;
    if (mediaType.endsWith("json") && text.length > 0) {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        parsed = text;
      }
    }
    const answer: Answer = {
      status: response.status,
      headers: response.headers,
      body: parsed,
      bytes: response.bytes,
      text,
    };
    // A remote target may be the registry itself: its known departures (stub problem bodies, a 429 without a
    // body) are not reported as failures there.
    assertConformant(
      { method, pathname: this.http.resolve(url).pathname },
      { status: answer.status, headers: answer.headers, body: answer.bytes },
      { registry: this.target === "remote" },
    );
    return answer;
  }
}
