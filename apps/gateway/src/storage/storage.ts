import type { ApplicationStore } from "./ports/applications.js";
import type { AuditStore } from "./ports/audit.js";
import type { BusinessUnitStore } from "./ports/business-units.js";
import type { DocumentStore } from "./ports/documents.js";
import type { StoreLifecycle } from "./ports/lifecycle.js";
import type { NotificationStore } from "./ports/notifications.js";
import type { SettingStore } from "./ports/settings.js";
import type { TitleEnquiryStore } from "./ports/title-enquiries.js";

export type * from "./ports/applications.js";
export type * from "./ports/audit.js";
export type * from "./ports/business-units.js";
export type * from "./ports/documents.js";
export type * from "./ports/lifecycle.js";
export type * from "./ports/notifications.js";
export type * from "./ports/settings.js";
export type * from "./ports/title-enquiries.js";

/**
 * The gateway's storage, as narrow as the domain needs: the ports of the domains (`ports/`), which each domain takes
 * alone, and the store's own lifecycle, implemented together by each store (the composition root opens one). Every
 * method is asynchronous so that a PostgreSQL implementation can follow the embedded SQLite one; every multi-row change
 * is one transaction. A domain that keeps records of its own adds its port as a store part (`store-part.ts`).
 */
export type Storage = BusinessUnitStore &
  SettingStore &
  ApplicationStore &
  NotificationStore &
  DocumentStore &
  TitleEnquiryStore &
  AuditStore &
  StoreLifecycle;
