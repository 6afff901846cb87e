import { componentSchema } from "@lrg/spec";
import type { RegistryHooks } from "../hooks.js";
import type { RegistryOperationName, SandboxComponents } from "../operation-types.js";
import type { DocumentStore } from "../storage/ports/documents.js";
import type { NotificationStore } from "../storage/ports/notifications.js";
import type { ReadinessObservationRow, ReadinessRunRow, ReadinessStimulusRows } from "./store/port.js";
import type { SettingStore } from "../storage/ports/settings.js";

/** The name of a readiness check (`ReadinessCheckName` in spec/sandbox.yaml). */
export type CheckName = SandboxComponents["schemas"]["ReadinessCheckName"];
/** A check's verdict, or a run's (`ReadinessVerdict`). */
export type Verdict = SandboxComponents["schemas"]["ReadinessVerdict"];

/** What a run keeps of one check's stimulus: the notification ids it raised, and the documents it despatched. */
export interface Kept {
  notificationIds: string[];
  downloadIds?: string[];
}

/** What a run raised for its checks, kept with the run (plain JSON). */
export type Stimulus = Partial<Record<CheckName, Kept>>;

/**
 * What a check's stimulus writes, in the run's start transaction; the bytes of the registry documents it despatches
 * (`blobs`) are stored before it.
 */
export interface Raised extends ReadinessStimulusRows {
  blobs?: Buffer[];
}

/**
 * What every check is judged from: the run's observations, what it raised, and whether it reached its deadline. A check
 * that needs more (what the run took in the store, what the store says at its end) gathers it itself (`gather`).
 */
export interface RunFacts {
  observations: readonly ReadinessObservationRow[];
  stimulus: Stimulus;
  /** Whether the run has reached its deadline (verdicts are final). */
  ended: boolean;
}

/** What a check gathers its own facts from: the store, the run, its observations, and when it finished. */
export interface GatherContext {
  /** What it kept in the unit's settings, the documents the software sent, the notifications left. */
  storage: SettingStore & DocumentStore & NotificationStore;
  run: Pick<ReadinessRunRow, "id" | "businessUnitId" | "checks" | "startedMs" | "deadlineMs">;
  observations: readonly ReadinessObservationRow[];
  /** When the run reached its deadline (the unit's clock); undefined while it runs, and for a cancelled run. */
  finishedMs: number | undefined;
}

/** The state of a run's business unit as the run answers it now: its clock, and the sandbox settings in force for it. */
export interface UnitState {
  nowMs: number;
  settings: SandboxComponents["schemas"]["SandboxSettings"];
}

/**
 * What a check's instructions are written from: the run's deadline as the answer shows it, the run's checks (a check
 * acting on a submission says which of the run's submissions it takes), and the unit's state now (so that they say
 * what the run will answer: a deferral by the hour, a client certificate the unit's settings need).
 */
export interface InstructionContext {
  deadline: string;
  checks: readonly CheckName[];
  unit: UnitState;
}

/** The running run of a business unit, as the observer caches it. */
export interface RunningRun {
  id: string;
  deadlineMs: number;
  checks: readonly string[];
}

/** A hook of the registry interface as a check's step: given the unit's running run first. */
type StepOf<Hook> = Hook extends (...args: infer Args) => infer Answer
  ? (run: RunningRun, ...args: Args) => Answer
  : never;

/**
 * What a check does at the hook points of the registry interface (`hooks.ts`) for a unit under its run: the points it
 * needs. A point is filled while a run of any unit has a check with a step there, and empty otherwise.
 */
export type CheckSteps = {
  [Point in Exclude<keyof RegistryHooks, "submissionTaken" | "answerSent">]?: StepOf<NonNullable<RegistryHooks[Point]>>;
} & {
  /** The fate of a new application of the unit (whether the unit's submissions are held follows from having it). */
  submissionTaken?: StepOf<NonNullable<RegistryHooks["submissionTaken"]>["fateOf"]>;
};

/** What a check's steps are made with, once a gateway. */
export interface StepScope {
  /** Where a step takes what it does once a run (`RunSetting`). */
  storage: SettingStore;
  /** The steps made for `key` once a gateway, on first use: steps that checks share are the same steps. */
  shared(key: object, make: () => CheckSteps): CheckSteps;
}

