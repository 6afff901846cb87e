import { isoMillis } from "../clock.js";
import { SERVICE_HOURS_IN_WORDS } from "../registry/london-time.js";
import type { RegistryOperationName } from "../operation-types.js";
import type { SettingStore } from "../storage/ports/settings.js";
import { deferredTiming, MANUAL_PROCESSING_MS, retryAfterSeconds } from "../title-enquiries/official-search.js";
import { parseDateTimeFilter } from "../date-time.js";
import {
  firstHundred,
  isOperation,
  type FoundFacts,
  type GatheringCheck,
  type Recording,
  type UnitState,
} from "./check.js";
import { dataOf } from "./recording.js";
import { clientCertificateNeed, refusedForClientCertificate } from "./client-certificate.js";
import type { RunningRun } from "./check.js";
import { RunSetting, type KeptByRun } from "./run-settings.js";
import { isNumber, isRecord, isString, objectOf } from "./shapes.js";

/** The official search a run deferred: its `message_id`, when it was made and when its result is due. */
export interface DeferredSearch extends KeptByRun {
  messageId: string;
  deferredMs: number;
  /** `expected_response_at`, by the unit's clock. */
  readyMs: number;
  /** The run's deadline: a result due at or after it cannot be read during the run. */
  deadlineMs: number;
}

/** The official search and its Poll Request Service. */
const SEARCH_OPERATIONS: readonly RegistryOperationName[] = ["officialSearchOfWhole", "getPollRequest"];

/** The setting that holds the search a unit's run deferred. */
const deferredSetting = new RunSetting<DeferredSearch>(
  "deferred-official-search",
  objectOf<DeferredSearch>({
    runId: isString,
    messageId: isString,
    deferredMs: isNumber,
    readyMs: isNumber,
    deadlineMs: isNumber,
  }),
);

/**
 * Takes the run's one deferral for an accepted official search of its unit: the first search of the run takes it (once,
 * across instances). Answers whether this search is the run's (then the caller defers it, due at `readyMs`).
 */
export function takeDeferral(
  storage: SettingStore,
  run: Pick<RunningRun, "id" | "deadlineMs">,
  businessUnitId: string,
  search: { messageId: string; readyMs: number },
  nowMs: number,
): Promise<boolean> {
  const deferred: DeferredSearch = { runId: run.id, ...search, deferredMs: nowMs, deadlineMs: run.deadlineMs };
  return deferredSetting.takeOnce(storage, businessUnitId, deferred);
}

/** The search a run deferred, if it deferred one. */
export const deferredSearchOf = (
  storage: SettingStore,
  run: { id: string; businessUnitId: string },
): Promise<DeferredSearch | undefined> => deferredSetting.keptBy(storage, run.businessUnitId, run.id);

/**
 * How the run defers a search made now, by the unit's clock (`deferredTiming`, as it defers the search itself), and
 * what to do about it: poll from `expected_response_at` on; when that is past the run's deadline, move the clock first.
 */
function deferralNow({ nowMs }: UnitState, deadlineMs: number): string {
  const { deferral, readyMs } = deferredTiming(nowMs);
  const hours = `the service hours (${SERVICE_HOURS_IN_WORDS}; the unit's clock shows ${isoMillis(nowMs)})`;
  const then =
    "fetch its result (GET /api/v1/poll-requests/{message_id}) from then on, not before. Move the unit's clock on " +
    "rather than wait: POST /sandbox/v1/clock/advance.";
  if (deferral.code === "BG20001")
    return (
      `Made now, inside ${hours}, the run defers it as manual processing (202, ${deferral.code}) with ` +
      `expected_response_at ${MANUAL_PROCESSING_MS / 60_000} minutes later, so make it at least that long before the ` +
      `deadline: ${then}`
    );
  const due =
    `(202, ${deferral.code}) until they resume: expected_response_at ${isoMillis(readyMs)}, Retry-After ` +
    `${retryAfterSeconds(readyMs, nowMs)} seconds`;
  if (readyMs < deadlineMs) return `Made now, outside ${hours}, the run defers it ${due}; ${then}`;
  return (
    `Made now, outside ${hours}, the run would defer it ${due}, past the run's deadline: the check would end not ` +
    "exercised. Cancel this run (POST /sandbox/v1/readiness-runs/{run_id}/cancel), move the unit's clock into the " +
    "service hours (PUT /sandbox/v1/clock) and start a run again; or start one whose time limit reaches past " +
    `${isoMillis(readyMs)}.`
  );
}

/**
 * The searches a recording shows deferred (202), each as the check's facts: its `message_id`, when it was deferred and
 * when its result was due (its Retry-After from then, as the software counts it; else its `expected_response_at`),
 * and the deadline: the run's, when the recording holds its start, else the recording's end. A search or poll refused
 * for want of a client certificate, with no search deferred, is judged without one (it fails).
 */
