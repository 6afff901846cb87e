import { renderNotification } from "./service.js";
/** Handlers of the four notification operations (v0 and v1, list and acknowledge). */
export function notificationHandlers(notifications, schemaBase) {
    const list = (version) => async ({ principal, query, request }) => {
        const rows = await notifications.list(version, principal, query);
        const base = schemaBase(request);
        return { status: 200, body: { data: rows.map((row) => renderNotification(row, version, base)) } };
    };
    const acknowledge = (version) => async ({ principal, body }) => {
        const { acknowledged, notFound } = await notifications.acknowledge(principal, body.data);
        return { status: 200, body: { data: version === "v0" ? { acknowledged, not_found: notFound } : { acknowledged } } };
    };
    return {
        listNotificationsV0: list("v0"),
        listNotificationsV1: list("v1"),
        acknowledgeNotificationsV0: acknowledge("v0"),
        acknowledgeNotificationsV1: acknowledge("v1"),
    };
}
//# sourceMappingURL=routes.js.map