/**
 * One exchange of the registry interface in a recording (`lrg record`, any environment) as the checks read it offline:
 * the observation a run would have kept of it (timed on the registry's clock as the recording shows it), with the
 * bodies sent and answered as JSON (undefined where the recording does not hold one whole, or it is not JSON).
 */
export interface RecordedExchange {
  observation: ReadinessObservationRow;
  sent: unknown;
  answer: unknown;
}

/** A recording as the checks read it offline (`recorded.ts` makes it). */
export interface Recording {
  /** Its exchanges of the registry interface, in the order answered, as many as a run keeps observations of. */
  exchanges: readonly RecordedExchange[];
  /** Their observations, in the same order (`sequence` from 1). */
  observations: readonly ReadinessObservationRow[];
  /** When it ended, on the registry's clock as it shows it. */
  endedMs: number;
  /** The deadline of the readiness run whose start answer it holds (the sandbox's control plane), if it holds one. */
  deadlineMs: number | undefined;
}

/** What a check's judge reads on a recording besides its observations: a stimulus and its own facts, found there. */
export type FoundFacts<Own extends object> = Partial<Pick<RunFacts, "stimulus">> & Own;

/**
 * How a check is judged on a recording of traffic from any environment, where no run raised anything: the occasions
 * of it the recording itself holds (a duplicate listed, a submission unanswered, a search deferred), each made into
 * the facts its own judge reads (what a run raised, or a gathering check finds in the store).
 */
export interface Offline<Own extends object> {
  /** The occasion and what is judged of it, in words (the CLI's README lists them). */
  occasion: string;
  /** What a recording that holds no occasion shows (the evidence of its `not_exercised`). */
  none: string;
  /** The facts of each occasion the recording holds, in the order met. */
  find: (recording: Recording) => FoundFacts<Own>[];
}

/**
 * The way of a check whose judge needs nothing but the observations, on a recording: one occasion, the whole of it
 * (its judge says when it met none).
 */
export const fromObservations = (occasion: string): Offline<object> => ({ occasion, none: "", find: () => [{}] });

/** A check's verdict with its evidence. */
export interface Judgement {
  verdict: Verdict;
  /** What the observations show. */
  found: string;
  /** The observations that bear on the verdict. */
  requests: ReadinessObservationRow[];
}

/**
 * One readiness check: what correct software does, what the check expects, what the sandbox raises for it at the
 * start of a run (if anything), what the software must do meanwhile, and its verdict: a pure function of the facts,
 * the run's (`RunFacts`) and, for a check that gathers some of its own, those (`Own`, see `GatheringCheck`).
 */
export interface ReadinessCheck<Own extends object = object> {
  howToPass: string;
  expected: string;
  /** Raises the check's stimulus for a business unit at `nowMs` (its clock); answers what to write and what to keep. */
  stimulus?: (businessUnitId: string, nowMs: number) => { raised: Raised; kept: Kept };
  /** What the software must do while the run runs. */
  instructions: (context: InstructionContext) => string;
  /** The check's steps at the hook points it needs (see `CheckSteps`), made once a gateway. */
  steps?: (scope: StepScope) => CheckSteps;
  judge: (facts: RunFacts & Own) => Judgement;
  /** How the check is judged on a recording (`lrg readiness judge`): by `judge`, on the facts found there. */
  offline: Offline<Own>;
}

/** A check judged from facts of its own as well, which it gathers from the store each time the run is judged. */
export interface GatheringCheck<Own extends object> extends ReadinessCheck<Own> {
  gather: (context: GatherContext) => Promise<Own>;
}

/**
 * A check as a run judges it: its own facts gathered (if any), then judged with the run's; and as a recording is judged
 * (`assessRecording`), by the same judge.
 */
export interface RunCheck extends Omit<ReadinessCheck, "judge"> {
  assess: (facts: RunFacts, context: GatherContext) => Promise<Judgement>;
  assessRecording: (recording: Recording) => Judgement;
}

/**
 * A check judged on a recording as at a run's end: its judge on each occasion the recording holds, the first failed
 * judgement if any (one occasion met wrongly fails the check, as one would in a run), else the first.
 */
