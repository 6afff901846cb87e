import { rateLimits as RATE_LIMITED } from "@lrg/spec";
import { isoMillis } from "../clock.js";
import { SERVICE_HOURS_IN_WORDS } from "../registry/london-time.js";
import type { ReadinessObservationRow } from "./store/port.js";
import type { SettingStore } from "../storage/ports/settings.js";
import { proprietorNamesClosed } from "../title-enquiries/routes.js";
import { firstHundred, fromObservations, type ReadinessCheck, type UnitState } from "./check.js";
import { clientCertificateNeed, refusedForClientCertificate } from "./client-certificate.js";
import type { RunningRun } from "./check.js";
import { isKeptByRun, RunSetting } from "./run-settings.js";
import { describeWait, waitEvidence, waitsAfter, type Wait } from "./waits.js";

/**
 * The `Retry-After` of the 429 a run answers: long enough to tell software that waits from software that retries on
 * its own short schedule, short enough that a client waiting in real time is not held up (design).
 */
export const RUN_RETRY_AFTER_SECONDS = 2;

/** The rate-limited title look-ups, as the spec names them (`x-lrg-rate-limit`). */
const LOOK_UPS: ReadonlySet<string> = new Set(Object.keys(RATE_LIMITED));

/** The setting that holds the run that answered a unit's 429. */
const rateLimitedSetting = new RunSetting("rate-limits", isKeptByRun);

/**
 * Takes the run's one 429 for a rate-limited look-up of its unit: the first such request of the run takes it (once,
 * across instances). Answers the `Retry-After` to answer it with, or null when the run answered one already.
 */
export async function takeRateLimit(
  storage: SettingStore,
  run: Pick<RunningRun, "id">,
  businessUnitId: string,
): Promise<number | null> {
  const taken = await rateLimitedSetting.takeOnce(storage, businessUnitId, { runId: run.id });
  return taken ? RUN_RETRY_AFTER_SECONDS : null;
}

/** What the instructions say of the service hours of registered proprietor names, when the unit's clock is outside them. */
function namesClosedNow({ nowMs, settings }: UnitState): string {
  if (!proprietorNamesClosed(settings, nowMs)) return "";
  return (
    `Registered proprietor names are served ${SERVICE_HOURS_IN_WORDS} and the unit's clock shows ` +
    `${isoMillis(nowMs)}: until they resume, the look-up after the wait is answered 423 with a Retry-After of its ` +
    "own; official copy availability is served around the clock. "
  );
}

/**
 * Rate limits: the registry's title look-ups are rate-limited (429 `BG40006` with `Retry-After`), and so is a login
 * that failed too often (429 with `Retry-After`); the registry's guide says to honour `Retry-After`. The run answers
 * the unit's first rate-limited look-up 429: after every 429 met during the run, the software's next attempt of the
 * same operation must come no sooner than its `Retry-After`, by the unit's clock, and after one 429 it must try again.
 * A look-up refused for want of a client certificate (403 BG40005) fails the check: the software never met the 429.
 */
export const rateLimits: ReadinessCheck = {
  howToPass:
    "On a 429, wait the seconds of its Retry-After (counted from when the answer arrived) before sending the same " +
    "request again, then send it again; never retry at once or on a schedule of your own. With @lrg/client a GET is " +
    "retried so by itself; a Retry-After longer than its maxRetryAfterMs is handed back to you to schedule. Present " +
    "your client certificate on every title look-up (mutual TLS); one refused 403 BG40005 fails the check.",
  expected: `After each 429, the next attempt of the same operation no sooner than its Retry-After (the run's own: ${RUN_RETRY_AFTER_SECONDS} seconds), and an attempt after it.`,
  instructions: ({ deadline, unit }) =>
    `Look up a title from your software before ${deadline} (the run's deadline, on the unit's sandbox clock): its ` +
    "registered proprietor names (GET /s2/v1/titles/{title_number}/registered-proprietor-names) or the availability " +
    "of its official copies (GET /s1/v1/titles/{title_number}/official-copies/availability). The run answers the " +
    `first look-up 429 with Retry-After: ${RUN_RETRY_AFTER_SECONDS}: wait that long, then look it up again. ` +
    `${namesClosedNow(unit)}${clientCertificateNeed(unit)}`,
  steps: ({ storage }) => ({ titleLookUp: (run, businessUnitId) => takeRateLimit(storage, run, businessUnitId) }),
  judge: ({ observations, ended }) => {
    const refused = refusedForClientCertificate(observations, (observation) => LOOK_UPS.has(observation.operationId));
    if (refused) return refused;
    const byOperation = new Map<string, ReadinessObservationRow[]>();
    for (const observation of observations) {
      const sequence = byOperation.get(observation.operationId);
      if (sequence) sequence.push(observation);
      else byOperation.set(observation.operationId, [observation]);
    }
    const waits: Wait[] = [...byOperation.values()]
      .flatMap((sequence) => waitsAfter(sequence, 429))
      .sort((a, b) => a.answer.sequence - b.answer.sequence);
    const requests = firstHundred(waitEvidence(waits));
    const early = waits.find((wait) => wait.early);
    if (early) return { verdict: "failed", found: `Retried too soon: ${describeWait(early)}.`, requests };
    const honoured = waits.find((wait) => wait.next !== undefined);
    if (honoured) return { verdict: "passed", found: `Waited: ${describeWait(honoured)}.`, requests };
    const first = waits[0];
    if (!first) {
      const found = "The software met no 429 during the run.";
      return { verdict: ended ? "not_exercised" : "running", found, requests };
    }
    return { verdict: ended ? "failed" : "running", found: `${describeWait(first)}.`, requests };
  },
  offline: fromObservations(
    "each 429 met (with Retry-After): the next attempt of the same operation no sooner than its Retry-After, by " +
      "the recording's clock (the sandbox's, where the recording holds its clock answers), and an attempt after it; " +
      "a title look-up refused 403 BG40005 (no client certificate) fails; not exercised without a 429",
  ),
};
