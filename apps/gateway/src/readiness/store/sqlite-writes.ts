import { json } from "../../storage/rows.js";
import type { PartWriteContext } from "../../storage/sqlite/part-writes.js";
import type { ReadinessRunEnd, ReadinessRunRow, ReadinessStimulusRows } from "./port.js";
import { READINESS_RUN_COLUMNS, readinessRunValues } from "./rows.js";

/** An observation as the writer thread is given it: its run, its unit, and its JSON (no sequence yet). */
export interface ObservationText {
  runId: string;
  businessUnitId: string;
  text: string;
}

/** The writes of readiness runs on the embedded store, by name. */
export type ReadinessWrites = ReturnType<typeof partWrites>;

/**
 * The writes of readiness runs on the embedded store, which the writer thread loads (`StorePart.sqlite.writes`) and
 * runs inside its group commit: their arguments and answers cross between threads, so they are plain data. Named as
 * the port's methods they carry out.
 */
export function partWrites({ db, prepared, records }: PartWriteContext) {
  /** A run's observation counts, and whether it is running (a run that ended or is gone keeps no more). */
  const observationCounts = (runId: string): { running: boolean; count: number; dropped: number } => {
    const row = prepared(
      "SELECT observation_count, observations_dropped FROM readiness_runs WHERE id = ? AND status = 'running'",
    ).get(runId) as { observation_count: number; observations_dropped: number } | undefined;
    return { running: row !== undefined, count: row?.observation_count ?? 0, dropped: row?.observations_dropped ?? 0 };
  };

  return {
    startReadinessRun(run: ReadinessRunRow, stimulus: ReadinessStimulusRows): boolean {
      return db.transaction(() => {
        // The partial unique index refuses a second running run of the unit: nothing of this one is written then.
        const values = readinessRunValues(run);
        const inserted = prepared(
          `INSERT INTO readiness_runs (${READINESS_RUN_COLUMNS}) VALUES (${values.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`,
        ).run(...values).changes;
        if (inserted !== 1) return false;
        for (const application of stimulus.applications) records.insertApplication(application);
        for (const document of stimulus.registryDocuments ?? []) records.putRegistryDocument(document);
        for (const record of stimulus.correspondence ?? []) records.insertCorrespondence(record);
        for (const notification of stimulus.notifications) records.insertNotification(notification);
        return true;
      })();
    },

    endReadinessRun(id: string, end: ReadinessRunEnd): boolean {
      return (
        prepared(
          "UPDATE readiness_runs SET status = ?, ended_ms = ?, result = ? WHERE id = ? AND status = 'running'",
        ).run(end.status, end.endedMs, json(end.result), id).changes === 1
      );
    },

    /**
     * Keeps observations (see `ReadinessStore.appendReadinessObservations`), each given as its run, its unit and its
     * JSON without a sequence (made on the gateway's thread: a string crosses to this thread for less than an object
     * does). One row a run a batch (the part's step 4): the kept observations of a run are numbered on from its count,
     * in order, so that the row needs only its first number.
     */
    appendReadinessObservations(observations: readonly ObservationText[], keepPerRun: number): boolean[] {
      return db.transaction(() => {
        const runs = new Map<
          string,
          { running: boolean; count: number; dropped: number; first: number; kept: string[] }
        >();
        const kept = observations.map(({ runId, text }) => {
          let run = runs.get(runId);
          if (!run) {
            const counts = observationCounts(runId);
            runs.set(runId, (run = { ...counts, first: counts.count + 1, kept: [] }));
          }
          if (!run.running) return false;
          if (run.count >= keepPerRun) {
            run.dropped += 1;
            return false;
          }
          run.count += 1;
          run.kept.push(text);
          return true;
        });
        for (const [id, run] of runs) {
          if (!run.running) continue;
          prepared("UPDATE readiness_runs SET observation_count = ?, observations_dropped = ? WHERE id = ?").run(
            run.count,
            run.dropped,
            id,
          );
          const unit = observations.find((observation) => observation.runId === id)?.businessUnitId;
          if (run.kept.length > 0)
            prepared(
              "INSERT INTO readiness_observations (run_id, first_sequence, business_unit_id, observations) VALUES (?, ?, ?, ?)",
            ).run(id, run.first, unit ?? null, `[${run.kept.join(",")}]`);
        }
        return kept;
      })();
    },
  };
}
