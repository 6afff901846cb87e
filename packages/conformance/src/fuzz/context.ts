// What the fuzzer knows about the gateway's state: two business units' credentials and pools of real identifiers
// (applications, documents, download ids, message ids, notifications, registry references), seeded by a short
// set-up through the HTTP interface and topped up from every answer, so that valid requests reach real records.
import { createHash } from "node:crypto";

/** HTTP Basic credentials of a business unit's user. */
export interface Credentials {
  username: string;
  password: string;
  businessUnitId: string;
  /** The unit's token of the control plane (empty where there is no control plane). */
  sandboxToken: string;
}

/** The kinds of identifiers the fuzzer collects. */
export type PoolName =
  | "application"
  | "business_unit"
  | "document"
  | "download"
  | "message"
  | "notification"
  | "readiness_run"
  | "registry_reference"
  | "title";

/** A reference to the `pick`-th identifier of a pool, resolved when the request is sent. */
export class Ref {
  constructor(
    readonly pool: PoolName,
    readonly pick: number,
    /** Whose identifier: unit `a` (the caller of most requests) or `b` (the other business unit). */
    readonly owner: "a" | "b" = "a",
  ) {}
}

/** The member names under which answers carry identifiers of each pool. */
export const HARVESTED: Record<string, PoolName> = {
  application_request_id: "application",
  business_unit_id: "business_unit",
  document_id: "document",
  download_id: "download",
  message_id: "message",
  notification_id: "notification",
  registry_reference: "registry_reference",
  run_id: "readiness_run",
};

const POOL_LIMIT = 400;

/** Pools of identifiers per business unit, most recent last. */
export class FuzzContext {
  units: { a: Credentials; b: Credentials } | undefined;
  readonly #pools = new Map<string, string[]>();
  /** The records each unit was answered itself (or made in the set-up), as `owner:pool:value`. */
  readonly #owned = new Set<string>();
  /** Every value each unit sent, in a path, a query or a body, refused or not, as `owner:value`. */
  readonly #sent = new Set<string>();
  readonly sandboxToken: string;

  constructor(sandboxToken: string, titles: string[]) {
    this.sandboxToken = sandboxToken;
    for (const title of titles) {
      this.add("a", "title", title);
      this.add("b", "title", title);
    }
  }

  #key(owner: "a" | "b", pool: PoolName) {
    return `${owner}:${pool}`;
  }

  /** Remembers an identifier (once); `owned` when the unit itself made it or was answered it. */
  add(owner: "a" | "b", pool: PoolName, value: string, owned = true): void {
    if (owned) this.#owned.add(`${this.#key(owner, pool)}:${value}`);
    const key = this.#key(owner, pool);
    const values = this.#pools.get(key) ?? [];
    if (values.includes(value)) return;
    values.push(value);
    if (values.length > POOL_LIMIT) values.splice(0, values.length - POOL_LIMIT);
    this.#pools.set(key, values);
  }

  /** The identifier a Ref stands for; a well-formed stand-in when the pool is empty. */
  resolve(ref: Ref): string {
    const values = this.#pools.get(this.#key(ref.owner, ref.pool)) ?? [];
    if (values.length > 0) return values[ref.pick % values.length] as string;
    return standIn(ref.pool, ref.pick);
  }

  /**
   * Counts records a unit named itself in a request that succeeded as its own, without adding them to its pools: a
   * later answer to that unit that carries them (its submission's document ids in its own attachment notification)
   * shows it nothing it did not know. A request refused for naming another unit's record counts for nothing here.
   */
  named(owner: "a" | "b", records: readonly Named[]): void {
    for (const { pool, value } of records) if (pool !== "title") this.#owned.add(`${this.#key(owner, pool)}:${value}`);
  }

  /** Remembers the values a unit sends (before it is answered): what it may be shown again of its own requests. */
  sent(owner: "a" | "b", values: Iterable<string>): void {
    for (const value of values) this.#sent.add(`${owner}:${value}`);
  }

  /** Whether the unit sent this value in a request of its own, answered or refused. */
  hasSent(owner: "a" | "b", value: string): boolean {
    return this.#sent.has(`${owner}:${value}`);
  }

  /** Whether the unit owns this record: it made it, or was answered it with its own credentials. */
  has(owner: "a" | "b", pool: PoolName, value: string): boolean {
    return this.#owned.has(`${this.#key(owner, pool)}:${value}`);
  }

  /** Forgets every identifier except the register's titles (after a sandbox reset). */
  clear(): void {
    for (const key of [...this.#pools.keys()]) if (!key.endsWith(":title")) this.#pools.delete(key);
    this.#owned.clear();
    this.#sent.clear();
  }

  /** The two units (throws before the set-up made them: a bug of the caller). */
  unitsOrThrow(): { a: Credentials; b: Credentials } {
    if (this.units === undefined) throw new Error("the fuzzer has no business units");
    return this.units;
  }

  /** Takes a unit's new control-plane token from an answer that gives one (a rotation), so the unit keeps asking. */
  renewToken(body: unknown): void {
    const { business_unit_id: id, sandbox_token: token } = (body ?? {}) as Record<string, unknown>;
    if (typeof id !== "string" || typeof token !== "string" || this.units === undefined) return;
    for (const unit of [this.units.a, this.units.b]) if (unit.businessUnitId === id) unit.sandboxToken = token;
  }

  /** Collects identifiers from an answer's JSON body, for the unit that asked; `owned` as in `add`. */
  harvest(owner: "a" | "b", body: unknown, owned: boolean): void {
    for (const { pool, value } of recordsIn(body)) this.add(owner, pool, value, owned);
  }

  /** Collects the identifiers a client makes up from a successful request's JSON body; `owned` as in `add`. */
  harvestChosen(owner: "a" | "b", body: unknown, owned: boolean): void {
    for (const { pool, value } of recordsIn(body)) if (CHOSEN.includes(pool)) this.add(owner, pool, value, owned);
  }
}

/** A record named by its pool and identifier. */
export interface Named {
  pool: PoolName;
  value: string;
}

/** Identifiers the client makes up rather than the gateway: a title enquiry's `message_id`. */
const CHOSEN: PoolName[] = ["message"];

/** The records a JSON value names: its members named like a pool's identifiers (at any depth). */
export function recordsIn(value: unknown, depth = 0): Named[] {
  if (depth > 12 || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item) => recordsIn(item, depth + 1));
  return Object.entries(value as Record<string, unknown>).flatMap(([name, member]): Named[] => {
    const pool = HARVESTED[name];
    if (pool !== undefined && typeof member === "string" && member.length > 0 && member.length <= 2048)
      return [{ pool, value: member }];
    return recordsIn(member, depth + 1);
  });
}

/** Every string a JSON value holds (at any depth). */
export function stringsIn(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 12 || value === null || typeof value !== "object") return [];
  return Object.values(value as Record<string, unknown>).flatMap((member) => stringsIn(member, depth + 1));
}

/** A value of the pool's shape that the gateway has never seen (deterministic from `pick`). */
function standIn(pool: PoolName, pick: number): string {
  const hex = createHash("sha256").update(`${pool}:${pick}`).digest("hex");
  switch (pool) {
    case "download":
      return hex;
    case "registry_reference":
      return hex.slice(0, 7).toUpperCase();
    case "title":
      return "ZZ999999";
    case "message":
      return `fuzz-${hex.slice(0, 12)}`;
    default:
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
