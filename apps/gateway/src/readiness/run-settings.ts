import type { SettingStore } from "../storage/ports/settings.js";
import { isRecord, isString, type Guard } from "./shapes.js";

/** What a readiness run keeps in a unit's setting: named by the run, so that a later run's replaces it. */
export interface KeptByRun {
  runId: string;
}

/** Only the run that took it (a hold with nothing more to keep). */
export const isKeptByRun: Guard<KeptByRun> = (value): value is KeptByRun => isRecord(value) && isString(value["runId"]);

/** The first part of every key of the settings runs keep for their units (`readiness.<name>.<unit>`). */
export const RUN_SETTINGS_PREFIX = "readiness";

/**
 * One setting a run keeps for its unit, `readiness.<name>.<unit>` (one a unit; a later run's replaces it; a unit's
 * reset clears it), read back through a check of its shape: a value of another shape is as none.
 */
export class RunSetting<T extends KeptByRun> {
  readonly #name: string;
  readonly #is: Guard<T>;

  constructor(name: string, is: Guard<T>) {
    this.#name = name;
    this.#is = is;
  }

  /** The setting's key for a unit. */
  key(businessUnitId: string): string {
    return `${RUN_SETTINGS_PREFIX}.${this.#name}.${businessUnitId}`;
  }

  /** What the run kept for the unit, if it is this run's. */
  async keptBy(storage: SettingStore, businessUnitId: string, runId: string): Promise<T | undefined> {
    const stored = await storage.getSetting<unknown>(this.key(businessUnitId));
    return this.#is(stored) && stored.runId === runId ? stored : undefined;
  }

  /** Changes the unit's setting atomically in the store (see `SettingStore.updateSetting`); answers what `change` answers. */
  update<R>(
    storage: SettingStore,
    businessUnitId: string,
    change: (current: T | undefined) => { value: T; answer: R },
  ) {
    return storage.updateSetting<unknown, R>(this.key(businessUnitId), (current) =>
      change(this.#is(current) ? current : undefined),
    );
  }

  /**
   * Writes `value` unless the same run wrote it already, atomically in the store (two requests on two instances never
   * both take it). Answers whether this call took it: the first of the run.
   */
  takeOnce(storage: SettingStore, businessUnitId: string, value: T): Promise<boolean> {
    return this.update(storage, businessUnitId, (current) =>
      current?.runId === value.runId ? { value: current, answer: false } : { value, answer: true },
    );
  }
}
