/** A store part's schema (see `StorePart`): what the store's migrations need of it. */
export interface PartSchema {
  /** The part's key in the ledger of part migrations: never change it once shipped. */
  name: string;
  /** The part's schema, in order; each store applies those meant for it. */
  migrations: readonly PartMigration[];
}

/** One step of a part's schema, in SQLite's words; PostgreSQL applies it translated, as the store's own steps. */
export interface PartMigration {
  /** From 1, in the part's own ledger. */
  version: number;
  name: string;
  sql: string;
  /** A step for one store alone (`postgresql`: given in PostgreSQL's words, not translated). */
  only?: "sqlite" | "postgresql";
  /**
   * The version this step had in the store's own list before the part kept a ledger of its own: a database that had
   * applied it there takes it as applied here (see `part-ledger.ts`).
   */
  formerly?: number;
}

/**
 * The ledger of the store parts' migrations: a part's applied steps, keyed by its name, beside the store's own
 * `schema_migrations`. The same text on both stores (PostgreSQL's INTEGER holds a part's small versions).
 */
export const PART_LEDGER = `CREATE TABLE IF NOT EXISTS part_migrations (
  part TEXT NOT NULL,
  version INTEGER NOT NULL,
  name TEXT NOT NULL,
  applied_ms BIGINT NOT NULL,
  PRIMARY KEY (part, version)
)`;

/**
 * The name a step of the store's own list keeps once it moved to a part's ledger: applying it does nothing, and its row
 * in `schema_migrations` says so, so that a part taking over never mistakes it for the step it replaced.
 */
export const MOVED_TO_A_PART = "moved to its store part's own ledger (part_migrations)";

/** A step of the store's own list that moved to a part's ledger: its version stays, so the history holds. */
export const movedToAPart = (version: number): { version: number; name: string; sql: string } => ({
  version,
  name: MOVED_TO_A_PART,
  sql: "",
});

/** What the store does with a part's step at start. */
export interface PartStep {
  migration: PartMigration;
  /** `run`: apply its SQL; `record`: its former step in the store's own list ran before, so only note it as applied. */
  action: "run" | "record";
}

/**
 * A part's steps still to apply on a database, given the part's ledger (`applied`) and the store's own ledger as it
 * was before this start (version to name). A part whose ledger is empty takes over: each step whose former version
 * had been applied as itself (not as a step moved to a part) is recorded, the others run; so a database made before
 * the part had a ledger keeps its rows and gets only what it lacked. Once the ledger exists, it alone decides.
 */
export function stepsToApply(
  migrations: readonly PartMigration[],
  applied: ReadonlySet<number>,
  storeLedgerBefore: ReadonlyMap<number, string>,
): PartStep[] {
  const takingOver = applied.size === 0;
  return migrations
    .filter((migration) => !applied.has(migration.version))
    .map((migration) => {
      const former = migration.formerly === undefined ? undefined : storeLedgerBefore.get(migration.formerly);
      const ranBefore = takingOver && former !== undefined && former !== MOVED_TO_A_PART;
      return { migration, action: ranBefore ? "record" : "run" };
    });
}
