import type { ReadinessObservationRow } from "./store/port.js";
import { acknowledgedIds, firstHundred, isOperation, type ReadinessCheck } from "./check.js";
import type { DocumentCode } from "../registry/correspondence.js";
import { shownNotifications, type NotificationType } from "./recording.js";
import { isString } from "./shapes.js";
import { despatchedCorrespondence } from "./stimulus.js";

/** The notification types, in either version, of correspondence despatched. */
const DESPATCHED: readonly string[] = [
  "application.correspondence-despatched",
  "APPLICATION_CORRESPONDENCE_DESPATCHED",
] satisfies NotificationType[];

/** The documents the run despatches: a letter and an official copy of the register, so that "each" means two. */
const CODES: DocumentCode[] = ["LTR", "OCR"];

const isAsk = (observation: ReadinessObservationRow): boolean => isOperation(observation, "downloadDocument");
const isFetch = (observation: ReadinessObservationRow): boolean => isOperation(observation, "fetchDocumentContent");
const idOf = (observation: ReadinessObservationRow): string | undefined => observation.pathParameters["download_id"];

/** What became of one despatched document: asked for (302), then fetched from its download address (200)? */
function outcome(downloadId: string, observations: readonly ReadinessObservationRow[]): string | undefined {
  const asks = observations.filter((observation) => isAsk(observation) && idOf(observation) === downloadId);
  const fetches = observations.filter((observation) => isFetch(observation) && idOf(observation) === downloadId);
  if (fetches.some((fetch) => fetch.status === 200) && asks.some((ask) => ask.status === 302)) return undefined;
  if (asks.length === 0) return `${downloadId} was never asked for (GET /v1/documents/${downloadId})`;
  if (!asks.some((ask) => ask.status === 302))
    return `${downloadId} was asked for but answered ${asks.map((ask) => ask.status).join(", ")}`;
  if (fetches.length === 0)
    return `${downloadId} was answered 302, but its download address (Location) was never requested`;
  return `${downloadId}'s download address answered ${fetches.map((fetch) => fetch.status).join(", ")}, never 200`;
}

/**
 * Downloads: `GET /v1/documents/{download_id}` is called with the registry credentials and answers 302 to a signed,
 * short-lived download address, which takes no credentials. The run despatches correspondence on an application of the
 * unit; each of its documents must be fetched that way, the 302 followed, and no Authorization header sent to the
 * download address. Sending it there fails the check at once.
 */
export const downloads: ReadinessCheck = {
  howToPass:
    "On application.correspondence-despatched (APPLICATION_CORRESPONDENCE_DESPATCHED in version 0), download each " +
    "document of its payload: GET /v1/documents/{download_id} with your credentials, then GET the 302's Location " +
    "without the Authorization header (the address is signed; the registry's is on another host, where credentials " +
    "must never go). With the gateway the address is on the same origin, so an HTTP client that follows the redirect " +
    "itself keeps the header: follow it yourself with a fresh request, or drop the header before it is followed.",
  expected:
    "Each despatched document answered 302 at GET /v1/documents/{download_id}, then 200 at its download address, " +
    "which never received credentials.",
  stimulus: (businessUnitId, nowMs) => {
    const { downloadIds, ...raised } = despatchedCorrespondence(businessUnitId, nowMs, CODES, "READINESS-DOWNLOADS");
    return {
      raised,
      kept: { notificationIds: raised.notifications.map((notification) => notification.id), downloadIds },
    };
  },
  instructions: () =>
    "Correspondence was despatched on an application of your business unit (application.correspondence-despatched, " +
    "version 0 APPLICATION_CORRESPONDENCE_DESPATCHED) with two documents. Let your software list notifications and " +
    "download the documents as it does in production.",
  judge: ({ observations, stimulus, ended }) => {
    const downloadIds = stimulus.downloads?.downloadIds ?? [];
    const notificationIds = stimulus.downloads?.notificationIds ?? [];
    const fetches = observations.filter(isFetch);
    const requests = firstHundred(
      observations.filter(
        (observation) => isFetch(observation) || (isAsk(observation) && downloadIds.includes(idOf(observation) ?? "")),
      ),
    );
    const leaked = fetches.filter((fetch) => fetch.credentialsSent);
    if (leaked.length > 0) {
      const where = leaked.map((fetch) => `observation ${fetch.sequence}`).join(", ");
      return {
        verdict: "failed",
        found: `The registry credentials (Authorization) were sent to a download address (${where}).`,
        requests,
      };
    }
    const missing = downloadIds.map((id) => outcome(id, observations)).filter((found) => found !== undefined);
    if (missing.length === 0)
      return {
        verdict: "passed",
        found: `Each document (${downloadIds.join(", ")}) was answered 302 and fetched from its download address without credentials.`,
        requests,
      };
    const found = `Not every despatched document was downloaded: ${missing.join("; ")}.`;
    if (!ended) return { verdict: "running", found, requests };
    const acknowledged = acknowledgedIds(observations);
    const exercised = requests.length > 0 || notificationIds.some((id) => acknowledged.has(id));
    if (!exercised)
      return {
        verdict: "not_exercised",
        found:
          "The software neither acknowledged the application.correspondence-despatched notification nor downloaded a document during the run.",
        requests,
      };
    return { verdict: "failed", found, requests };
  },
  offline: {
    occasion:
      "the documents of each correspondence notification listed NEW (application.correspondence-despatched or " +
      "APPLICATION_CORRESPONDENCE_DESPATCHED), and each asked for at GET /v1/documents/{download_id}: each answered " +
      "302, then fetched from its download address with 200; credentials sent to a download address fail",
    none: "The recording shows no document despatched (listed), asked for or fetched.",
    find: (recording) => {
      const despatched = shownNotifications(recording).filter(
        (notification) => notification.shownNew && DESPATCHED.includes(notification.type),
      );
      const asked = recording.observations.filter(isAsk).map(idOf).filter(isString);
      if (despatched.length === 0 && asked.length === 0 && !recording.observations.some(isFetch)) return [];
      const downloadIds = [...new Set([...despatched.flatMap((notification) => notification.downloadIds), ...asked])];
      return [
        {
          stimulus: { downloads: { notificationIds: despatched.map((notification) => notification.id), downloadIds } },
        },
      ];
    },
  },
};
