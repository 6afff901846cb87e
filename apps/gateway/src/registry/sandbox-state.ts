import type { Clock } from "../clock.js";
import type { SandboxComponents as components } from "../operation-types.js";
import type { Storage } from "../storage/storage.js";
import { componentSchema, MAX_PENDING_SYSTEM_ERRORS, type SpecNode } from "@lrg/spec";
import { seededRandom } from "./seeded-random.js";

/** The sandbox settings of the control plane (`SandboxSettings` in spec/sandbox.yaml). */
export type SandboxSettings = components["schemas"]["SandboxSettings"];

const settingsSchema = componentSchema("SandboxSettings", "sandbox") as { required: string[]; properties: Record<string, SpecNode> };

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

const KEYS = { settings: "sandbox.settings", clock: "sandbox.clock_offset_ms", dayList: "registry.day_list_open", systemErrors: "registry.system_errors" } as const;

/** Scheduled system errors are kept by business unit id; this key holds those for any business unit. */
const ANY_UNIT = "*";

/**
 * The state the control plane drives: settings, the clock's offset, whether the day list is open and the
 * submissions due to end in SYSTEM_ERROR. Held in memory for speed and written through to the store, so a
 * restart keeps it (the duplicate draws restart from their seed).
 */
export class SandboxState {
  settings: SandboxSettings = { ...DEFAULT_SETTINGS };
  dayListOpen = true;
  readonly #storage: Storage;
  readonly #clock: Clock;
  #draw: () => number = Math.random;
  #systemErrors = new Map<string, number>();

  constructor(storage: Storage, clock: Clock) {
    this.#storage = storage;
    this.#clock = clock;
  }

  async load(): Promise<void> {
    this.settings = { ...DEFAULT_SETTINGS, ...((await this.#storage.getSetting<SandboxSettings>(KEYS.settings)) ?? {}) };
    this.dayListOpen = (await this.#storage.getSetting<boolean>(KEYS.dayList)) ?? true;
    this.#systemErrors = new Map(Object.entries((await this.#storage.getSetting<Record<string, number>>(KEYS.systemErrors)) ?? {}));
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
    this.#systemErrors.clear();
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
    const pending = Math.min((this.#systemErrors.get(key) ?? 0) + count, MAX_PENDING_SYSTEM_ERRORS);
    this.#systemErrors.set(key, pending);
    await this.#saveSystemErrors();
    return pending;
  }

  /** Uses up one scheduled system error for a new submission of this business unit; false when none is due. */
  async takeSystemError(businessUnitId: string): Promise<boolean> {
    // Decided synchronously, so that two submissions arriving together never both use the last one.
    const key = [businessUnitId, ANY_UNIT].find((candidate) => (this.#systemErrors.get(candidate) ?? 0) > 0);
    if (key === undefined) return false;
    const left = (this.#systemErrors.get(key) ?? 0) - 1;
    if (left > 0) this.#systemErrors.set(key, left);
    else this.#systemErrors.delete(key);
    await this.#saveSystemErrors();
    return true;
  }

  async #saveSystemErrors(): Promise<void> {
    await this.#storage.putSetting(KEYS.systemErrors, Object.fromEntries(this.#systemErrors));
  }
}
