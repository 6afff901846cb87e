// `@lrg/gateway/readiness-judges`: the readiness checks' own judges applied to recorded traffic (`lrg readiness judge`),
// so that a run and a recording are judged by one code path. A recording holds what the software sent and was
// answered, not what a run raised nor what the sandbox's store holds: each check finds its occasions in the recorded
// answers themselves (`Offline`, check.ts), so a day of production traffic is judged as well as a readiness run's.
import { READINESS_BOUNDS, type Operation } from "@lrg/spec";
import { clockStated, RecordedClock } from "@lrg/spec/sandbox-clock";
import { parseDateTimeFilter } from "../date-time.js";
import type { SandboxOperations } from "../operation-types.js";
import type { ReadinessObservationRow } from "./store/port.js";
import type { CheckName, RecordedExchange, Recording } from "./check.js";
import { CHECK_NAMES, CHECKS } from "./checks.js";
import { observationOf } from "./observer.js";
import { checkResult, runVerdict } from "./service.js";
import { isRecord, isString, type Result } from "./shapes.js";
import { ANSWER_LOST } from "./submissions.js";

export { htmlReport } from "./reports/html.js";
export { junitReport } from "./reports/junit.js";
export type { ReadinessObservationRow, Recording };

/** One exchange of a recording as read from HAR: its operation (matched by the spec's paths), request and answer. */
export interface RecordedInput {
  operation: Pick<Operation, "operationId" | "method" | "document">;
  request: {
    query: Record<string, string | string[]>;
    params: Record<string, string>;
    /** Header names in lower case. */
    headers: Record<string, string>;
    /** The body as JSON, undefined when it is none, not JSON or not recorded whole. */
    body: unknown;
  };
  /** The answer's status; 0 when no answer arrived (the connection closed unanswered, or the software gave up). */
  status: number;
  /** Header names in lower case. */
  responseHeaders: Record<string, string>;
  /** The answer's body as text, undefined when the recording does not hold it whole. */
  answer: string | undefined;
  /** When the answer arrived, or the exchange ended without one, by the recording's clock (ms since the epoch). */
  answeredMs: number;
}

const RUN_STARTED: keyof SandboxOperations = "startReadinessRun";

const parsed = (text: string | undefined): unknown => {
  if (text === undefined || !/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const instant = (value: unknown): number | undefined => (isString(value) ? parseDateTimeFilter(value) : undefined);

/**
 * What a control-plane exchange says of the registry's clock: the instant it stated at its answer (a clock operation's
 * `now`, `@lrg/spec/sandbox-clock`, or a started run's `started_at`); undefined for any other.
 */
function clockStatedBy(input: RecordedInput, answer: unknown): number | undefined {
  const { operationId } = input.operation;
  if (operationId !== RUN_STARTED || !isRecord(answer) || input.status >= 300)
    return clockStated(operationId, input.status, answer);
  return instant(answer["started_at"]);
}

/**
 * A recording's exchanges (in the order answered) as the checks read them: each exchange of the registry interface
 * made into the observation a readiness run keeps (the gateway's own `observationOf`; an exchange no answer arrived
 * for observed as an answer lost, ANSWER_LOST), the first `READINESS_BOUNDS.observationsKept` of them (the others
 * counted as dropped), with its bodies. Each is timed on the registry's clock as the recording shows it: the
 * recording's own, moved by what the sandbox's control plane answered of its clock (a clock set or advanced, a run
 * started), so that waits are measured as the run measured them. When the recording holds a readiness run's start
 * answer, what the run did not observe is left out: the exchanges before it, and those at or after its deadline.
 */
export function recordingOf(inputs: readonly RecordedInput[]): Recording & { dropped: number } {
  const answers = inputs.map((input) => parsed(input.answer));
  const started = inputs.findIndex(
    (input, index) => input.operation.operationId === RUN_STARTED && clockStatedBy(input, answers[index]) !== undefined,
  );
  const run = started < 0 ? undefined : answers[started];
  const deadlineMs = isRecord(run) ? instant(run["deadline"]) : undefined;
  const exchanges: RecordedExchange[] = [];
  const clock = new RecordedClock();
  let endedMs = inputs[0]?.answeredMs ?? 0;
  let dropped = 0;
  for (const [index, input] of inputs.entries()) {
    const answer = answers[index];
    const clockMs = clock.at(input.answeredMs, clockStatedBy(input, answer));
    endedMs = Math.max(endedMs, clockMs);
    if (input.operation.document !== "registry" || index < started) continue;
    if (deadlineMs !== undefined && clockMs >= deadlineMs) continue;
    if (exchanges.length >= READINESS_BOUNDS.observationsKept) {
      dropped += 1;
      continue;
    }
    const reply = {
      statusCode: input.status === 0 ? ANSWER_LOST : input.status,
      getHeader: (name: string): string | undefined => input.responseHeaders[name.toLowerCase()],
    };
    const context = { runId: "", businessUnitId: "", clockMs };
    const observation = observationOf(input.operation, input.request, reply, input.answer ?? "", context);
    exchanges.push({
      observation: { ...observation, sequence: exchanges.length + 1 },
      sent: input.request.body,
      answer,
    });
  }
  const observations = exchanges.map((exchange) => exchange.observation);
  return { exchanges, observations, endedMs, deadlineMs, dropped };
}

/** Every readiness check (or those named) judged on a recording, as a finished run judges them. */
export function judgeRecording(recording: Recording, names: readonly CheckName[] = CHECK_NAMES): Result {
  const checks = names.map((name) => checkResult(name, CHECKS[name].assessRecording(recording), "finished"));
  return { verdict: runVerdict(checks, "finished"), checks };
}

/** A check's occasion on a recording and what is judged of it, in words (`lrg readiness judge`'s README lists them). */
export const offlineOccasion = (name: CheckName): string => CHECKS[name].offline.occasion;

export { CHECK_NAMES };
