import type { Clock } from "../clock.js";
import type { components } from "../generated/sandbox.js";
import type { Storage } from "../storage/storage.js";

/** The sandbox settings of the control plane (`SandboxSettings` in spec/sandbox.yaml). */
export type SandboxSettings = components["schemas"]["SandboxSettings"];

export const DEFAULT_SETTINGS: SandboxSettings = {
  processing: "automatic",
  duplicate_rate: 0,
  latency_ms: 0,
  error_rate: 0,
  service_hours: "enforced",
  require_client_certificate: true,
};

const KEYS = { settings: "sandbox.settings", clock: "sandbox.clock_offset_ms", dayList: "registry.day_list_open" } as const;

/**
 * The state the control plane drives: settings, the clock's offset and whether the day list is open. Held in
 * memory for speed and written through to the store, so a restart keeps it.
 */
export class SandboxState {
  settings: SandboxSettings = { ...DEFAULT_SETTINGS };
  dayListOpen = true;
  readonly #storage: Storage;
  readonly #clock: Clock;

  constructor(storage: Storage, clock: Clock) {
    this.#storage = storage;
    this.#clock = clock;
  }

  async load(): Promise<void> {
    this.settings = { ...DEFAULT_SETTINGS, ...((await this.#storage.getSetting<SandboxSettings>(KEYS.settings)) ?? {}) };
    this.dayListOpen = (await this.#storage.getSetting<boolean>(KEYS.dayList)) ?? true;
    this.#clock.restore((await this.#storage.getSetting<number>(KEYS.clock)) ?? 0);
  }

  async updateSettings(changes: Partial<SandboxSettings>): Promise<SandboxSettings> {
    this.settings = { ...this.settings, ...changes };
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

  /** Back to defaults: real time, open day list, automatic processing, no faults, the registry's service hours and mutual TLS. */
  async reset(): Promise<void> {
    this.settings = { ...DEFAULT_SETTINGS };
    this.dayListOpen = true;
    this.#clock.restore(0);
  }

  /** A draw for at-least-once delivery: true when a notification should be delivered twice. */
  readonly duplicate = (): boolean => Math.random() < this.settings.duplicate_rate;
}
