import type { Handler } from "../routing.js";
import type { NotificationService, Version } from "./service.js";

/** Handlers of the four notification operations (v0 and v1, list and acknowledge). */
export function notificationHandlers(notifications: NotificationService, schemaBase: (request: Parameters<Handler>[0]["request"]) => string): Record<string, Handler> {
  const list = (version: Version): Handler => async ({ principal, query, request }) => {
    const page = await notifications.page(version, principal, query, schemaBase(request));
    return { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: page };
  };
  const acknowledge = (version: Version): Handler => async ({ principal, body }) => {
    const { acknowledged, notFound } = await notifications.acknowledge(principal, (body as { data: string[] }).data);
    return { status: 200, body: { data: version === "v0" ? { acknowledged, not_found: notFound } : { acknowledged } } };
  };
  return {
    listNotificationsV0: list("v0"),
    listNotificationsV1: list("v1"),
    acknowledgeNotificationsV0: acknowledge("v0"),
    acknowledgeNotificationsV1: acknowledge("v1"),
  };
}
