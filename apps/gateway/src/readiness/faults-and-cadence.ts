import { setTimeout as sleep } from "node:timers/promises";
import { isoMillis } from "../clock.js";
import { Problem } from "../problems.js";
import type { ReadinessObservationRow } from "./store/port.js";
import type { SettingStore } from "../storage/ports/settings.js";
import { firstHundred, fromObservations, isListing, type ReadinessCheck } from "./check.js";
import type { RunningRun } from "./check.js";
import { describeWait, seconds, waitEvidence, waitsAfter } from "./waits.js";
import { RunSetting } from "./run-settings.js";
import { isNumber, isString, objectOf } from "./shapes.js";

/**
 * The faults a run answers the unit's first notification list requests with, in order: a 503 after `latencyMs`, with
 * a `Retry-After` that grows, as a service under strain answers (design).
 */
export const LIST_FAULTS: readonly { retryAfterSeconds: number; latencyMs: number }[] = [
  { retryAfterSeconds: 1, latencyMs: 500 },
  { retryAfterSeconds: 2, latencyMs: 500 },
];

/**
 * The most list requests the software may make in any window of the unit's clock: a sustained one every two seconds,
 * with room to page through 3,000 notifications at once. The registry publishes no polling frequency (its
 * notifications are pull only); this is our design.
 */
export const POLLING_LIMIT = { requests: 30, windowSeconds: 60 } as const;

/** What a unit's setting keeps: how many of its run's faults were answered. */
interface Answered {
  runId: string;
  answered: number;
}

const faultsSetting = new RunSetting<Answered>(
  "faults-and-cadence",
  objectOf<Answered>({ runId: isString, answered: isNumber }),
);

/**
 * The faults of the notification list under readiness runs. Which fault a list request meets is taken atomically in
 * the store (two instances answer each fault once); a run whose faults were all answered is remembered here, so that
 * its later list requests cost no write.
 */
export class ListFaults {
  readonly #storage: SettingStore;
  /** Runs whose faults were all answered (a run id is never reused; a few bytes a run, forgotten now and then). */
  readonly #spent = new Set<string>();

  constructor(storage: SettingStore) {
    this.#storage = storage;
  }