function judgedOnRecording<Own extends object>(check: ReadinessCheck<Own>, recording: Recording): Judgement {
  const found = check.offline.find(recording);
  if (found.length === 0) return { verdict: "not_exercised", found: check.offline.none, requests: [] };
  const judgements = found.map((facts) =>
    check.judge({ observations: recording.observations, stimulus: {}, ended: true, ...facts }),
  );
  return judgements.find((judgement) => judgement.verdict === "failed") ?? judgements[0]!;
}

/** A check judged from the run's facts alone, as a run judges it. */
export const judgedFromRun = (check: ReadinessCheck): RunCheck => ({
  ...check,
  assess: async (facts) => check.judge(facts),
  assessRecording: (recording) => judgedOnRecording(check, recording),
});

/** A check that gathers facts of its own, as a run judges it. */
export const judgedFromOwnFacts = <Own extends object>(check: GatheringCheck<Own>): RunCheck => ({
  ...check,
  assess: async (facts, context) => check.judge({ ...facts, ...(await check.gather(context)) }),
  assessRecording: (recording) => judgedOnRecording(check, recording),
});

/** A check as a run judges it, whether it judges from the run's facts alone or gathers some of its own. */
export function runCheckOf<Own extends object>(check: ReadinessCheck | GatheringCheck<Own>): RunCheck {
  return "gather" in check ? judgedFromOwnFacts(check) : judgedFromRun(check);
}

/** The rule each check is tied to, as the spec gives it (`x-enumDescriptions` of ReadinessCheckName). */
export const RULES = componentSchema("ReadinessCheckName", "sandbox")["x-enumDescriptions"] as Record<
  CheckName,
  string
>;

/** Whether an observation (or an operation) is of one of the operations named. */
export function isOperation(observed: { operationId: string }, ...names: readonly RegistryOperationName[]): boolean {
  const named: readonly string[] = names;
  return named.includes(observed.operationId);
}

/** Operations that list notifications, and those that acknowledge them (both versions). */
export const LIST_OPERATIONS: readonly RegistryOperationName[] = ["listNotificationsV1", "listNotificationsV0"];
export const ACKNOWLEDGE_OPERATIONS: readonly RegistryOperationName[] = [
  "acknowledgeNotificationsV1",
  "acknowledgeNotificationsV0",
];

export const isListing = (observation: ReadinessObservationRow): boolean =>
  isOperation(observation, ...LIST_OPERATIONS);
export const isAcknowledgement = (observation: ReadinessObservationRow): boolean =>
  isOperation(observation, ...ACKNOWLEDGE_OPERATIONS);

/** The ids the software acknowledged with a successful call, and the calls that did. */
export function acknowledgedIds(observations: readonly ReadinessObservationRow[]): Set<string> {
  const ids = new Set<string>();
  for (const observation of observations)
    if (isAcknowledgement(observation) && observation.status === 200)
      for (const id of observation.acknowledgedIds ?? []) ids.add(id);
  return ids;
}

/** A version of the notification services. */
export type NotificationVersion = "v0" | "v1";

/**
 * The version of the notification services the software consumed during the run: version 1 if it listed or
 * acknowledged there, else version 0 if it did there; undefined when it did neither. A version 0 consumer is judged on
 * the version 0 feed, which has no counterpart of version 1's attachment and message notifications.
 */
export function consumedVersion(observations: readonly ReadinessObservationRow[]): NotificationVersion | undefined {
  const consuming = observations.filter((observation) => isListing(observation) || isAcknowledgement(observation));
  if (consuming.some((observation) => observation.operationId.endsWith("V1"))) return "v1";
  return consuming.length > 0 ? "v0" : undefined;
}

/**
 * How an observation was answered, as evidence says it: its status, and for an error its code and detail
 * ("403 403-01: X-Provider-Checksum-Sha256 does not match ...").
 */
export function answered(observation: ReadinessObservationRow): string {
  const code = observation.answerCode ? ` ${observation.answerCode}` : "";
  const detail = observation.answerDetail ? `: ${observation.answerDetail}` : "";
  return `${observation.status}${code}${detail}`;
}

/** At most the first 100 observations (the evidence's bound). */
export const firstHundred = (observations: ReadinessObservationRow[]): ReadinessObservationRow[] =>
  observations.slice(0, 100);
