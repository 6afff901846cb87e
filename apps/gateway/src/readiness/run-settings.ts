import type { Storage } from "../storage/storage.js";

/** What a readiness run keeps in a unit's setting: named by the run, so that a later run's replaces it. */
export interface KeptByRun {
  runId: string;
}

/**
 * Writes `value` into a unit's setting unless the same run wrote it already, atomically in the store (two requests on
 * two instances never both take it). Answers whether this call took it: the first of the run.
 */
export function takeOncePerRun<T extends KeptByRun>(storage: Storage, key: string, value: T): Promise<boolean> {
  return storage.updateSetting<T, boolean>(key, (current) =>
    current?.runId === value.runId ? { value: current, answer: false } : { value, answer: true },
  );
}

/** What the run kept in a unit's setting, if it is this run's. */
export async function keptByRun<T extends KeptByRun>(
  storage: Storage,
  key: string,
  runId: string,
): Promise<T | undefined> {
  const stored = await storage.getSetting<T>(key);
  return stored?.runId === runId ? stored : undefined;
}
