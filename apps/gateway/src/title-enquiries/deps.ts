import type { Clock } from "../clock.js";
import type { SandboxSettings } from "../registry/sandbox-state.js";
import type { DocumentStore } from "../storage/ports/documents.js";
import type { SettingStore } from "../storage/ports/settings.js";
import type { TitleEnquiryStore } from "../storage/ports/title-enquiries.js";
import type { BlobStore } from "../storage/blobs/blob-store.js";
import type { RegistryHooks } from "../hooks.js";

/** What the title enquiry services get from the gateway. */
export interface TitleEnquiryDeps {
  storage: TitleEnquiryStore & DocumentStore & SettingStore;
  clock: Clock;
  blobs: BlobStore;
  /** The sandbox settings in force for a business unit (service hours are one of them). */
  settings: (businessUnitId: string | null) => SandboxSettings;
  /** Base address for the certificate links handed out; derived from the request when absent. */
  publicUrl?: string | undefined;
  /** The hook points: `titleLookUp` may refuse a rate-limited look-up, `officialSearch` may defer a search. */
  hooks?: Pick<RegistryHooks, "titleLookUp" | "officialSearch">;
}
