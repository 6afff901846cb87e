/**
 * The store's own life, whatever the domain: one instance's view of a store that others may share (state changes,
 * `sync`, background jobs taken in turn), its health and figures for `/readyz` and `/metrics`, the sandbox's reset, and
 * its close.
 */
export interface StoreLifecycle {
  /**
   * Deletes every business unit, application, notification, document, official search and setting, and the records of
   * the store's parts (`StorePart`). The audit trail
   * stays: a reset is an action to account for, not a reason to forget the others.
   */
  reset(): Promise<void>;
  /**
   * Hears, after another instance commits a change of the sandbox state (settings, clock, day list, scheduled
   * faults) or of a password, so that this one reads the state again and forgets the credentials it remembers.
   */
  onStateChanged(listener: () => Promise<void>): void;
  /**
   * Waits until every change another instance committed before this call has reached this instance's listeners
   * and their reloads finished: after it, a request sees whatever an earlier answered request changed anywhere.
   */
  sync(): Promise<void>;
  /**
   * Runs a background job (`processing`: decisions and attachments; `retention`: the purge) unless another instance
   * on the same store is running it; answers whether it ran.
   */
  exclusively(job: "processing" | "retention", work: () => Promise<void>): Promise<boolean>;
  /** Which store this is, and its connection and query figures (for `/readyz` and `/metrics`). */
  describe(): StoreFigures;
  /** Answers when the store can serve requests. */
  ping(): Promise<boolean>;
  /**
   * Answers whether the store accepts a write now: a heartbeat row is written (false when the disk is full or
   * read-only, the database is unreachable or refuses writes). For `/readyz`.
   */
  canWrite(): Promise<boolean>;
  close(): Promise<void>;
}

/** What `/readyz` and `/metrics` say of the store: its kind and figures named for Prometheus (`lrg_db_` + name). */
export interface StoreFigures {
  database: "sqlite" | "postgresql";
  figures: { name: string; help: string; type: "gauge" | "counter"; value: number }[];
}
