import type { Clock } from "../clock.js";
import type { SandboxComponents as components } from "../operation-types.js";
import type { Storage } from "../storage/storage.js";
import { componentSchema, MAX_PENDING_SYSTEM_ERRORS, type SpecNode } from "@lrg/spec";
import { seededRandom } from "./seeded-random.js";

/** The sandbox settings of the control plane (`SandboxSettings` in spec/sandbox.yaml). */
export type SandboxSettings = components["schemas"]["SandboxSettings"];

const settingsSchema = componentSchema("SandboxSettings", "sandbox") as {
  required: string[];
  properties: Record<string, SpecNode>;
};

/**
 * Every setting's default, read from the spec's `default` of each member of SandboxSettings (so the contract and
 * the gateway cannot disagree). Delivery is at least once: by default some notifications arrive twice.
 */
export const DEFAULT_SETTINGS = Object.fromEntries(
  settingsSchema.required.map((name) => {
    const member = settingsSchema.properties[name];
    if (!member || !("default" in member)) throw new Error(`SandboxSettings.${name} has no default in the spec`);
    return [name, member["default"]];
  }),
) as SandboxSettings;

const KEYS = {
  settings: "sandbox.settings",
  clock: "sandbox.clock_offset_ms",
  dayList: "registry.day_list_open",
  systemErrors: "registry.system_errors",
} as const;

/** Scheduled system errors are kept by business unit id; this key holds those for any business unit. */
const ANY_UNIT = "*";

/**
 * The state the control plane drives: settings, the clock's offset, whether the day list is open and the
 * submissions due to end in SYSTEM_ERROR. Settings, clock and day list are held in memory for speed and written
 * through to the store, so a restart keeps them (the duplicate draws restart from their seed), and read again when
 * another instance changes them; the scheduled system errors are counted in the store alone.
 */
export class SandboxState {
  settings: SandboxSettings = { ...DEFAULT_SETTINGS };
  dayListOpen = true;
  readonly #storage: Storage;
  readonly #clock: Clock;
  #draw: () => number = Math.random;

  constructor(storage: Storage, clock: Clock) {
    this.#storage = storage;
    this.#clock = clock;
  }

  async load(): Promise<void> {
    this.settings = {
      ...DEFAULT_SETTINGS,
      ...((await this.#storage.getSetting<SandboxSettings>(KEYS.settings)) ?? {}),
    };
    this.dayListOpen = (await this.#storage.getSetting<boolean>(KEYS.dayList)) ?? true;
    this.#clock.restore((await this.#storage.getSetting<number>(KEYS.clock)) ?? 0);
    this.#reseed();
  }

  async updateSettings(changes: Partial<SandboxSettings>): Promise<SandboxSettings> {
    this.settings = { ...this.settings, ...changes };
    // Naming the seed, even unchanged, restarts its sequence: that is what makes a scenario repeatable.
    if (changes.duplicate_seed !== undefined) this.#reseed();
    await this.#storage.putSetting(KEYS.settings, this.settings);
    return this.settings;
  }

  async setDayList(open: boolean): Promise<void> {
    this.dayListOpen = open;
    await this.#storage.putSetting(KEYS.dayList, open);
  }

  async saveClock(): Promise<void> {
    await this.#storage.putSetting(KEYS.clock, this.#clock.offsetMs);
  }

  /** Back to defaults: real time, open day list, automatic processing, no faults, no scheduled system errors, the registry's service hours and mutual TLS. */
  async reset(): Promise<void> {
    this.settings = { ...DEFAULT_SETTINGS };
    this.dayListOpen = true;
    this.#clock.restore(0);
    this.#reseed();
  }

  /** A draw for at-least-once delivery: true when a notification should be delivered twice. */
  readonly duplicate = (): boolean => this.#draw() < this.settings.duplicate_rate;

  #reseed(): void {
    const seed = this.settings.duplicate_seed;
    this.#draw = seed === null || seed === undefined ? Math.random : seededRandom(seed);
  }

  /** Makes the next `count` submissions of a business unit (of any, when null) end in SYSTEM_ERROR; answers how many are due. */
  async scheduleSystemErrors(businessUnitId: string | null, count: number): Promise<number> {
    const key = businessUnitId ?? ANY_UNIT;
    return this.#storage.updateSetting<Record<string, number>, number>(KEYS.systemErrors, (stored = {}) => {
      const pending = Math.min((stored[key] ?? 0) + count, MAX_PENDING_SYSTEM_ERRORS);
      return { value: { ...stored, [key]: pending }, answer: pending };
    });
  }

  /** Uses up one scheduled system error for a new submission of this business unit; false when none is due. */
  async takeSystemError(businessUnitId: string): Promise<boolean> {
    // One atomic change in the store, so that two submissions arriving together, on any instance, never both use the last one.
    return this.#storage.updateSetting<Record<string, number>, boolean>(KEYS.systemErrors, (stored = {}) => {
      const key = [businessUnitId, ANY_UNIT].find((candidate) => (stored[candidate] ?? 0) > 0);
      if (key === undefined) return { value: stored, answer: false };
      const { [key]: pending = 0, ...others } = stored;
      return { value: pending > 1 ? { ...others, [key]: pending - 1 } : others, answer: true };
    });
  }
}
