import type { ApplicationRow, CorrespondenceRow } from "../../storage/ports/applications.js";
import type { RegistryDocumentRow } from "../../storage/ports/documents.js";
import type { NotificationRow } from "../../storage/ports/notifications.js";

/** Readiness runs of the business units (see `readiness/`): each run, what it raised, what it observed, its end. */
export interface ReadinessStore {
  /**
   * Starts a readiness run and raises its stimulus (applications, their notifications, correspondence and registry
   * documents) in one transaction, unless the unit has a running run already: then nothing is written and the answer
   * is false. Announced as a state change.
   */
  startReadinessRun(run: ReadinessRunRow, stimulus: ReadinessStimulusRows): Promise<boolean>;
  findReadinessRun(id: string): Promise<ReadinessRunRow | undefined>;
  /** Readiness runs, newest first (of one business unit, when given). */
  listReadinessRuns(query: { businessUnitId?: string; limit: number }): Promise<ReadinessRunRow[]>;
  /** Every running readiness run (the gateway caches which units have one). */
  runningReadinessRuns(): Promise<ReadinessRunRow[]>;
  /** Ends a running run with its verdicts; false (and nothing written) when it had ended. Announced as a state change. */
  endReadinessRun(id: string, end: ReadinessRunEnd): Promise<boolean>;
  /**
   * Keeps observations of running runs, in one transaction and in their order, each numbered after its run's last,
   * unless its run holds `keepPerRun` already (then it is counted as dropped) or is no longer running (nothing is
   * written); answers, for each, whether it was kept. The observer hands over every observation made while the
   * previous batch was being written (a group commit).
   */
  appendReadinessObservations(
    observations: readonly Omit<ReadinessObservationRow, "sequence">[],
    keepPerRun: number,
  ): Promise<boolean[]>;
  /** A run's observations, oldest first. */
  readinessObservations(runId: string): Promise<ReadinessObservationRow[]>;
}

/** What a readiness run writes for its stimulus at its start (the registry documents' bytes are stored before). */
export interface ReadinessStimulusRows {
  applications: ApplicationRow[];
  notifications: NotificationRow[];
  correspondence?: CorrespondenceRow[];
  registryDocuments?: RegistryDocumentRow[];
}

/** A readiness run of one business unit (see `readiness/`); instants by the unit's sandbox clock. */
export interface ReadinessRunRow {
  id: string;
  businessUnitId: string;
  checks: string[];
  timeLimitSeconds: number;
  startedMs: number;
  deadlineMs: number;
  status: "running" | "finished" | "cancelled";
  endedMs: number | null;
  /** What the run raised for its checks (plain JSON, see `readiness/stimulus.ts`). */
  stimulus: unknown;
  /** The checks' verdicts once the run ended (plain JSON); null while it runs. */
  result: unknown;
  observationCount: number;
  observationsDropped: number;
}

/** How a readiness run ends. */
export interface ReadinessRunEnd {
  status: "finished" | "cancelled";
  endedMs: number;
  result: unknown;
}

/** One request of a unit's software to the registry interface, observed during its readiness run. */
export interface ReadinessObservationRow {
  runId: string;
  businessUnitId: string;
  /** From 1, in the order kept. */
  sequence: number;
  /** When it was answered, by the unit's sandbox clock. */
  clockMs: number;
  method: string;
  operationId: string;
  /** The query parameters, redacted and cut (see `readiness/observer.ts`). */
  query: Record<string, string>;
  status: number;
  credentialsSent: boolean;
  /** The ids an acknowledge call sent (the first 100), else null. */
  acknowledgedIds: string[] | null;
  /** How many ids an acknowledge call sent, else null. */
  acknowledgedCount: number | null;
  idempotencyKey: string | null;
  /** The path parameters (which application, document or download), redacted and cut as the query. */
  pathParameters: Record<string, string>;
  /** The answer's `Retry-After` in whole seconds (a 429, a 503, a deferred search's 202), else null. */
  retryAfterSeconds: number | null;
  /** An error answer's code (problem `code`, or the registry envelope's first item's), else null. */
  answerCode: string | null;
  /** An error answer's detail (the problem's, or the envelope's first item's), cut to 200 characters, else null. */
  answerDetail: string | null;
  /** For a submission, the case it is for (the members by which a resubmission is the same application), else null. */
  submissionCase: SubmissionCase | null;
}

/** What makes two submissions the same application: its type, the customer's reference and the title numbers. */
export interface SubmissionCase {
  type: string;
  customerReference: string;
  /** Sorted, upper case. */
  titleNumbers: string[];
}
