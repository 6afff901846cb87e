import { parse, type Row } from "../../storage/rows.js";
import type { PartConnection } from "../../storage/store-part.js";
import type { ReadinessObservationRow, ReadinessStore } from "./port.js";
import { toReadinessRun } from "./rows.js";
import type { ReadinessWrites } from "./sqlite-writes.js";

/** Readiness runs and their observations on SQLite: a run's observations are kept in batches (the part's step 4). */
export function sqliteReadiness({ read, write }: PartConnection<ReadinessWrites>): ReadinessStore {
  return {
    async startReadinessRun(run, stimulus) {
      return write("startReadinessRun", run, stimulus);
    },

    async findReadinessRun(id) {
      const row = read("SELECT * FROM readiness_runs WHERE id = ?").get(id) as Row | undefined;
      return row && toReadinessRun(row);
    },

    async listReadinessRuns(query) {
      const rows = (
        query.businessUnitId === undefined
          ? read("SELECT * FROM readiness_runs ORDER BY started_ms DESC, rowid DESC LIMIT ?").all(query.limit)
          : read(
              "SELECT * FROM readiness_runs WHERE business_unit_id = ? ORDER BY started_ms DESC, rowid DESC LIMIT ?",
            ).all(query.businessUnitId, query.limit)
      ) as Row[];
      return rows.map(toReadinessRun);
    },

    async runningReadinessRuns() {
      return (read("SELECT * FROM readiness_runs WHERE status = 'running'").all() as Row[]).map(toReadinessRun);
    },

    async endReadinessRun(id, end) {
      return write("endReadinessRun", id, end);
    },

    async appendReadinessObservations(observations, keepPerRun) {
      const texts = observations.map(({ runId, businessUnitId, ...observation }) => ({
        runId,
        businessUnitId,
        text: JSON.stringify(observation),
      }));
      return write("appendReadinessObservations", texts, keepPerRun);
    },

    async readinessObservations(runId) {
      // A batch written before observations kept the answer's code and detail and a submission's case has none of them.
      type Kept = Omit<
        ReadinessObservationRow,
        "sequence" | "runId" | "businessUnitId" | "answerCode" | "answerDetail" | "submissionCase"
      > &
        Partial<Pick<ReadinessObservationRow, "answerCode" | "answerDetail" | "submissionCase">>;
      const batches = read(
        "SELECT first_sequence, business_unit_id, observations FROM readiness_observations WHERE run_id = ? ORDER BY first_sequence",
      ).all(runId) as { first_sequence: number; business_unit_id: string; observations: string }[];
      return batches.flatMap((batch) =>
        parse<Kept[]>(batch.observations).map((observation, index) => ({
          runId,
          businessUnitId: batch.business_unit_id,
          sequence: Number(batch.first_sequence) + index,
          ...observation,
          answerCode: observation.answerCode ?? null,
          answerDetail: observation.answerDetail ?? null,
          submissionCase: observation.submissionCase ?? null,
        })),
      );
    },
  };
}
