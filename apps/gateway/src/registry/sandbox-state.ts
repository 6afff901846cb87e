import type { Clock } from "../clock.js";
import type { SandboxComponents as components } from "../operation-types.js";
import type { BusinessUnitStore } from "../storage/ports/business-units.js";
import type { SettingStore } from "../storage/ports/settings.js";
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

/** A seeded draw when the settings name a seed; undefined for a random one. */
function drawOf(settings: Partial<SandboxSettings>): (() => number) | undefined {
  const seed = settings.duplicate_seed;
  return seed === null || seed === undefined ? undefined : seededRandom(seed);
}

/** A unit's own draw when it named its own seed (null included: its own random draw); else it shares the global one. */
function unitDraw(overrides: Partial<SandboxSettings>): (() => number) | undefined {
  return "duplicate_seed" in overrides ? (drawOf(overrides) ?? Math.random) : undefined;
}

const KEYS = {
  settings: "sandbox.settings",
  clock: "sandbox.clock_offset_ms",
  dayList: "registry.day_list_open",
  systemErrors: "registry.system_errors",
} as const;

/** Scheduled system errors are kept by business unit id; this key holds those for any business unit. */
const ANY_UNIT = "*";

/** Where a setting or the clock is changed: the global state (null) or one business unit's own. */
export type Scope = string | null;

/**
 * The registry-wide state held for one unit (while the sandbox examines its software): from the moment the hold began, the
 * admin token's changes to the global settings, clock, day list and system errors for any unit no longer reach it.
 */
interface Hold {
  /** The settings the unit set itself, before or during the hold; the others were copied from the global ones. */
  own: string[];
  /** The day list as it was when the hold began. */
  dayListOpen: boolean;
  /** Whether the unit kept its own clock before the hold began, or set it during the hold. */
  ownClock: boolean;
}

/** Where a unit's hold is kept, beside its settings in the store (no setting of the spec has this name). */
const HOLD_MEMBER = "$hold";

/** A unit's own part of the sandbox state, and the draw of its duplicates when it set its own seed. */
interface UnitState {
  /** The settings in force for the unit that are its own: those it set (and, while held, the global ones copied). */
  overrides: Partial<SandboxSettings>;
  draw: (() => number) | undefined;
  hold?: Hold | undefined;
}

/**
 * The state the control plane drives: settings, the clock's offset, whether the day list is open and the
 * submissions due to end in SYSTEM_ERROR. Settings and the clock are global (the admin token's) and, for a business
 * unit that set its own with its unit token, that unit's own, layered over the global ones setting by setting.
 * Settings, clocks and day list are held in memory for speed and written through to the store, so a restart keeps
 * them (the duplicate draws restart from their seed), and read again when another instance changes them; the
 * scheduled system errors are counted in the store alone.
 */
export class SandboxState {
  settings: SandboxSettings = { ...DEFAULT_SETTINGS };
  dayListOpen = true;
  readonly #storage: SettingStore & BusinessUnitStore;
  readonly #clock: Clock;
  #draw: () => number = Math.random;
  /** The units that set their own clock or settings (their clock offsets are in the Clock). */
  #units = new Map<string, UnitState>();
  /** The first parts of the keys of the settings features keep per unit (see keepsUnitSettings). */
  readonly #unitSettingPrefixes = new Set<string>();
  /** Each such unit's settings in force, merged once per change rather than once per request. */
  #effective = new Map<string, SandboxSettings>();

  constructor(storage: SettingStore & BusinessUnitStore, clock: Clock) {
    this.#storage = storage;
    this.#clock = clock;
  }

