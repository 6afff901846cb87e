import type { RegistryOperations } from "../../operation-types.js";

/**
 * Notifications: each version's lists, acknowledgements, retention, and who hears of a change. They are raised with the
 * changes that cause them (`ApplicationStore.changeApplication`, `resolveAttachment`), in the same transaction.
 */
export interface NotificationStore {
  /** One version's view of the matching notifications, oldest first, payloads as stored JSON text. */
  listNotifications(query: NotificationQuery): Promise<NotificationListing[]>;
  /**
   * Marks the unit's notifications with these ids ACKNOWLEDGED; answers the ids that exist. `nowMs`, the instant, is
   * kept where the store can keep it cheaply (SQLite); no answer shows it.
   */
  acknowledgeNotifications(businessUnitId: string, ids: string[], nowMs: number): Promise<string[]>;
  /**
   * Deletes notifications created before the given instant (of one business unit, or of the units that follow the
   * global clock; of every unit when `scope` is absent); answers how many.
   */
  purgeNotifications(createdBeforeMs: number, scope?: PurgeScope): Promise<number>;
  /**
   * Hears, after each commit, which business unit's notifications changed (null: possibly every unit's), so that
   * what was derived from them can be dropped.
   */
  onNotificationsChanged(listener: (businessUnitId: string | null) => void): void;
}

/** Whose notifications a purge looks at: one unit's, or those of every unit that follows the global clock. */
export type PurgeScope = { businessUnitId: string } | "units-on-the-global-clock";

export interface NotificationRow {
  id: string;
  businessUnitId: string;
  applicationId: string;
  v1Type: string;
  v0Type: string | null;
  v1Payload: unknown;
  v0Payload: unknown;
  v1Schema: string;
  v0Schema: string | null;
  eventMs: number;
  createdMs: number;
  status: "NEW" | "ACKNOWLEDGED";
  additionalProviderFilter: string | null;
}

/** A notification as one version lists it; `payloadJson` is the stored `payload.data`, not parsed. */
export interface NotificationListing {
  id: string;
  applicationId: string;
  type: string;
  schema: string;
  payloadJson: string;
  eventMs: number;
  createdMs: number;
  status: "NEW" | "ACKNOWLEDGED";
  additionalProviderFilter: string | null;
}

/** The filters of the notification lists, as both versions' operations type them (the spec's parameters). */
type ListFilters = NonNullable<
  RegistryOperations["listNotificationsV0" | "listNotificationsV1"]["parameters"]["query"]
>;

/** A list of one unit's notifications: the filters of the list operations, date-times read as instants. */
export interface NotificationQuery {
  businessUnitId: string;
  version: "v0" | "v1";
  /** Only notifications with this status; every status when absent. */
  status?: NonNullable<ListFilters["status"]>;
  createdAfterMs?: number;
  createdBeforeMs?: number;
  occurredAfterMs?: number;
  occurredBeforeMs?: number;
  notificationType?: NonNullable<ListFilters["notification_type"]>;
  subject?: NonNullable<ListFilters["subject"]>;
  /** null: only notifications of applications submitted without a label. */
  additionalProviderFilter: NonNullable<ListFilters["additional_provider_filter"]> | null;
  limit: number;
}
