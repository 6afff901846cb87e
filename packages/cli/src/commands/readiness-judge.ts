// lrg readiness judge FILE.har: a recording's exchanges, matched to the spec's operations, handed to the readiness
// checks' own judges (`@lrg/gateway/readiness-judges`), which make them into the observations a run keeps and find each
// check's occasions in the recorded answers.
import type { SandboxComponents } from "@lrg/client";
import { builtSpec, pathParameters, textOf, type Exchange, type RecordedBody } from "@lrg/conformance/drift";
import { judgeRecording, recordingOf, type RecordedInput } from "@lrg/gateway/readiness-judges";
import { STOPPED_BEFORE_THE_END } from "../record/proxy.js";

export { htmlReport, junitReport } from "@lrg/gateway/readiness-judges";
export { HarError, readHar } from "@lrg/conformance/drift";

type Run = SandboxComponents["schemas"]["ReadinessRun"];

/** What a recorded run is called where a run has an id (its run and business unit are not the sandbox's). */
const RECORDING_ID = "00000000-0000-0000-0000-000000000000";

const parsed = (body: RecordedBody | undefined): unknown => {
  if (body === undefined || !body.known) return undefined;
  try {
    return JSON.parse(textOf(body)) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * One exchange as the readiness judges read it: its operation by the spec's paths (the registry interface and the
 * sandbox's control plane), the request and the answer as recorded. Undefined for an exchange of no operation, and for
 * one `lrg record` cut off when it stopped (its answer was not lost: the recording ended).
 */
function inputOf(exchange: Exchange): RecordedInput | undefined {
  const operation = builtSpec.match(exchange.method, exchange.pathname);
  if (operation === undefined || (exchange.status === 0 && exchange.note === STOPPED_BEFORE_THE_END)) return undefined;
  return {
    operation,
    request: {
      query: exchange.query,
      params: pathParameters(operation, exchange.pathname),
      headers: exchange.requestHeaders,
      body: parsed(exchange.requestBody),
    },
    status: exchange.status,
    responseHeaders: exchange.responseHeaders,
    answer: exchange.responseBody.known ? textOf(exchange.responseBody) : undefined,
    answeredMs: exchange.answeredMs,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A recording judged as a finished readiness run: its observations (in the order answered, the first the spec's
 * bound keeps), every check's verdict, and its time as the recording gives it.
 */
export function judgedRecording(exchanges: readonly Exchange[]): Run {
  const ordered = [...exchanges].sort((a, b) => a.answeredMs - b.answeredMs || a.index - b.index);
  const recording = recordingOf(ordered.map(inputOf).filter((input) => input !== undefined));
  const { verdict, checks } = judgeRecording(recording);
  const startedMs = ordered[0]?.startedMs ?? 0;
  const endedMs = Math.max(startedMs, ...ordered.map((exchange) => exchange.answeredMs));
  return {
    run_id: RECORDING_ID,
    business_unit_id: RECORDING_ID,
    status: "finished",
    verdict,
    started_at: iso(startedMs),
    deadline: iso(endedMs),
    ended_at: iso(endedMs),
    time_limit_seconds: Math.max(60, Math.ceil((endedMs - startedMs) / 1000)),
    observations: { recorded: recording.observations.length, dropped: recording.dropped },
    checks,
  };
}