  async load(): Promise<void> {
    this.settings = {
      ...DEFAULT_SETTINGS,
      ...((await this.#storage.getSetting<SandboxSettings>(KEYS.settings)) ?? {}),
    };
    this.dayListOpen = (await this.#storage.getSetting<boolean>(KEYS.dayList)) ?? true;
    const unitStates = await this.#storage.unitSandboxStates();
    const offsets = new Map<string, number>();
    const units = new Map<string, UnitState>();
    for (const { businessUnitId, clockOffsetMs, settings } of unitStates) {
      if (clockOffsetMs !== null) offsets.set(businessUnitId, clockOffsetMs);
      const { [HOLD_MEMBER]: hold, ...overrides } = (settings ?? {}) as Partial<SandboxSettings> & {
        [HOLD_MEMBER]?: Hold;
      };
      const known = this.#units.get(businessUnitId);
      // Another unit's change reloads every unit: a unit whose seed did not change keeps its sequence where it is.
      const draw =
        known && known.overrides.duplicate_seed === overrides.duplicate_seed ? known.draw : unitDraw(overrides);
      units.set(businessUnitId, { overrides, draw, hold });
    }
    this.#units = units;
    this.#clock.restore((await this.#storage.getSetting<number>(KEYS.clock)) ?? 0, offsets);
    this.#reseed();
    this.#merge();
  }

  /** The settings in force for a business unit (its own where it set them, else the global ones); global for null. */
  settingsOf(businessUnitId: Scope): SandboxSettings {
    return (businessUnitId === null ? undefined : this.#effective.get(businessUnitId)) ?? this.settings;
  }

  /** Changes the global settings (null) or those of one business unit; answers the settings now in force there. */
  async updateSettings(changes: Partial<SandboxSettings>, scope: Scope = null): Promise<SandboxSettings> {
    if (scope !== null) {
      const unit = this.#units.get(scope) ?? { overrides: {}, draw: undefined };
      const overrides = { ...unit.overrides, ...changes };
      // Naming the seed, even unchanged, restarts its sequence: that is what makes a scenario repeatable.
      const draw = "duplicate_seed" in changes ? unitDraw(overrides) : unit.draw;
      const hold = unit.hold && { ...unit.hold, own: [...new Set([...unit.hold.own, ...Object.keys(changes)])] };
      this.#units.set(scope, { overrides, draw, hold });
      this.#merge();
      await this.#saveUnit(scope);
      return this.settingsOf(scope);
    }
    this.settings = { ...this.settings, ...changes };
    if (changes.duplicate_seed !== undefined) this.#reseed();
    this.#merge();
    await this.#storage.putSetting(KEYS.settings, this.settings);
    return this.settings;
  }

  async setDayList(open: boolean): Promise<void> {
    this.dayListOpen = open;
    await this.#storage.putSetting(KEYS.dayList, open);
  }

  /** Whether the day list is open for a business unit: the registry's, or as it was when the unit's hold began. */
  dayListOpenFor(businessUnitId: string): boolean {
    return this.#units.get(businessUnitId)?.hold?.dayListOpen ?? this.dayListOpen;
  }

  /** Writes the clock of this scope (global, or the unit's own) through to the store after the Clock was moved. */
  async saveClock(scope: Scope = null): Promise<void> {
    if (scope === null) {
      await this.#storage.putSetting(KEYS.clock, this.#clock.offsetMs);
      return;
    }
    const unit = this.#units.get(scope);
    // The unit set its clock itself: it keeps it when its hold ends.
    if (unit?.hold) unit.hold = { ...unit.hold, ownClock: true };
    await this.#saveUnit(scope);
  }

  /**
   * Holds the registry-wide state for a business unit as it is now (an examination of its software begins): the global settings in
   * force become its own, it keeps its own clock from the global clock's time, and the day list and the system errors
   * scheduled for any unit are those of the moment. Changes the unit makes itself still apply. Nothing when held.
   */
  async hold(businessUnitId: string): Promise<void> {
    const unit = this.#units.get(businessUnitId) ?? { overrides: {}, draw: undefined };
    if (unit.hold) return;
    const ownClock = this.#clock.ownOffsetOf(businessUnitId) !== undefined;
    if (!ownClock) this.#clock.keepOwn(businessUnitId);
    this.#units.set(businessUnitId, {
      overrides: { ...this.settings, ...unit.overrides },
      // Its duplicates keep following the draw they followed (the global seed's, unless it named its own).
      draw: unit.draw ?? this.#draw,
      hold: { own: Object.keys(unit.overrides), dayListOpen: this.dayListOpen, ownClock },
    });
    this.#merge();
    await this.#saveUnit(businessUnitId);
  }

  /** Ends a unit's hold: the settings and the clock it did not set itself follow the global ones again. */
  async release(businessUnitId: string): Promise<void> {
    const unit = this.#units.get(businessUnitId);
    if (!unit?.hold) return;
    const { own, ownClock } = unit.hold;
    const overrides = Object.fromEntries(
      Object.entries(unit.overrides).filter(([name]) => own.includes(name)),
    ) as Partial<SandboxSettings>;
    if (!ownClock) this.#clock.follow(businessUnitId);
    this.#units.set(businessUnitId, { overrides, draw: "duplicate_seed" in overrides ? unit.draw : undefined });
    this.#merge();
    await this.#saveUnit(businessUnitId);
  }

  /** Back to defaults: real time, open day list, automatic processing, no faults, no scheduled system errors, the registry's service hours and mutual TLS. */
  async reset(): Promise<void> {
    this.settings = { ...DEFAULT_SETTINGS };
    this.dayListOpen = true;
    this.#clock.restore(0);
    this.#units.clear();
    this.#reseed();
    this.#merge();
  }

  /**
   * Resets one business unit: its records go (see `BusinessUnitStore.resetBusinessUnit`), with its rate-limit buckets,
   * scheduled system errors and the settings features keep for it (`keepsUnitSettings`); its clock and settings follow
   * the global ones again. The unit and its credentials stay.
   */
  async resetUnit(businessUnitId: string): Promise<void> {
    // The title look-ups' buckets are keyed `rate_limit.<limit>.<unit>` or `rate_limit.<limit>.<unit>\n<user>`.
    await this.#storage.resetBusinessUnit(businessUnitId, [
      `rate_limit.%.${businessUnitId}`,
      `rate_limit.%.${businessUnitId}\n%`,
      ...[...this.#unitSettingPrefixes].map((prefix) => `${prefix}.%.${businessUnitId}`),
    ]);
    await this.#storage.updateSetting<Record<string, number>, void>(KEYS.systemErrors, (stored = {}) => {
      const { [businessUnitId]: _cleared, ...others } = stored;
      return { value: others, answer: undefined };
    });
    this.#units.delete(businessUnitId);
    this.#clock.follow(businessUnitId);
    this.#merge();
  }

  /** Settings a feature keeps per unit, keyed `<prefix>.<name>.<unit>`: a unit's reset clears them. */
  keepsUnitSettings(prefix: string): void {
    this.#unitSettingPrefixes.add(prefix);
  }

  /** A draw for at-least-once delivery: true when a notification should be delivered twice (global settings). */
  readonly duplicate = (): boolean => this.#draw() < this.settings.duplicate_rate;

  /** The draw for at-least-once delivery of one business unit's notifications, by its settings and its seed. */
  duplicateFor(businessUnitId: string): () => boolean {
    const draw = this.#units.get(businessUnitId)?.draw ?? this.#draw;
    const rate = this.settingsOf(businessUnitId).duplicate_rate;
    return () => draw() < rate;
  }

  #held(businessUnitId: string): boolean {
    return this.#units.get(businessUnitId)?.hold !== undefined;
  }

  #reseed(): void {
    this.#draw = drawOf(this.settings) ?? Math.random;
  }

  #merge(): void {
    this.#effective = new Map([...this.#units].map(([id, unit]) => [id, { ...this.settings, ...unit.overrides }]));
  }

  async #saveUnit(businessUnitId: string): Promise<void> {
    const { overrides = {}, hold } = this.#units.get(businessUnitId) ?? {};
    const settings = hold ? { ...overrides, [HOLD_MEMBER]: hold } : overrides;
    await this.#storage.putUnitSandboxState({
      businessUnitId,
      clockOffsetMs: this.#clock.ownOffsetOf(businessUnitId) ?? null,
      settings: Object.keys(settings).length > 0 ? settings : null,
    });
  }

  /** Makes the next `count` submissions of a business unit (of any, when null) end in SYSTEM_ERROR; answers how many are due. */
  async scheduleSystemErrors(businessUnitId: string | null, count: number): Promise<number> {
    const key = businessUnitId ?? ANY_UNIT;
    return this.#storage.updateSetting<Record<string, number>, number>(KEYS.systemErrors, (stored = {}) => {
      const pending = Math.min((stored[key] ?? 0) + count, MAX_PENDING_SYSTEM_ERRORS);
      return { value: { ...stored, [key]: pending }, answer: pending };
    });
  }

  /** Whether a system error is scheduled for this business unit's next submission (read only; see takeSystemError). */
  async systemErrorPending(businessUnitId: string): Promise<boolean> {
    const stored = (await this.#storage.getSetting<Record<string, number>>(KEYS.systemErrors)) ?? {};
    return pendingSystemErrorKey(stored, businessUnitId, this.#held(businessUnitId)) !== undefined;
  }

  /** Uses up one scheduled system error for a new submission of this business unit; false when none is due. */
  async takeSystemError(businessUnitId: string): Promise<boolean> {
    // One atomic change in the store, so that two submissions arriving together, on any instance, never both use the last one.
    const held = this.#held(businessUnitId);
    return this.#storage.updateSetting<Record<string, number>, boolean>(KEYS.systemErrors, (stored = {}) => {
      const key = pendingSystemErrorKey(stored, businessUnitId, held);
      if (key === undefined) return { value: stored, answer: false };
      const { [key]: pending = 0, ...others } = stored;
      return { value: pending > 1 ? { ...others, [key]: pending - 1 } : others, answer: true };
    });
  }
}

/**
 * Which scheduled system errors a unit's next submission meets: its own first, then those of any unit (not while its
 * registry-wide state is held); none: undefined.
 */
function pendingSystemErrorKey(
  stored: Record<string, number>,
  businessUnitId: string,
  held: boolean,
): string | undefined {
  return (held ? [businessUnitId] : [businessUnitId, ANY_UNIT]).find((key) => (stored[key] ?? 0) > 0);
}
