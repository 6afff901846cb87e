// Readiness runs as one seam of the gateway: `installReadiness` makes the observer and the service, answers the
// control plane's handlers of runs, and fills the hook points (`hooks.ts`) the running runs' checks need, only while
// a run of some unit needs them: with no run anywhere, every point is empty and a request pays one branch for each.
import type { Clock } from "../clock.js";
import type { Hooks, RegistryHooks } from "../hooks.js";
import type { SandboxState } from "../registry/sandbox-state.js";
import { businessUnitOf, type SandboxHandlers } from "../routing.js";
import type { BlobStore } from "../storage/blobs/blob-store.js";
import type { BusinessUnitStore } from "../storage/ports/business-units.js";
import type { DocumentStore } from "../storage/ports/documents.js";
import type { StoreLifecycle } from "../storage/ports/lifecycle.js";
import type { NotificationStore } from "../storage/ports/notifications.js";
import type { SettingStore } from "../storage/ports/settings.js";
import type { CheckName, CheckSteps, RunningRun, StepScope } from "./check.js";
import { CHECK_NAMES, CHECKS } from "./checks.js";
import { ReadinessObserver } from "./observer.js";
import { readinessReportHandlers, type ReadinessReportOperation } from "./report-routes.js";
import { readinessHandlers, type ReadinessOperation } from "./routes.js";
import { RUN_SETTINGS_PREFIX } from "./run-settings.js";
import { ReadinessService } from "./service.js";
import { isCheckName } from "./shapes.js";
import type { ReadinessStore } from "./store/port.js";

// What the composition root opens its store with: the runs' part (their tables, migrations and port on either store).
export { readinessStorePart } from "./store/part.js";
export type { ReadinessStore } from "./store/port.js";

/** What readiness is installed with. */
export interface ReadinessDeps {
  /**
   * The runs' own port; the settings, documents and notifications the checks gather from; the business units whose
   * runs are read; the store's kind and its state changes (a run started on another instance).
   */
  storage: ReadinessStore & SettingStore & DocumentStore & NotificationStore & BusinessUnitStore & StoreLifecycle;
  clock: Clock;
  blobs: BlobStore;
  state: SandboxState;
  hooks: Hooks;
  log: (error: unknown, message: string) => void;
  /** Gives priority to a unit's applications awaiting it, if its day list is open (after a run's hold ends). */
  admitWaiting: (businessUnitId: string) => Promise<number>;
}

/** The handlers of the control plane's operations of readiness runs, their reports and evidence. */
type ReadinessHandlers = SandboxHandlers<ReadinessOperation | ReadinessReportOperation>;

/**
 * Installs readiness runs: the running runs are read from the store (and again when another instance on it started or
 * ended one), the sandbox's clock changes end the runs that are due, its reset forgets them, a unit's reset clears
 * what its runs kept, and the gateway's close waits for the observations not written yet. Answers the handlers of the
 * control plane's readiness operations, for the sandbox's handler map.
 */
export async function installReadiness(deps: ReadinessDeps): Promise<ReadinessHandlers> {
  const { storage, clock, blobs, state, hooks, log, admitWaiting } = deps;
  // On SQLite this instance alone answers the units' software, and judges their runs.
  const observer = new ReadinessObserver(
    storage,
    clock,
    (error) => log(error, "recording a readiness observation failed"),
    { deferred: storage.describe().database === "sqlite" },
  );
  const service = new ReadinessService(
    storage,
    clock,
    observer,
    blobs,
    (businessUnitId) => state.settingsOf(businessUnitId),
    {
      hold: (businessUnitId) => state.hold(businessUnitId),
      // Applications that waited for priority under a day list held closed get it if the registry's is open.
      release: async (businessUnitId) => {
        await state.release(businessUnitId);
        await admitWaiting(businessUnitId);
      },
    },
  );
  const steps = stepsOfChecks(storage);
  observer.onChange(() => fillHooks(hooks.registry, observer, clock, steps));
  await observer.reload();
  storage.onStateChanged(() =>
    observer.reload().catch((error: unknown) => log(error, "reloading the readiness runs failed")),
  );
  state.keepsUnitSettings(RUN_SETTINGS_PREFIX);
  hooks.afterClockChange.push(() => service.endDue());
  // The runs went with the store; a unit's reset ends its run through afterClockChange (its run is gone: endDue).
  hooks.afterReset.push(() => observer.forget(null));
  hooks.beforeClose.push(() => observer.settled());
  return { ...readinessHandlers(service, storage), ...readinessReportHandlers(service) };
}

