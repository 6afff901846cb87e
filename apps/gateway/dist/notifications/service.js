import { isoMillis } from "../clock.js";
import { oneMonthBefore, parseDateTimeFilter } from "../date-time.js";
import { Problem } from "../problems.js";
const MAX_PAGE = 100;
/** The notifications of a business unit: listing with the requirement's filters, acknowledging, retention. */
export class NotificationService {
    #storage;
    #clock;
    constructor(storage, clock) {
        this.#storage = storage;
        this.#clock = clock;
    }
    async list(version, principal, query) {
        const instant = (name) => {
            const value = query[name];
            if (value === undefined)
                return undefined;
            const ms = parseDateTimeFilter(String(value));
            if (ms === undefined) {
                throw new Problem("400-02", "request does not match the schema", {
                    errors: [{ type: "format", detail: `${name} is not a valid date-time`, pointer: `/query/${name}` }],
                });
            }
            return ms;
        };
        const occurred = version === "v0" ? "occured" : "occurred";
        const createdAfter = instant("created_after");
        const createdBefore = instant("created_before");
        if (createdAfter !== undefined && createdBefore !== undefined && createdAfter > createdBefore) {
            throw new Problem("400-01", "created_after cannot be after created_before");
        }
        const retainedFrom = oneMonthBefore(this.#clock.nowMs());
        const filter = {
            businessUnitId: principal.businessUnitId,
            version,
            status: query["status"] ?? "NEW",
            // Expired notifications are never answered, even before the purge has removed them.
            createdAfterMs: Math.max(createdAfter ?? -Infinity, retainedFrom - 1),
            ...(createdBefore !== undefined ? { createdBeforeMs: createdBefore } : {}),
            ...optional("occurredAfterMs", instant(`${occurred}_after`)),
            ...optional("occurredBeforeMs", instant(`${occurred}_before`)),
            ...optional("notificationType", query["notification_type"]),
            ...optional("subject", query["subject"]),
            additionalProviderFilter: query["additional_provider_filter"] ?? null,
            limit: Math.min(Number(query["limit"] ?? MAX_PAGE), MAX_PAGE),
        };
        return this.#storage.listNotifications(filter);
    }
    async acknowledge(principal, ids) {
        const found = await this.#storage.acknowledgeNotifications(principal.businessUnitId, ids, this.#clock.nowMs());
        const known = new Set(found);
        return { acknowledged: found, notFound: [...new Set(ids)].filter((id) => !known.has(id)) };
    }
    /** Deletes every notification older than one month by the gateway's clock. */
    async purgeExpired() {
        return this.#storage.purgeNotifications(oneMonthBefore(this.#clock.nowMs()));
    }
}
function optional(key, value) {
    return (value === undefined ? {} : { [key]: value });
}
/** A stored notification as a version shows it; `schemaBase` is where the payload schemas are served. */
export function renderNotification(row, version, schemaBase) {
    const v1 = version === "v1";
    return {
        notification_id: row.id,
        created_datetime: isoMillis(row.createdMs),
        event_datetime: isoMillis(row.eventMs),
        payload_schema: `${schemaBase}/schemas/${v1 ? row.v1Schema : String(row.v0Schema)}.json`,
        notification_type: v1 ? row.v1Type : row.v0Type,
        subject_type: v1 ? "APPLICATION" : "LAND_REGISTER_APPLICATION",
        subject: row.applicationId,
        additional_provider_filter: row.additionalProviderFilter,
        status: row.status,
        payload: { data: v1 ? row.v1Payload : row.v0Payload },
    };
}
//# sourceMappingURL=service.js.map