import type { Clock } from "../clock.js";
import type { Storage } from "../storage/storage.js";
/** The sandbox settings of the control plane (see `SandboxSettings` in spec/sandbox.yaml). */
export interface SandboxSettings {
    processing: "automatic" | "manual";
    duplicate_rate: number;
    latency_ms: number;
    error_rate: number;
}
export declare const DEFAULT_SETTINGS: SandboxSettings;
/**
 * The state the control plane drives: settings, the clock's offset and whether the day list is open. Held in
 * memory for speed and written through to the store, so a restart keeps it.
 */
export declare class SandboxState {
    #private;
    settings: SandboxSettings;
    dayListOpen: boolean;
    constructor(storage: Storage, clock: Clock);
    load(): Promise<void>;
    updateSettings(changes: Partial<SandboxSettings>): Promise<SandboxSettings>;
    setDayList(open: boolean): Promise<void>;
    saveClock(): Promise<void>;
    /** Back to defaults: real time, open day list, automatic processing, no faults. */
    reset(): Promise<void>;
    /** A draw for at-least-once delivery: true when a notification should be delivered twice. */
    readonly duplicate: () => boolean;
}
