import type { PartMigration } from "../../storage/part-ledger.js";

/**
 * The schema of readiness runs, in the store part's own ledger (see `storage/part-ledger.ts`): the steps that were
 * versions 10, 11, 14 and 15 of the store's own list (and 1005 of PostgreSQL's), in their order and with their SQL, so
 * that a database made before keeps its runs. Never edit a step that has shipped: add the next one.
 */
export const readinessMigrations: readonly PartMigration[] = [
  {
    version: 1,
    formerly: 10,
    name: "readiness runs and what each observed of its business unit's software",
    // At most one running run per unit, held by the store itself (the partial unique index), so that two starts on
    // two instances cannot both win. A run counts its observations, so that its bound is kept without counting rows.
    sql: `
      CREATE TABLE readiness_runs (
        id TEXT PRIMARY KEY,
        business_unit_id TEXT NOT NULL REFERENCES business_units(id) ON DELETE CASCADE,
        checks TEXT NOT NULL,
        time_limit_seconds INTEGER NOT NULL,
        started_ms INTEGER NOT NULL,
        deadline_ms INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'cancelled')),
        ended_ms INTEGER,
        stimulus TEXT NOT NULL,
        result TEXT,
        observation_count INTEGER NOT NULL DEFAULT 0,
        observations_dropped INTEGER NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX readiness_runs_one_running ON readiness_runs(business_unit_id) WHERE status = 'running';
      CREATE INDEX readiness_runs_by_unit ON readiness_runs(business_unit_id, started_ms);
      CREATE TABLE readiness_observations (
        run_id TEXT NOT NULL REFERENCES readiness_runs(id) ON DELETE CASCADE,
        sequence INTEGER NOT NULL,
        business_unit_id TEXT NOT NULL,
        clock_ms INTEGER NOT NULL,
        method TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        query TEXT NOT NULL,
        status INTEGER NOT NULL,
        credentials_sent INTEGER NOT NULL,
        acknowledged_ids TEXT,
        acknowledged_count INTEGER,
        idempotency_key TEXT,
        PRIMARY KEY (run_id, sequence)
      );
      CREATE INDEX readiness_observations_by_unit ON readiness_observations(business_unit_id);
    `,
  },
  {
    version: 2,
    formerly: 11,
    name: "a readiness observation keeps its request's path parameters (which application, document or download)",
    sql: `
      ALTER TABLE readiness_observations ADD COLUMN path_parameters TEXT NOT NULL DEFAULT '{}';
    `,
  },
  {
    version: 3,
    formerly: 14,
    name: "a readiness observation keeps its answer's Retry-After (whether the software waited that long)",
    sql: `
      ALTER TABLE readiness_observations ADD COLUMN retry_after_seconds INTEGER;
    `,
  },
  {
    version: 4,
    formerly: 15,
    name: "readiness observations kept a batch a row (one JSON array per write), not a row each",
    // PostgreSQL keeps a row each: its instances write the observations of one run at once.
    only: "sqlite",
    // A unit under a run wrote a row per request, with its indexes: on the benchmark that doubled the gateway's CPU
    // per notification list request. A batch is one row; the run's observations are read whole anyway.
    sql: `
      CREATE TABLE readiness_observation_batches (
        run_id TEXT NOT NULL REFERENCES readiness_runs(id) ON DELETE CASCADE,
        first_sequence INTEGER NOT NULL,
        business_unit_id TEXT NOT NULL,
        observations TEXT NOT NULL,
        PRIMARY KEY (run_id, first_sequence)
      );
      INSERT INTO readiness_observation_batches (run_id, first_sequence, business_unit_id, observations)
        SELECT run_id, sequence, business_unit_id, json_array(json_object('clockMs', clock_ms,
          'method', method, 'operationId', operation_id, 'query', json(query), 'status', status,
          'credentialsSent', json(CASE credentials_sent WHEN 1 THEN 'true' ELSE 'false' END),
          'acknowledgedIds', json(acknowledged_ids), 'acknowledgedCount', acknowledged_count,
          'idempotencyKey', idempotency_key, 'pathParameters', json(path_parameters),
          'retryAfterSeconds', retry_after_seconds))
        FROM readiness_observations;
      DROP TABLE readiness_observations;
      ALTER TABLE readiness_observation_batches RENAME TO readiness_observations;
      CREATE INDEX readiness_observations_by_unit ON readiness_observations(business_unit_id);
    `,
  },
  {
    version: 5,
    formerly: 1005,
    name: "a readiness observation keeps an error answer's code and detail, and a submission's case",
    // SQLite keeps observations as JSON batches: a new member needs no migration there.
    only: "postgresql",
    sql: `
      ALTER TABLE readiness_observations ADD COLUMN answer_code TEXT, ADD COLUMN answer_detail TEXT,
        ADD COLUMN submission_case TEXT;
    `,
  },
];
