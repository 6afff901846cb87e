import type { FastifyRequest } from "fastify";
import type { components, RegistryOperations } from "../operation-types.js";
import type { HandlerContext, JsonText, RegistryHandlers } from "../routing.js";
import type { NotificationService, Version } from "./service.js";
import type { RegistryHooks } from "../hooks.js";

/** The page each version's list answers. */
interface Pages {
  v0: components["schemas"]["NotificationListV0"];
  v1: components["schemas"]["NotificationListV1"];
}

/**
 * Handlers of the four notification operations (v0 and v1, list and acknowledge). The `beforeList` hook, when filled,
 * sees each list request of a unit first and may answer it instead by throwing.
 */
export function notificationHandlers(
  notifications: NotificationService,
  schemaBase: (request: FastifyRequest) => string,
  hooks: Pick<RegistryHooks, "beforeList"> = { beforeList: undefined },
): RegistryHandlers<
  "listNotificationsV0" | "listNotificationsV1" | "acknowledgeNotificationsV0" | "acknowledgeNotificationsV1"
> {
  const list =
    <V extends Version>(version: V) =>
    async ({
      principal,
      query,
      request,
    }: HandlerContext<RegistryOperations["listNotificationsV0" | "listNotificationsV1"]>) => {
      const beforeList = hooks.beforeList;
      if (beforeList) await beforeList(principal.businessUnitId);
      // The version's page as JSON text, as `renderNotificationPage` writes it (and the service caches it).
      const page = (await notifications.page(version, principal, query, schemaBase(request))) as JsonText<Pages[V]>;
      return { status: 200 as const, headers: { "content-type": "application/json; charset=utf-8" }, body: page };
    };
  return {
    listNotificationsV0: list("v0"),
    listNotificationsV1: list("v1"),
    acknowledgeNotificationsV0: async ({ principal, body }) => {
      const { acknowledged, notFound } = await notifications.acknowledge(principal, body.data);
      return { status: 200, body: { data: { acknowledged, not_found: notFound } } };
    },
    acknowledgeNotificationsV1: async ({ principal, body }) => {
      const { acknowledged } = await notifications.acknowledge(principal, body.data);
      return { status: 200, body: { data: { acknowledged } } };
    },
  };
}
