import type { NotificationStore } from "../ports/notifications.js";
import { toNotificationListing, type ListingColumns } from "../rows.js";
import type { SqliteConnection } from "./connection.js";
import { STATUS_OF_NOTIFICATION } from "./migrations.js";

/**
 * Notifications on SQLite. `listeners` hear the units whose notifications a committed batch of the writer thread
 * changed (the store hands each batch's units to them).
 */
export function sqliteNotifications(
  { read, writer }: SqliteConnection,
  listeners: ((businessUnitId: string | null) => void)[],
): NotificationStore {
  return {
    /**
     * With a status, the unit's notifications of that status are read in creation order from notification_status (its
     * key) and their rows fetched; without, the unit's notifications are read through notifications_by_unit and each
     * one's status is looked up by that key.
     */
    async listNotifications(query) {
      // The table whose creation order the list follows.
      const t = query.status !== undefined ? "s" : "n";
      const where = [`${t}.business_unit_id = @businessUnitId`];
      if (query.status !== undefined) where.push("s.status = @status");
      if (query.version === "v0") where.push("v0_type IS NOT NULL");
      if (query.createdAfterMs !== undefined) where.push(`${t}.created_ms > @createdAfterMs`);
      if (query.createdBeforeMs !== undefined) where.push(`${t}.created_ms < @createdBeforeMs`);
      if (query.occurredAfterMs !== undefined) where.push("event_ms > @occurredAfterMs");
      if (query.occurredBeforeMs !== undefined) where.push("event_ms < @occurredBeforeMs");
      if (query.notificationType !== undefined)
        where.push(`${query.version === "v0" ? "v0_type" : "v1_type"} = @notificationType`);
      if (query.subject !== undefined) where.push("application_id = @subject");
      where.push(
        query.additionalProviderFilter === null
          ? "additional_provider_filter IS NULL"
          : "additional_provider_filter = @additionalProviderFilter",
      );
      const v = query.version;
      const [from, status] =
        query.status !== undefined
          ? ["notification_status s JOIN notifications n ON n.seq = s.seq", "s.status"]
          : ["notifications n", `(SELECT s.status FROM notification_status s WHERE ${STATUS_OF_NOTIFICATION})`];
      const sql = `SELECT n.id, n.application_id, n.${v}_type, n.${v}_schema, n.${v}_payload, n.event_ms, ${t}.created_ms, ${status}, n.additional_provider_filter
        FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ${t}.created_ms, ${t}.seq LIMIT @limit`;
      return (read(sql).raw().all(query) as ListingColumns[]).map(toNotificationListing);
    },

    async acknowledgeNotifications(businessUnitId, ids, nowMs) {
      return writer.run("acknowledgeNotifications", businessUnitId, ids, nowMs);
    },

    async purgeNotifications(createdBeforeMs, scope) {
      return writer.run("purgeNotifications", createdBeforeMs, scope);
    },

    onNotificationsChanged(listener) {
      listeners.push(listener);
    },
  };
}
