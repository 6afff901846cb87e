import { isListing, type ReadinessCheck } from "./check.js";

/**
 * Nothing left behind: the software acknowledges every notification once processed (one it ignores included); a
 * notification left NEW is listed again and again until it expires after a month. Every notification raised for the
 * unit during the run must be acknowledged by its end, as the version the software consumes lists them (a version 0
 * consumer never sees version 1's attachment and message notifications). Software that never listed notifications is
 * not examined.
 */
export const nothingLeftBehind: ReadinessCheck = {
  howToPass:
    "Acknowledge every notification once it is processed, including those your software decided to ignore and the " +
    "duplicates, so that nothing stays NEW.",
  expected: "No notification raised during the run left NEW at its end.",
  instructions: ({ deadline }) =>
    `Acknowledge every notification raised for your business unit before ${deadline} (the run's deadline, on the unit's sandbox clock).`,
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
