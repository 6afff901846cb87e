import type { Clock } from "../clock.js";
import type { SandboxSettings } from "../registry/sandbox-state.js";
import type { Storage } from "../storage/storage.js";
import type { BlobStore } from "../storage/blobs/blob-store.js";

/** What the title enquiry services get from the gateway. */
export interface TitleEnquiryDeps {
  storage: Storage;
  clock: Clock;
  blobs: BlobStore;
  /** The sandbox settings in force for a business unit (service hours are one of them). */
  settings: (businessUnitId: string | null) => SandboxSettings;
  /** Base address for the certificate links handed out; derived from the request when absent. */
  publicUrl?: string | undefined;
  /** What a readiness run of the caller's unit does to its title enquiries. */
  readiness?: TitleEnquiryReadiness | undefined;
}

/**
 * A readiness run's holds on a unit's title enquiries (`readiness/rate-limits.ts`, `readiness/deferred-official-search.ts`),
 * each taken once a run, atomically in the store.
 */
export interface TitleEnquiryReadiness {
  /** The `Retry-After` of the 429 the run answers this rate-limited look-up with (its first), else null. */
  takeRateLimit(businessUnitId: string, nowMs: number): Promise<number | null>;
  /** Whether the run defers this accepted official search (its first), due at `readyMs`. */
  takeDeferral(businessUnitId: string, search: { messageId: string; readyMs: number }, nowMs: number): Promise<boolean>;
}
