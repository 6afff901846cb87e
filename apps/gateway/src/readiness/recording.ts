// What a recording shows of the registry's state, where the checks judged offline find their occasions (`Offline`,
// check.ts): the notifications its list answers showed, the pages they came in, the applications shown in a status and
// the submissions that stored them. Read from the recorded answers alone, so a day of production traffic serves as
// well as a readiness run.
import { NOTIFICATION_PAGE_SIZE } from "@lrg/spec";
import { parseDateTimeFilter } from "../date-time.js";
import type { components } from "../operation-types.js";
import type { ReadinessObservationRow } from "./store/port.js";
import { isListing, isOperation, type NotificationVersion, type Recording } from "./check.js";
import { isRecord, isString } from "./shapes.js";

/** A notification type of either version. */
export type NotificationType =
  components["schemas"]["NotificationTypeV1"] | components["schemas"]["NotificationTypeV0"];

/** The `data` member of a recorded JSON body, when it is an object. */
export function dataOf(body: unknown): Record<string, unknown> | undefined {
  const data = isRecord(body) ? body["data"] : undefined;
  return isRecord(data) ? data : undefined;
}

/** A notification as the list answers of a recording showed it. */
export interface ShownNotification {
  id: string;
  type: string;
  subject: string;
  /** What the deliveries of one event share: its instant, its type and its subject. */
  event: string;
  /** Whether a list answer showed it NEW (the software then had it to handle and acknowledge). */
  shownNew: boolean;
  /** The download ids of the documents its payload names (correspondence despatched); none for other types. */
  downloadIds: string[];
  /** The list answer that showed it first. */
  listedIn: ReadinessObservationRow;
}

/** The version of the notification services an observation of a list or acknowledge call is of. */
const versionOf = (observation: ReadinessObservationRow): NotificationVersion =>
  observation.operationId.endsWith("V0") ? "v0" : "v1";

/** The items of a recorded list answer. */
const itemsOf = (answer: unknown): unknown[] =>
  isRecord(answer) && Array.isArray(answer["data"]) ? answer["data"] : [];

/** The download ids of the documents a notification's payload names. */
function downloadIdsOf(item: Record<string, unknown>): string[] {
  const documents = dataOf(item["payload"])?.["documents"];
  if (!Array.isArray(documents)) return [];
  return documents.map((document) => (isRecord(document) ? document["download_id"] : undefined)).filter(isString);
}

/**
 * The notifications the list answers (200) of the recording showed, of one version or of both, each once, in the
 * order first shown.
 */
export function shownNotifications(recording: Recording, version?: NotificationVersion): ShownNotification[] {
  const shown = new Map<string, ShownNotification>();
  for (const { observation, answer } of recording.exchanges) {
    if (!isListing(observation) || observation.status !== 200) continue;
    if (version !== undefined && versionOf(observation) !== version) continue;
    for (const item of itemsOf(answer)) {
      if (!isRecord(item)) continue;
      const { notification_id: id, notification_type: type, subject, event_datetime: at, status } = item;
      if (!isString(id) || !isString(type) || !isString(subject) || !isString(at)) continue;
      const before = shown.get(id);
      if (before) {
        before.shownNew ||= status === "NEW";
        continue;
      }
      const event = `${parseDateTimeFilter(at) ?? at} ${type} ${subject}`;
      const downloadIds = downloadIdsOf(item);
      shown.set(id, { id, type, subject, event, shownNew: status === "NEW", downloadIds, listedIn: observation });
    }
  }
  return [...shown.values()];
}

/** The list answers (200) of one version, in the order answered. */
const listAnswers = (recording: Recording, version: NotificationVersion): Recording["exchanges"] =>
  recording.exchanges.filter(
    ({ observation }) => isListing(observation) && observation.status === 200 && versionOf(observation) === version,
  );

/**
 * Whether a list answer held a full page with a NEW notification in it: as many as a page holds, or as its `limit`
 * asked. More may have been waiting past it.
 */
function isFullPage({ observation, answer }: Recording["exchanges"][number]): boolean {
  const limit = Number(observation.query["limit"]);
  const page = Number.isInteger(limit) && limit > 0 ? Math.min(limit, NOTIFICATION_PAGE_SIZE) : NOTIFICATION_PAGE_SIZE;
  const items = itemsOf(answer);
  return items.length >= page && items.some((item) => isRecord(item) && item["status"] === "NEW");
}

/** The first list answer of a version that held a full page: the software had to read past it. */
export const firstFullPage = (
  recording: Recording,
  version: NotificationVersion,
): ReadinessObservationRow | undefined => listAnswers(recording, version).find(isFullPage)?.observation;

/**
 * The last list answer of a version, when it held a full page: the software listed nothing of that version after it,
 * so whatever was waiting past it was never read. Undefined when the last was not full, or there was none.
 */
export function unreadPastFullPage(
  recording: Recording,
  version: NotificationVersion,
): ReadinessObservationRow | undefined {
  const last = listAnswers(recording, version).at(-1);
  return last && isFullPage(last) ? last.observation : undefined;
}

/** An application the recording shows in a status, and when it first showed it (the registry's clock). */
export interface ShownApplication {
  applicationId: string;
  shownMs: number;
}

/**
 * The applications the recording shows in `status`, each once, in the order first shown: by a notification of one of
 * `types` that a list answer showed (its subject), or by the application's information answered in that status.
 */
export function applicationsShown(
  recording: Recording,
  status: components["schemas"]["ApplicationStatus"],
  types: readonly NotificationType[],
): ShownApplication[] {
  const named: readonly string[] = types;
  const shown = new Map<string, ShownApplication>();
  const note = (applicationId: unknown, shownMs: number) => {
    if (isString(applicationId) && !shown.has(applicationId)) shown.set(applicationId, { applicationId, shownMs });
  };
  for (const { observation, answer } of recording.exchanges) {
    if (observation.status !== 200) continue;
    if (isListing(observation))
      for (const item of itemsOf(answer))
        if (isRecord(item) && isString(item["notification_type"]) && named.includes(item["notification_type"]))
          note(item["subject"], observation.clockMs);
    if (isOperation(observation, "getApplicationInformation") && dataOf(answer)?.["status"] === status)
      note(observation.pathParameters["id"], observation.clockMs);
  }
  return [...shown.values()];
}

/** The application a submission's answer (202) named, if the recording holds it. */
export const applicationAnswered = (answer: unknown): string | undefined => {
  const id = dataOf(answer)?.["application_request_id"];
  return isString(id) ? id : undefined;
};

/** The submission (`POST /v0/applications`) whose answer (202) named the application, if the recording holds it. */
export function submissionOf(recording: Recording, applicationId: string): ReadinessObservationRow | undefined {
  return recording.exchanges.find(
    ({ observation, answer }) =>
      isOperation(observation, "submitApplication") &&
      observation.status === 202 &&
      applicationAnswered(answer) === applicationId,
  )?.observation;
}