  /** Answers a list request of the unit under `run` with the run's next fault (waits, then throws a 503), if any is left. */
  async meet(run: Pick<RunningRun, "id">, businessUnitId: string): Promise<void> {
    if (this.#spent.has(run.id)) return;
    const index = await faultsSetting.update<number | null>(this.#storage, businessUnitId, (stored) => {
      const answered = stored?.runId === run.id ? stored.answered : 0;
      if (answered >= LIST_FAULTS.length) return { value: { runId: run.id, answered }, answer: null };
      return { value: { runId: run.id, answered: answered + 1 }, answer: answered };
    });
    const fault = index === null ? undefined : LIST_FAULTS[index];
    if (!fault) {
      if (this.#spent.size >= 10_000) this.#spent.clear();
      this.#spent.add(run.id);
      return;
    }
    await sleep(fault.latencyMs);
    throw new Problem("503-01", "the service is unavailable (the sandbox's readiness run); retry later", {
      headers: { "retry-after": String(fault.retryAfterSeconds) },
    });
  }
}

/** The first window of the unit's clock in which the software listed more often than POLLING_LIMIT allows. */
function tooFrequent(listings: readonly ReadinessObservationRow[]): ReadinessObservationRow[] | undefined {
  const windowMs = POLLING_LIMIT.windowSeconds * 1000;
  let from = 0;
  for (let to = 0; to < listings.length; to += 1) {
    while (listings[to]!.clockMs - listings[from]!.clockMs >= windowMs) from += 1;
    if (to - from + 1 > POLLING_LIMIT.requests) return listings.slice(from, to + 1);
  }
  return undefined;
}

const LIMIT_IN_WORDS = `at most ${POLLING_LIMIT.requests} in any ${POLLING_LIMIT.windowSeconds} seconds`;

/**
 * Faults and cadence: the software polls the notification list (pull only), and a service may answer 503 with
 * `Retry-After`, slowly; the registry's guide says to wait and retry. The run answers the unit's first list requests
 * 503 after a delay: the software must retry no sooner than each `Retry-After` and get through, and never list more
 * often than POLLING_LIMIT.
 */
export const faultsAndCadence: ReadinessCheck = {
  howToPass:
    "On a 503 (or 429), wait the seconds of its Retry-After, counted from when the answer arrived (a slow answer " +
    "counts from its end), then retry; without Retry-After, back off exponentially. Poll the notification list on a " +
    `schedule: ${LIMIT_IN_WORDS} (page at once while pages come back full, then wait before the next poll), never in ` +
    "a loop without a pause. @lrg/client retries a list request so by itself; schedule your calls of " +
    "notifications.consume yourself.",
  expected:
    `After each 503 of the notification list, the next list request no sooner than its Retry-After, and one answered ` +
    `200 after them; list requests ${LIMIT_IN_WORDS}, by the unit's clock.`,
  instructions: ({ deadline }) =>
    `List your business unit's notifications from your software as it does in production, before ${deadline} (the ` +
    `run's deadline, on the unit's sandbox clock). The run answers its first ${LIST_FAULTS.length} list requests 503 ` +
    `after ${LIST_FAULTS[0]!.latencyMs} ms, with Retry-After: ${LIST_FAULTS.map((fault) => fault.retryAfterSeconds).join(", then ")} ` +
    `seconds: wait that long before each retry, and never list more than ${POLLING_LIMIT.requests} times in ` +
    `${POLLING_LIMIT.windowSeconds} seconds.`,
  steps: ({ storage }) => {
    const faults = new ListFaults(storage);
    return { beforeList: (run, businessUnitId) => faults.meet(run, businessUnitId) };
  },
  judge: ({ observations, ended }) => {
    const listings = observations.filter(isListing);
    const burst = tooFrequent(listings);
    if (burst) {
      const [first, last] = [burst[0]!, burst.at(-1)!];
      return {
        verdict: "failed",
        found:
          `${burst.length} list requests within ${seconds(last.clockMs - first.clockMs)}, from ${isoMillis(first.clockMs)} ` +
          `(observations ${first.sequence} to ${last.sequence}): ${LIMIT_IN_WORDS} are allowed.`,
        requests: firstHundred(burst),
      };
    }
    const waits = waitsAfter(listings, 503);
    const early = waits.find((wait) => wait.early);
    const requests = firstHundred(waitEvidence(waits));
    if (early) return { verdict: "failed", found: `Retried too soon: ${describeWait(early)}.`, requests };
    const met = `${waits.length} 503${waits.length === 1 ? "" : "s"} of the notification list met, each waited for`;
    const firstFault = waits[0];
    const through = firstFault && listings.find((l) => l.sequence > firstFault.answer.sequence && l.status === 200);
    if (!ended) {
      const found = firstFault ? `${met} so far.` : "The software met no 503 of the notification list so far.";
      return { verdict: "running", found: `${found} Decided when the run ends.`, requests };
    }
    if (listings.length === 0)
      return { verdict: "not_exercised", found: "The software listed no notifications during the run.", requests };
    if (!firstFault)
      return {
        verdict: "not_exercised",
        found: "The software met no 503 of the notification list during the run.",
        requests: firstHundred(listings),
      };
    if (!through)
      return {
        verdict: "failed",
        found: `${met}, but no list request was answered 200 after them: the software gave up.`,
        requests,
      };
    const shown = requests.some((row) => row.sequence === through.sequence) ? requests : [...requests, through];
    return {
      verdict: "passed",
      found: `${met}; answered 200 again at observation ${through.sequence}; list requests ${LIMIT_IN_WORDS}.`,
      requests: firstHundred(shown.sort((a, b) => a.sequence - b.sequence)),
    };
  },
  offline: fromObservations(
    "each 503 of the notification list: the next list request no sooner than its Retry-After and one answered 200 " +
      `after them; list requests ${LIMIT_IN_WORDS}, by the recording's clock; not exercised without a 503 of the list`,
  ),
};