/** Each check's steps (those of the checks acting on a submission, one set for them all), made once. */
function stepsOfChecks(storage: SettingStore): ReadonlyMap<CheckName, CheckSteps> {
  const made = new Map<object, CheckSteps>();
  const scope: StepScope = {
    storage,
    shared: (key, make) => {
      const steps = made.get(key) ?? make();
      made.set(key, steps);
      return steps;
    },
  };
  return new Map(CHECK_NAMES.map((name) => [name, CHECKS[name].steps?.(scope) ?? {}]));
}

/**
 * Fills each hook point that a check of a running run (of any unit) has a step at, and empties the others: the
 * registry interface's answers are observed while any run runs. Called whenever the running runs change.
 */
function fillHooks(
  registry: RegistryHooks,
  observer: ReadinessObserver,
  clock: Clock,
  steps: ReadonlyMap<CheckName, CheckSteps>,
): void {
  /** The distinct steps at `point` of a run's checks. */
  const stepsOf = <P extends keyof CheckSteps>(run: RunningRun | undefined, point: P): NonNullable<CheckSteps[P]>[] => {
    const found = new Set<NonNullable<CheckSteps[P]>>();
    for (const name of run?.checks.filter(isCheckName) ?? []) {
      const step = steps.get(name)?.[point];
      if (step) found.add(step);
    }
    return [...found];
  };
  const runs = [...observer.running().values()];
  const needed = (point: keyof CheckSteps) => runs.some((run) => stepsOf(run, point).length > 0);
  /** The unit's running run whose deadline its clock has not reached. */
  const runOf = (businessUnitId: string, nowMs = clock.nowMs(businessUnitId)) => observer.runOf(businessUnitId, nowMs);

  registry.answerSent =
    runs.length === 0
      ? undefined
      : (operation, request, reply, payload) =>
          observer.observe(operation, businessUnitOf(request), request, reply, payload);
  registry.submissionTaken = needed("submissionTaken")
    ? {
        holds: (businessUnitId, nowMs) => stepsOf(runOf(businessUnitId, nowMs), "submissionTaken").length > 0,
        fateOf: async (submission, nowMs) => {
          const run = runOf(submission.businessUnitId, nowMs);
          if (!run) return undefined;
          for (const step of stepsOf(run, "submissionTaken")) {
            const fate = await step(run, submission, nowMs);
            if (fate) return fate;
          }
          return undefined;
        },
      }
    : undefined;
  registry.uploadAddressIssued = needed("uploadAddressIssued")
    ? async (businessUnitId, document, nowMs) => {
        const run = runOf(businessUnitId, nowMs);
        if (!run) return false;
        for (const step of stepsOf(run, "uploadAddressIssued"))
          if (await step(run, businessUnitId, document, nowMs)) return true;
        return false;
      }
    : undefined;
  registry.titleLookUp = needed("titleLookUp")
    ? async (businessUnitId, nowMs) => {
        const run = runOf(businessUnitId, nowMs);
        if (!run) return null;
        for (const step of stepsOf(run, "titleLookUp")) {
          const retryAfter = await step(run, businessUnitId, nowMs);
          if (retryAfter !== null) return retryAfter;
        }
        return null;
      }
    : undefined;
  registry.officialSearch = needed("officialSearch")
    ? async (businessUnitId, search, nowMs) => {
        const run = runOf(businessUnitId, nowMs);
        if (!run) return false;
        for (const step of stepsOf(run, "officialSearch"))
          if (await step(run, businessUnitId, search, nowMs)) return true;
        return false;
      }
    : undefined;
  registry.beforeList = needed("beforeList")
    ? async (businessUnitId) => {
        const run = runOf(businessUnitId);
        if (!run) return;
        for (const step of stepsOf(run, "beforeList")) await step(run, businessUnitId);
      }
    : undefined;
}
