import { randomUUID } from "node:crypto";
import { READINESS_BOUNDS } from "@lrg/spec";
import { isoMillis, type Clock } from "../clock.js";
import type { SandboxComponents } from "../operation-types.js";
import { Problem } from "../problems.js";
import type { BlobStore } from "../storage/blobs/blob-store.js";
import type { ReadinessObservationRow, ReadinessRunRow, ReadinessStore } from "./store/port.js";
import {
  RULES,
  type CheckName,
  type GatherContext,
  type Judgement,
  type Raised,
  type RunFacts,
  type Stimulus,
  type UnitState,
  type Verdict,
} from "./check.js";
import { CHECK_NAMES, CHECKS } from "./checks.js";
import type { ReadinessObserver } from "./observer.js";
import { isCheckName, isResult, isStimulus, shaped, type Result } from "./shapes.js";

type ReadinessRun = SandboxComponents["schemas"]["ReadinessRun"];
type ReadinessRunSummary = SandboxComponents["schemas"]["ReadinessRunSummary"];
type CheckResult = SandboxComponents["schemas"]["ReadinessCheckResult"];
type Observation = SandboxComponents["schemas"]["ReadinessObservation"];

/** Who asks: a business unit's token (its id), or the admin token (null). */
export type Reader = string | null;

/** Most runs a list answers (ReadinessRunList `data` maxItems), and the default time limit (ReadinessRunRequest). */
const { runsListed, defaultTimeLimitSeconds } = READINESS_BOUNDS;

/**
 * Readiness runs: a run raises each check's stimulus for one business unit, the observer records what the unit's
 * software then does, and each check's verdict is judged from those observations. A run ends when the unit's clock
 * reaches its deadline (then its verdicts are judged once more and kept) or when it is cancelled.
 */
export class ReadinessService {
  readonly #storage: ReadinessStore & GatherContext["storage"];
  readonly #clock: Clock;
  readonly #observer: ReadinessObserver;
  readonly #blobs: BlobStore;
  /** The sandbox settings in force for a business unit (its own where it set them). */
  readonly #settingsOf: (businessUnitId: string) => UnitState["settings"];
  readonly #registryState: RegistryStateHold;

  constructor(
    storage: ReadinessStore & GatherContext["storage"],
    clock: Clock,
    observer: ReadinessObserver,
    blobs: BlobStore,
    settingsOf: (businessUnitId: string) => UnitState["settings"],
    registryState: RegistryStateHold,
  ) {
    this.#storage = storage;
    this.#clock = clock;
    this.#observer = observer;
    this.#blobs = blobs;
    this.#settingsOf = settingsOf;
    this.#registryState = registryState;
  }

  /** Starts a run on a business unit with the checks named (every check when none); 409-05 when one is running. */
  async start(
    businessUnitId: string,
    request: { checks?: CheckName[] | undefined; time_limit_seconds?: number | undefined },
  ): Promise<ReadinessRun> {
    await this.endDue();
    const names = CHECK_NAMES.filter((name) => request.checks === undefined || request.checks.includes(name));
    const nowMs = this.#clock.nowMs(businessUnitId);
    const timeLimitSeconds = request.time_limit_seconds ?? defaultTimeLimitSeconds;
    const stimulus: Stimulus = {};
    const raised: Required<Raised> = {
      applications: [],
      notifications: [],
      correspondence: [],
      registryDocuments: [],
      blobs: [],
    };
    for (const name of names) {
      const made = CHECKS[name].stimulus?.(businessUnitId, nowMs);
      if (!made) continue;
      stimulus[name] = made.kept;
      raised.applications.push(...made.raised.applications);
      raised.notifications.push(...made.raised.notifications);
      raised.correspondence.push(...(made.raised.correspondence ?? []));
      raised.registryDocuments.push(...(made.raised.registryDocuments ?? []));
      raised.blobs.push(...(made.raised.blobs ?? []));
    }
    // The documents' bytes before their records: a refused start leaves only bytes that no record names.
    for (const bytes of raised.blobs) await this.#blobs.put(bytes);
    const run: ReadinessRunRow = {
      id: randomUUID(),
      businessUnitId,
      checks: names,
      timeLimitSeconds,
      startedMs: nowMs,
      deadlineMs: nowMs + timeLimitSeconds * 1000,
      status: "running",
      endedMs: null,
      stimulus,
      result: null,
      observationCount: 0,
      observationsDropped: 0,
    };
    if (!(await this.#storage.startReadinessRun(run, raised))) {
      const running = (await this.#storage.runningReadinessRuns()).find(
        (other) => other.businessUnitId === businessUnitId,
      );
      throw new Problem(
        "409-05",
        `business unit ${businessUnitId} has a running readiness run${running ? ` (${running.id})` : ""}; cancel it or wait for its deadline`,
      );
    }
    // What other units and the admin token do to the registry-wide state no longer reaches the run's unit.
    await this.#registryState.hold(businessUnitId);
    this.#observer.started(run);
    return this.#answer(run, []);
  }

  /** A run as `reader` may see it (another unit's is 404-01, as a missing one); ended first when its deadline passed. */
  async get(runId: string, reader: Reader): Promise<ReadinessRun> {
    const run = await this.#visible(runId, reader);
    if (run.status !== "running") return this.#answer(run, []);
    return this.#answer(run, await this.#observations(run.id));
  }

  /**
   * A run as `get` answers it, with every observation it kept (not only each check's first 100), oldest first. A
   * running run is judged from the same observations, so that its verdicts and the observations agree.
   */
  async evidence(runId: string, reader: Reader): Promise<{ run: ReadinessRun; observations: Observation[] }> {
    const run = await this.#visible(runId, reader);
    const observations = await this.#observations(run.id);
    const answer = await this.#answer(run, run.status === "running" ? observations : []);
    return { run: answer, observations: observations.map(toObservation) };
  }

  /** A run's observations, with those this instance made and has not written yet. */
  async #observations(runId: string): Promise<ReadinessObservationRow[]> {
    await this.#observer.settled();
    return this.#storage.readinessObservations(runId);
  }

