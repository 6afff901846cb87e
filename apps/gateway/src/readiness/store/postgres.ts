import type pg from "pg";
import { insertCorrespondence } from "../../storage/postgres/applications.js";
import type { PostgresDatabase } from "../../storage/postgres/database.js";
import { insertRegistryDocument } from "../../storage/postgres/documents.js";
import { insertNotifications } from "../../storage/postgres/notifications.js";
import { applicationInsert, json } from "../../storage/rows.js";
import type { ReadinessObservationRow, ReadinessStore } from "./port.js";
import {
  READINESS_OBSERVATION_COLUMNS,
  READINESS_RUN_COLUMNS,
  readinessObservationValues,
  readinessRunValues,
  toReadinessObservation,
  toReadinessRun,
} from "./rows.js";

/** Readiness runs and their observations on PostgreSQL. */
export function postgresReadiness(db: PostgresDatabase): ReadinessStore {
  return {
    async startReadinessRun(run, stimulus) {
      return db.transaction(async (client, changed) => {
        // The partial unique index refuses a second running run of the unit, on any instance: nothing is written then.
        const values = readinessRunValues(run);
        const inserted = await db.query(
          `INSERT INTO readiness_runs (${READINESS_RUN_COLUMNS}) VALUES (${values.map((_, index) => `$${index + 1}`).join(", ")})
           ON CONFLICT DO NOTHING`,
          values,
          client,
        );
        if (inserted.rowCount !== 1) return false;
        changed.push({ kind: "state" });
        for (const application of stimulus.applications) {
          const insert = applicationInsert(application, (index) => `$${index}`);
          await db.query(insert.sql, insert.values, client);
        }
        for (const document of stimulus.registryDocuments ?? []) await insertRegistryDocument(db, document, client);
        for (const record of stimulus.correspondence ?? []) await insertCorrespondence(db, client, record);
        await insertNotifications(db, client, stimulus.notifications, changed);
        return true;
      });
    },

    async findReadinessRun(id) {
      const row = (await db.query("SELECT * FROM readiness_runs WHERE id = $1", [id])).rows[0];
      return row && toReadinessRun(row);
    },

    async listReadinessRuns(query) {
      const { rows } =
        query.businessUnitId === undefined
          ? await db.query("SELECT * FROM readiness_runs ORDER BY started_ms DESC, id DESC LIMIT $1", [query.limit])
          : await db.query(
              "SELECT * FROM readiness_runs WHERE business_unit_id = $1 ORDER BY started_ms DESC, id DESC LIMIT $2",
              [query.businessUnitId, query.limit],
            );
      return rows.map(toReadinessRun);
    },

    async runningReadinessRuns() {
      return (await db.query("SELECT * FROM readiness_runs WHERE status = 'running'")).rows.map(toReadinessRun);
    },

    async endReadinessRun(id, end) {
      return db.transaction(async (client, changed) => {
        const updated = await db.query(
          "UPDATE readiness_runs SET status = $1, ended_ms = $2, result = $3 WHERE id = $4 AND status = 'running'",
          [end.status, end.endedMs, json(end.result), id],
          client,
        );
        if (updated.rowCount !== 1) return false;
        changed.push({ kind: "state" });
        return true;
      });
    },

    async appendReadinessObservations(observations, keepPerRun) {
      return db.transaction(async (client) => {
        const kept: boolean[] = [];
        for (const observation of observations) kept.push(await appendObservation(db, client, observation, keepPerRun));
        return kept;
      });
    },

    async readinessObservations(runId) {
      const { rows } = await db.query("SELECT * FROM readiness_observations WHERE run_id = $1 ORDER BY sequence", [
        runId,
      ]);
      return rows.map(toReadinessObservation);
    },
  };
}

/** One observation of `appendReadinessObservations`, in its transaction. */
async function appendObservation(
  db: PostgresDatabase,
  client: pg.PoolClient,
  observation: Omit<ReadinessObservationRow, "sequence">,
  keepPerRun: number,
): Promise<boolean> {
  // The run's row lock orders the observations of instances observing the same unit at once.
  const counted = await db.query<{ observation_count: number }>(
    `UPDATE readiness_runs SET observation_count = observation_count + 1
     WHERE id = $1 AND status = 'running' AND observation_count < $2 RETURNING observation_count`,
    [observation.runId, keepPerRun],
    client,
  );
  const sequence = counted.rows[0]?.observation_count;
  if (sequence === undefined) {
    await db.query(
      "UPDATE readiness_runs SET observations_dropped = observations_dropped + 1 WHERE id = $1 AND status = 'running'",
      [observation.runId],
      client,
    );
    return false;
  }
  const values = readinessObservationValues(observation, Number(sequence));
  await db.query(
    `INSERT INTO readiness_observations (${READINESS_OBSERVATION_COLUMNS}) VALUES (${values.map((_, index) => `$${index + 1}`).join(", ")})`,
    values,
    client,
  );
  return true;
}
