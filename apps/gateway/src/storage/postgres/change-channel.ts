import { randomUUID } from "node:crypto";
import pg from "pg";
import type { StoreFigures } from "../storage.js";
import { CONNECT_TIMEOUT_MS } from "./defaults.js";

/** The channel on which every instance announces committed changes to the others. */
export const CHANNEL = "lrg_changes";

/**
 * What a change announced on the channel says: notifications of a unit (of every unit: null) changed, or the
 * sandbox state (settings, clock, day list, scheduled faults, credentials).
 */
export type ChangeMessage = { kind: "notifications"; businessUnitId: string | null } | { kind: "state" };

/**
 * The barrier's query (see `sync`): empty. Measured against `SELECT 1` on 20,000 round trips: 29-32 µs of the
 * gateway's CPU each against 47-59, and half the database server's CPU in the two-instance list benchmark.
 */
const BARRIER = "";

/**
 * How the instances on one database hear each other's committed changes. One connection outside the pool LISTENs;
 * what another instance announced reaches this one's listeners (the notification page cache drops the unit's pages,
 * the sandbox state is read again), and `sync` waits until every change committed before it was called has been
 * heard. A transaction announces its changes with `pg_notify(CHANNEL, channel.payload(message))`, which PostgreSQL
 * delivers at commit, and tells this instance's own listeners with `announce` once committed.
 */
export class ChangeChannel {
  readonly #url: string;
  readonly #notificationListeners: ((businessUnitId: string | null) => void)[] = [];
  readonly #stateListeners: (() => Promise<void>)[] = [];
  /** Reloads started by announced changes and not finished yet: `sync` waits for them. */
  readonly #reloading = new Set<Promise<void>>();
  /** The round trip on the listening connection in flight, and the next one, which `sync` callers join (see `sync`). */
  #barrier: Promise<void> | undefined;
  #nextBarrier: Promise<void> | undefined;
  /** Round trips that confirmed every other instance's changes were heard, for /metrics. */
  #barriers = 0;
  #listener: pg.Client | undefined;
  #closed = false;
  /** Names this instance in what it announces, so that it does not hear its own changes twice. */
  readonly instance = randomUUID();

  private constructor(url: string) {
    this.#url = url;
  }

  /** Starts listening on the database at `url`. */
  static async open(url: string): Promise<ChangeChannel> {
    const channel = new ChangeChannel(url);
    await channel.#listen();
    return channel;
  }

  onNotificationsChanged(listener: (businessUnitId: string | null) => void): void {
    this.#notificationListeners.push(listener);
  }

  onStateChanged(listener: () => Promise<void>): void {
    this.#stateListeners.push(listener);
  }

  /** The text a transaction gives `pg_notify` to announce `message` as this instance's. */
  payload(message: ChangeMessage): string {
    return JSON.stringify({ ...message, from: this.instance });
  }

  /**
   * Opens the listening connection. A lost connection is opened again, and meanwhile every cached page is dropped;
   * `again`: this is such a new attempt, which tries again later when it fails.
   */
  async #listen(again = false): Promise<void> {
    // A database that does not answer at all fails the start (or this attempt) rather than holding it without end.
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on("notification", (message) => {
      if (!message.payload) return;
      const { from, ...change } = JSON.parse(message.payload) as ChangeMessage & { from: string };
      if (from !== this.instance) this.announce(change);
    });
    const everythingChanged = (): void => {
      this.announce({ kind: "notifications", businessUnitId: null });
      this.announce({ kind: "state" });
    };
    let lost = false;
    const reconnect = (): void => {
      // Once per connection: its loss may be told twice (an 'error' then 'end', or a failed LISTEN).
      if (this.#closed || lost) return;
      lost = true;
      // Changes announced while no connection listened are lost: drop everything derived, now and once back.
      if (this.#listener === client) this.#listener = undefined;
      everythingChanged();
      void client.end().catch(() => undefined);
      setTimeout(() => void this.#listen(true).then(everythingChanged, () => undefined), 1000).unref();
    };
    // Until it listens, a failure reaches the caller (or the next attempt) through the promise; never unhandled.
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      // Opening again after a loss: try again later (at start, the caller hears of it instead).
      if (again) reconnect();
      else void client.end().catch(() => undefined);
      throw error;
    }
    client.on("error", reconnect);
    client.on("end", reconnect);
    this.#listener = client;
  }

  /** Tells this instance's listeners of a change: another instance's, heard, or this one's own, committed. */
  announce(message: ChangeMessage): void {
    if (message.kind === "notifications") {
      for (const listener of this.#notificationListeners) listener(message.businessUnitId);
      return;
    }
    for (const listener of this.#stateListeners) {
      const reload = listener().catch(() => undefined);
      this.#reloading.add(reload);
      void reload.finally(() => this.#reloading.delete(reload));
    }
  }

  /**
   * Waits until every change that any instance committed before this call has been heard and applied here. A
   * committing backend signals the listening one before its COMMIT returns, and PostgreSQL sends a session's pending
   * notifications before it answers its next query: so one round trip on the listening connection is a barrier. The
   * query is the empty one: PostgreSQL answers it (EmptyQueryResponse, then ReadyForQuery) without parsing, planning or
   * executing anything, and still sends the pending notifications first.
   */
  async sync(): Promise<void> {
    if (this.#listener) await this.#roundTrip();
    while (this.#reloading.size > 0) await Promise.all([...this.#reloading]);
  }

  /**
   * The next round trip on the listening connection, shared by every caller until it is sent; one is in flight at a
   * time. It is sent from `setImmediate`, once the event loop has read every socket that was ready: each request read
   * in that turn arrived before it left, so they all share it (a crowd per turn, not a query each).
   */
  #roundTrip(): Promise<void> {
    this.#nextBarrier ??= (async () => {
      await this.#barrier;
      await new Promise((resolve) => setImmediate(resolve));
      this.#nextBarrier = undefined;
      // Without a listening connection (being opened again) every derived thing was dropped already: nothing to wait for.
      const barrier =
        this.#listener?.query(BARRIER).then(
          () => void (this.#barriers += 1),
          () => undefined,
        ) ?? Promise.resolve();
      this.#barrier = barrier;
      await barrier;
      if (this.#barrier === barrier) this.#barrier = undefined;
    })();
    return this.#nextBarrier;
  }

  /** The channel's figures for /metrics. */
  figures(): StoreFigures["figures"] {
    return [
      {
        name: "barriers_total",
        help: "Round trips on the listening connection confirming that every other instance's changes were heard.",
        type: "counter",
        value: this.#barriers,
      },
      {
        name: "listening",
        help: "1 while the connection hearing other instances' changes is open.",
        type: "gauge",
        value: this.#listener ? 1 : 0,
      },
    ];
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#listener?.end().catch(() => undefined);
  }
}

/** The messages once each (a transaction may report one change many times). */
export function dedupe(messages: ChangeMessage[]): ChangeMessage[] {
  return [...new Map(messages.map((message) => [JSON.stringify(message), message])).values()];
}