function deferredInRecording(recording: Recording): FoundFacts<{ deferredSearch: DeferredSearch | undefined }>[] {
  const deadlineMs = recording.deadlineMs ?? recording.endedMs;
  const found: FoundFacts<{ deferredSearch: DeferredSearch }>[] = [];
  for (const { observation, sent, answer } of recording.exchanges) {
    if (!isOperation(observation, "officialSearchOfWhole") || observation.status !== 202) continue;
    const data = dataOf(answer);
    const messageId = data?.["message_id"] ?? (isRecord(sent) ? sent["message_id"] : undefined);
    if (!isString(messageId)) continue;
    const expected = data?.["expected_response_at"];
    const readyMs =
      observation.retryAfterSeconds !== null
        ? observation.clockMs + observation.retryAfterSeconds * 1000
        : ((isString(expected) ? parseDateTimeFilter(expected) : undefined) ?? observation.clockMs);
    const deferredSearch = { runId: "", messageId, deferredMs: observation.clockMs, readyMs, deadlineMs };
    found.push({ deferredSearch });
  }
  if (found.length > 0) return found;
  const refused = refusedForClientCertificate(recording.observations, (observation) =>
    isOperation(observation, ...SEARCH_OPERATIONS),
  );
  return refused ? [{ deferredSearch: undefined }] : [];
}

/**
 * Deferred official search: the registry may accept an official search without its result (202 with `message_id` and
 * `expected_response_at`: manual processing, or out of the service hours); the result is then fetched with the
 * `message_id` later. The run defers the unit's first accepted search: the software must fetch its result from
 * `expected_response_at` on, never before (a poll answered 202 came too soon), and read it (200). A search or poll
 * refused for want of a client certificate (403 BG40005) fails the check.
 */
export const deferredOfficialSearch: GatheringCheck<{ deferredSearch: DeferredSearch | undefined }> = {
  howToPass:
    "On a 202, keep its message_id and wait the seconds of its Retry-After (the time to expected_response_at; the " +
    "registry's clock may differ from yours, so count from the answer rather than compare expected_response_at with " +
    "your clock). Then GET /api/v1/poll-requests/{message_id}; while it answers 202, again after its Retry-After; " +
    "read the 200. With @lrg/client, officialSearchOfWhole polls so by itself when the wait fits its timeoutMs; " +
    "otherwise it throws DeferredResultTimeoutError: call pollOfficialSearch(error.messageId) once expected_response_at " +
    "has passed. Present your client certificate on the search and every poll (mutual TLS); one refused 403 BG40005 " +
    "fails the check.",
  expected:
    "The deferred search's result read (poll answered 200), with no poll before its expected_response_at (none " +
    "answered 202).",
  instructions: ({ deadline, unit }) =>
    "Make one official search of whole with priority (POST /api/v1/official-searches-of-whole) from your software " +
    `before ${deadline} (the run's deadline, on the unit's sandbox clock). ${deferralNow(unit, Date.parse(deadline))} ` +
    clientCertificateNeed(unit),
  steps: ({ storage }) => ({
    officialSearch: (run, businessUnitId, search, nowMs) => takeDeferral(storage, run, businessUnitId, search, nowMs),
  }),
  gather: async ({ storage, run }) => ({ deferredSearch: await deferredSearchOf(storage, run) }),
  judge: ({ observations, deferredSearch, ended }) => {
    const refused = refusedForClientCertificate(observations, (observation) =>
      isOperation(observation, ...SEARCH_OPERATIONS),
    );
    if (refused) return refused;
    const searches = observations.filter((observation) => isOperation(observation, "officialSearchOfWhole"));
    if (!deferredSearch) {
      const found = "The software made no official search that the registry accepted during the run.";
      return { verdict: ended ? "not_exercised" : "running", found, requests: firstHundred(searches) };
    }
    const { messageId, readyMs, deadlineMs } = deferredSearch;
    const polls = observations.filter(
      (observation) =>
        isOperation(observation, "getPollRequest") && observation.pathParameters["message_id"] === messageId,
    );
    const requests = firstHundred([...searches, ...polls].sort((a, b) => a.sequence - b.sequence));
    const deferred = `Search ${messageId} was deferred until ${isoMillis(readyMs)}`;
    // The Poll Request Service answers 202 exactly while the result is not due: such a poll came before it.
    const early = polls.filter((poll) => poll.status === 202);
    if (early.length > 0)
      return {
        verdict: "failed",
        found:
          `${deferred}; it was polled ${early.length} time${early.length === 1 ? "" : "s"} before then ` +
          `(first at ${isoMillis(early[0]!.clockMs)}, answered 202).`,
        requests,
      };
    const read = polls.find((poll) => poll.status === 200);
    if (read)
      return {
        verdict: "passed",
        found: `${deferred}; its result was read at ${isoMillis(read.clockMs)} (observation ${read.sequence}).`,
        requests,
      };
    if (!ended) return { verdict: "running", found: `${deferred}; its result has not been read yet.`, requests };
    if (readyMs >= deadlineMs)
      return {
        verdict: "not_exercised",
        found: `${deferred}, at or after the run's deadline: it could not be read during the run.`,
        requests,
      };
    return { verdict: "failed", found: `${deferred}; its result was never read.`, requests };
  },
  offline: {
    occasion:
      "each official search deferred (202 BG20001 or BG20002): no poll of its message_id answered 202 (too soon), " +
      "and one answered 200, unless the recording (or the run whose start it holds) ended before its Retry-After ran " +
      "out; a search or poll refused 403 BG40005 (no client certificate) fails",
    none: "No official search of the recording was deferred (202).",
    find: deferredInRecording,
  },
};
