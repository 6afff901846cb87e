/**
 * Settings: JSON values by key, the sandbox's global state (settings, clock, day list, scheduled faults) and the
 * counters that must hold across instances (rate-limit buckets, what a unit's checks took).
 */
export interface SettingStore {
  getSetting<T>(key: string): Promise<T | undefined>;
  putSetting(key: string, value: unknown): Promise<void>;
  /**
   * Reads, changes and writes one setting atomically, even against other instances on the same store (counters
   * such as rate-limit buckets and scheduled faults); answers what `change` answered. Announces nothing. A change
   * that keeps the value as it was writes nothing. `change` may be called more than once: it must only compute.
   */
  updateSetting<T, R>(key: string, change: (current: T | undefined) => { value: T; answer: R }): Promise<R>;
}
