import type { ReadinessObservationRow } from "./store/port.js";
import {
  acknowledgedIds,
  consumedVersion,
  isListing,
  type GatherContext,
  type GatheringCheck,
  type NotificationVersion,
  type Recording,
} from "./check.js";
import { shownNotifications, unreadPastFullPage } from "./recording.js";

/**
 * At the end of the run: whether any notification was raised for the unit during the run, and the ids of those still
 * NEW (at most 100), as the version the software consumed lists them (`consumedVersion`); undefined while it runs. On
 * a recording, where only what the list answers showed is known: whether any was shown NEW, those shown NEW and never
 * acknowledged, and the full page the software listed nothing past (`unreadPast`), whose successors it left NEW.
 */
export type LeftBehind =
  | {
      raised: boolean;
      newIds: string[];
      version: NotificationVersion;
      unreadPast?: ReadinessObservationRow | undefined;
    }
  | undefined;

/** What a recording shows left behind: see `LeftBehind`; undefined when no list answer showed a NEW notification. */
function leftBehindInRecording(recording: Recording): LeftBehind {
  const version = consumedVersion(recording.observations) ?? "v1";
  const shown = shownNotifications(recording, version).filter((notification) => notification.shownNew);
  if (shown.length === 0) return undefined;
  const acknowledged = acknowledgedIds(recording.observations);
  const newIds = shown
    .filter((notification) => !acknowledged.has(notification.id))
    .map((notification) => notification.id);
  return { raised: true, newIds: newIds.slice(0, 100), version, unreadPast: unreadPastFullPage(recording, version) };
}

/**
 * Whether notifications were raised for the unit during a run that reached its deadline, and those still NEW (at most
 * 100), in the feed of the version the software consumed (version 1 when it consumed neither); undefined otherwise.
 */
async function leftBehindOf({ storage, run, observations, finishedMs }: GatherContext): Promise<LeftBehind> {
  if (finishedMs === undefined) return undefined;
  const version = consumedVersion(observations) ?? "v1";
  const query = {
    businessUnitId: run.businessUnitId,
    version,
    createdAfterMs: run.startedMs - 1,
    createdBeforeMs: finishedMs + 1,
    additionalProviderFilter: null,
  };
  const raised = (await storage.listNotifications({ ...query, limit: 1 })).length > 0;
  const stillNew = await storage.listNotifications({ ...query, status: "NEW", limit: 100 });
  return { raised, newIds: stillNew.map((notification) => notification.id), version };
}

/**
 * Nothing left behind: the software acknowledges every notification once processed (one it ignores included); a
 * notification left NEW is listed again and again until it expires after a month. Every notification raised for the
 * unit during the run must be acknowledged by its end, as the version the software consumes lists them (a version 0
 * consumer never sees version 1's attachment and message notifications). Software that never listed notifications is
 * not examined.
 */
export const nothingLeftBehind: GatheringCheck<{ leftBehind: LeftBehind }> = {
  howToPass:
    "Acknowledge every notification once it is processed, including those your software decided to ignore and the " +
    "duplicates, so that nothing stays NEW.",
  expected: "No notification raised during the run left NEW at its end.",
  instructions: ({ deadline }) =>
    `Acknowledge every notification raised for your business unit before ${deadline} (the run's deadline, on the unit's sandbox clock).`,
  gather: async (context) => ({ leftBehind: await leftBehindOf(context) }),
  judge: ({ observations, leftBehind }) => {
    if (!leftBehind) return { verdict: "running", found: "Decided when the run ends.", requests: [] };
    if (!observations.some(isListing))
      return { verdict: "not_exercised", found: "The software listed no notifications during the run.", requests: [] };
    const feed = `in the version ${leftBehind.version.slice(1)} feed the software consumed`;
    if (!leftBehind.raised)
      return {
        verdict: "not_exercised",
        found: `No notification was raised for the unit during the run ${feed}.`,
        requests: [],
      };
    const { newIds, unreadPast } = leftBehind;
    if (newIds.length === 0 && !unreadPast)
      return {
        verdict: "passed",
        found: `Every notification raised during the run ${feed} was acknowledged.`,
        requests: [],
      };
    const shown = newIds.slice(0, 5).join(", ");
    const more = newIds.length >= 100 ? "100 or more" : String(newIds.length);
    const stillNew =
      newIds.length === 0
        ? []
        : [
            `${more} notifications raised during the run ${feed} were still NEW at its end (${shown}${newIds.length > 5 ? ", ..." : ""})`,
          ];
    const unread = unreadPast
      ? [
          `the software listed nothing past the full page of observation ${unreadPast.sequence} ${feed}: what followed it was left NEW`,
        ]
      : [];
    const found = [...stillNew, ...unread].join("; ");
    return {
      verdict: "failed",
      found: `${found.charAt(0).toUpperCase()}${found.slice(1)}.`,
      requests: unreadPast ? [unreadPast] : [],
    };
  },
  offline: {
    occasion:
      "NEW notifications listed in the version the software consumed: each of them acknowledged by the recording's " +
      "end, and no full page the last the software listed (what followed it would stay NEW)",
    none: "No list answer of the recording showed a NEW notification.",
    find: (recording) => {
      const leftBehind = leftBehindInRecording(recording);
      return leftBehind ? [{ leftBehind }] : [];
    },
  },
};
