export const DEFAULT_SETTINGS = { processing: "automatic", duplicate_rate: 0, latency_ms: 0, error_rate: 0 };
const KEYS = { settings: "sandbox.settings", clock: "sandbox.clock_offset_ms", dayList: "registry.day_list_open" };
/**
 * The state the control plane drives: settings, the clock's offset and whether the day list is open. Held in
 * memory for speed and written through to the store, so a restart keeps it.
 */
export class SandboxState {
    settings = { ...DEFAULT_SETTINGS };
    dayListOpen = true;
    #storage;
    #clock;
    constructor(storage, clock) {
        this.#storage = storage;
        this.#clock = clock;
    }
    async load() {
        this.settings = { ...DEFAULT_SETTINGS, ...((await this.#storage.getSetting(KEYS.settings)) ?? {}) };
        this.dayListOpen = (await this.#storage.getSetting(KEYS.dayList)) ?? true;
        this.#clock.restore((await this.#storage.getSetting(KEYS.clock)) ?? 0);
    }
    async updateSettings(changes) {
        this.settings = { ...this.settings, ...changes };
        await this.#storage.putSetting(KEYS.settings, this.settings);
        return this.settings;
    }
    async setDayList(open) {
        this.dayListOpen = open;
        await this.#storage.putSetting(KEYS.dayList, open);
    }
    async saveClock() {
        await this.#storage.putSetting(KEYS.clock, this.#clock.offsetMs);
    }
    /** Back to defaults: real time, open day list, automatic processing, no faults. */
    async reset() {
        this.settings = { ...DEFAULT_SETTINGS };
        this.dayListOpen = true;
        this.#clock.restore(0);
    }
    /** A draw for at-least-once delivery: true when a notification should be delivered twice. */
    duplicate = () => Math.random() < this.settings.duplicate_rate;
}
//# sourceMappingURL=sandbox-state.js.map