  /** The runs `reader` may see (of `businessUnitId` when given), newest first, without evidence. */
  async list(reader: Reader, businessUnitId: string | undefined): Promise<ReadinessRunSummary[]> {
    await this.#observer.settled();
    await this.endDue();
    if (reader !== null && businessUnitId !== undefined && businessUnitId !== reader) return [];
    const unit = reader ?? businessUnitId;
    const runs = await this.#storage.listReadinessRuns({
      ...(unit !== undefined ? { businessUnitId: unit } : {}),
      limit: runsListed,
    });
    const summaries: ReadinessRunSummary[] = [];
    for (const run of runs) {
      const running = run.status === "running";
      const observations = running ? await this.#observations(run.id) : [];
      const { checks, observations: _counts, ...summary } = await this.#answer(run, observations);
      summaries.push({ ...summary, checks: checks.map(({ name, verdict }) => ({ name, verdict })) });
    }
    return summaries;
  }

  /** Ends a running run now (checks not decided are not exercised); an ended run is answered as it is. */
  async cancel(runId: string, reader: Reader): Promise<ReadinessRun> {
    const run = await this.#visible(runId, reader);
    if (run.status !== "running") return this.#answer(run, []);
    await this.#end(run, "cancelled");
    return this.get(runId, reader);
  }

  /** Ends every running run whose deadline its unit's clock has reached (after a clock change, and before reads). */
  async endDue(): Promise<void> {
    for (const [businessUnitId, running] of this.#observer.running()) {
      if (this.#clock.nowMs(businessUnitId) < running.deadlineMs) continue;
      const run = await this.#storage.findReadinessRun(running.id);
      if (run?.status === "running") await this.#end(run, "finished");
      else this.#observer.ended({ id: running.id, businessUnitId });
    }
  }

  async #visible(runId: string, reader: Reader): Promise<ReadinessRunRow> {
    // The run's counts and evidence include what this instance observed a moment ago.
    await this.#observer.settled();
    await this.endDue();
    const run = await this.#storage.findReadinessRun(runId);
    if (!run || (reader !== null && run.businessUnitId !== reader))
      throw new Problem("404-01", `no readiness run ${runId}`);
    return run;
  }

  /** Judges the run's checks once more and keeps the verdicts; another instance may have ended it first. */
  async #end(run: ReadinessRunRow, status: "finished" | "cancelled"): Promise<void> {
    const endedMs =
      status === "finished" ? run.deadlineMs : Math.min(this.#clock.nowMs(run.businessUnitId), run.deadlineMs);
    const observations = await this.#observations(run.id);
    const result = await judge(run, observations, status, {
      storage: this.#storage,
      finishedMs: status === "finished" ? endedMs : undefined,
    });
    await this.#storage.endReadinessRun(run.id, { status, endedMs, result });
    await this.#registryState.release(run.businessUnitId);
    this.#observer.ended(run);
  }

  /** The unit's clock now and the settings in force for it, as its run answers it. */
  #unitState(businessUnitId: string): UnitState {
    return { nowMs: this.#clock.nowMs(businessUnitId), settings: this.#settingsOf(businessUnitId) };
  }

  /**
   * The run in the spec's shape: its kept verdicts once it ended, else judged now from its observations, with the
   * instructions written from its unit's state now.
   */
  async #answer(run: ReadinessRunRow, observations: readonly ReadinessObservationRow[]): Promise<ReadinessRun> {
    const result =
      run.status === "running"
        ? await judge(run, observations, "running", {
            storage: this.#storage,
            finishedMs: undefined,
            unit: this.#unitState(run.businessUnitId),
          })
        : shaped(run.result, isResult, `the result of readiness run ${run.id}`);
    return {
      run_id: run.id,
      business_unit_id: run.businessUnitId,
      status: run.status,
      verdict: result.verdict,
      started_at: isoMillis(run.startedMs),
      deadline: isoMillis(run.deadlineMs),
      ended_at: run.endedMs === null ? null : isoMillis(run.endedMs),
      time_limit_seconds: run.timeLimitSeconds,
      observations: { recorded: run.observationCount, dropped: run.observationsDropped },
      checks: result.checks,
    };
  }
}

