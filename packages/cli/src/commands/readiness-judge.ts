// lrg readiness judge FILE.har: a recording's exchanges made into the observations a readiness run keeps (the gateway's
// own `observationOf`), then judged by the readiness checks' own judges (`@lrg/gateway/readiness-judges`).
import { groupDuplicates, type NotificationV0, type NotificationV1, type SandboxComponents } from "@lrg/client";
import { builtSpec, pathParameters, textOf, type Exchange, type RecordedBody } from "@lrg/conformance/drift";
import { judgeRecording, observationOf, type ReadinessObservationRow } from "@lrg/gateway/readiness-judges";

export { htmlReport, junitReport } from "@lrg/gateway/readiness-judges";
export { HarError, readHar } from "@lrg/conformance/drift";
import { READINESS_BOUNDS } from "@lrg/spec/constants";

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
 * The observation a readiness run would have kept of one exchange (the gateway's `observationOf` on the request and
 * answer as recorded), timed by when its answer arrived; undefined for an exchange of no operation or never answered.
 */
function observationOfExchange(exchange: Exchange, sequence: number): ReadinessObservationRow | undefined {
  const operation = builtSpec.match(exchange.method, exchange.pathname);
  if (operation === undefined || exchange.status === 0) return undefined;
  const request = {
    query: exchange.query,
    params: pathParameters(operation, exchange.pathname),
    headers: exchange.requestHeaders,
    body: parsed(exchange.requestBody),
  };
  const reply = {
    statusCode: exchange.status,
    getHeader: (name: string): string | undefined => exchange.responseHeaders[name.toLowerCase()],
  };
  const payload = exchange.responseBody.known ? textOf(exchange.responseBody) : "";
  const context = { runId: RECORDING_ID, businessUnitId: RECORDING_ID, clockMs: exchange.answeredMs };
  return { ...observationOf(operation, request, reply, payload, context), sequence };
}

/** The ids of notifications the recording's list answers show delivered twice for one event (`groupDuplicates`). */
function listedDuplicates(exchanges: readonly Exchange[]): string[] {
  const listed = new Map<string, NotificationV0 | NotificationV1>();
  for (const exchange of exchanges) {
    const operation = builtSpec.match(exchange.method, exchange.pathname);
    // A notification list: a GET of the notification services (the other is the acknowledgement, a POST).
    if (exchange.status !== 200 || operation?.method !== "GET" || !operation.tags.includes("notifications")) continue;
    const data = (parsed(exchange.responseBody) as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data)) continue;
    for (const notification of data as (NotificationV0 | NotificationV1)[])
      if (typeof notification?.notification_id === "string") listed.set(notification.notification_id, notification);
  }
  return groupDuplicates([...listed.values()])
    .filter((event) => event.notifications.length > 1)
    .flatMap((event) => event.notifications.map((notification) => notification.notification_id));
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A recording judged as a finished readiness run: its observations (in the order answered, the first the spec's
 * bound keeps), every check's verdict, and its time as the recording gives it.
 */
export function judgedRecording(exchanges: readonly Exchange[]): Run {
  const ordered = [...exchanges].sort((a, b) => a.answeredMs - b.answeredMs || a.index - b.index);
  const observations: ReadinessObservationRow[] = [];
  let dropped = 0;
  for (const exchange of ordered) {
    const observation = observationOfExchange(exchange, observations.length + 1);
    if (observation === undefined) continue;
    if (observations.length < READINESS_BOUNDS.observationsKept) observations.push(observation);
    else dropped += 1;
  }
  const { verdict, checks } = judgeRecording(observations, listedDuplicates(exchanges));
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
    observations: { recorded: observations.length, dropped },
    checks,
  };
}
