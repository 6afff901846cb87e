import {
  consumedVersion,
  isListing,
  type GatherContext,
  type GatheringCheck,
  type NotificationVersion,
} from "./check.js";

/**
 * At the end of the run: whether any notification was raised for the unit during the run, and the ids of those still
 * NEW (at most 100), as the version the software consumed lists them (`consumedVersion`); undefined while it runs.
 */
export type LeftBehind = { raised: boolean; newIds: string[]; version: NotificationVersion } | undefined;

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
    if (leftBehind.newIds.length === 0)
      return {
        verdict: "passed",
        found: `Every notification raised during the run ${feed} was acknowledged.`,
        requests: [],
      };
    const shown = leftBehind.newIds.slice(0, 5).join(", ");
    const more = leftBehind.newIds.length >= 100 ? "100 or more" : String(leftBehind.newIds.length);
    return {
      verdict: "failed",
      found: `${more} notifications raised during the run ${feed} were still NEW at its end (${shown}${leftBehind.newIds.length > 5 ? ", ..." : ""}).`,
      requests: [],
    };
  },
};