/**
 * The sandbox's hold of the registry-wide state for one unit (settings, clock, day list, system errors for any unit):
 * taken as a run starts, so that nothing another unit or the admin token does changes what the run raises or judges,
 * and given back as it ends.
 */
export interface RegistryStateHold {
  hold(businessUnitId: string): Promise<void>;
  release(businessUnitId: string): Promise<void>;
}

/** When a run's checks are judged: while it runs, at its deadline, or as it is cancelled. */
export type Phase = "running" | "finished" | "cancelled";

/**
 * Every check of a run judged from its facts, each check's own gathered from the store first (`context`). While it
 * runs the overall verdict is `running`, and each check still `running` has its instructions, written from the unit's
 * state (`unit`, given while the run runs); once it ended, a check still undecided is `not_exercised`, and the run
 * `failed` if any check failed, `passed` if all passed, else `not_exercised`.
 */
export async function judge(
  run: GatherContext["run"] & Pick<ReadinessRunRow, "stimulus">,
  observations: readonly ReadinessObservationRow[],
  phase: Phase,
  context: Omit<GatherContext, "run" | "observations"> & { unit?: UnitState },
): Promise<Result> {
  const { unit, ...gathering } = context;
  const stimulus = shaped(run.stimulus, isStimulus, `the stimulus of readiness run ${run.id}`);
  const facts: RunFacts = { observations, stimulus, ended: phase === "finished" };
  const names = run.checks.filter(isCheckName);
  const checks: CheckResult[] = [];
  for (const name of names) {
    const check = CHECKS[name];
    const judgement = await check.assess(facts, { ...gathering, run, observations });
    const result = checkResult(name, judgement, phase);
    checks.push({
      ...result,
      instructions:
        result.verdict === "running" && unit !== undefined
          ? check.instructions({ deadline: isoMillis(run.deadlineMs), checks: names, unit })
          : null,
    });
  }
  return { verdict: runVerdict(checks, phase), checks };
}

/**
 * A check's result as a run answers it, from its judgement (a check still `running` once the run ended is
 * `not_exercised`), without instructions.
 */
export function checkResult(name: CheckName, judgement: Judgement, phase: Phase): CheckResult {
  const check = CHECKS[name];
  const verdict = judgement.verdict === "running" && phase !== "running" ? "not_exercised" : judgement.verdict;
  return {
    name,
    verdict,
    rule: RULES[name],
    how_to_pass: check.howToPass,
    instructions: null,
    evidence: { expected: check.expected, found: judgement.found, requests: judgement.requests.map(toObservation) },
  };
}

/** A run's verdict from its checks': `failed` if any failed, `passed` if all passed, else `not_exercised`. */
export function runVerdict(checks: readonly Pick<CheckResult, "verdict">[], phase: Phase): Verdict {
  const verdicts = checks.map((check) => check.verdict);
  if (phase === "running") return "running";
  if (verdicts.includes("failed")) return "failed";
  return verdicts.every((each) => each === "passed") ? "passed" : "not_exercised";
}

function toObservation(row: ReadinessObservationRow): Observation {
  return {
    sequence: row.sequence,
    at: isoMillis(row.clockMs),
    method: row.method as Observation["method"],
    operation_id: row.operationId,
    query: row.query,
    status: row.status,
    credentials_sent: row.credentialsSent,
    acknowledged_ids: row.acknowledgedIds,
    acknowledged_count: row.acknowledgedCount,
    idempotency_key: row.idempotencyKey,
    path_parameters: row.pathParameters,
    retry_after: row.retryAfterSeconds,
    answer_code: row.answerCode,
    answer_detail: row.answerDetail,
    submission_case:
      row.submissionCase === null
        ? null
        : {
            type: row.submissionCase.type,
            customer_reference: row.submissionCase.customerReference,
            title_numbers: row.submissionCase.titleNumbers,
          },
  };
}
