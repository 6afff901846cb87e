import type { FastifyRequest } from "fastify";
import type { RegistryOperations } from "../operation-types.js";
import type { Handler, RegistryHandlers } from "../routing.js";
import type { NotificationService, Version } from "./service.js";

/**
 * Handlers of the four notification operations (v0 and v1, list and acknowledge). `beforeList` sees each list request
 * of a unit first and may answer it instead by throwing (a readiness run's faults: `readiness/faults-and-cadence.ts`).
 */
export function notificationHandlers(
  notifications: NotificationService,
  schemaBase: (request: FastifyRequest) => string,
  beforeList: (businessUnitId: string) => Promise<void> = async () => undefined,
): RegistryHandlers<
  "listNotificationsV0" | "listNotificationsV1" | "acknowledgeNotificationsV0" | "acknowledgeNotificationsV1"
> {
  const list =
    (version: Version): Handler<RegistryOperations["listNotificationsV0" | "listNotificationsV1"]> =>
    async ({ principal, query, request }) => {
      await beforeList(principal.businessUnitId);
      const page = await notifications.page(version, principal, query, schemaBase(request));
      return { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: page };
    };
  const acknowledge =
    (version: Version): Handler<RegistryOperations["acknowledgeNotificationsV0" | "acknowledgeNotificationsV1"]> =>
    async ({ principal, body }) => {
      const { acknowledged, notFound } = await notifications.acknowledge(principal, body.data);
      return {
        status: 200,
        body: { data: version === "v0" ? { acknowledged, not_found: notFound } : { acknowledged } },
      };
    };
  return {
    listNotificationsV0: list("v0"),
    listNotificationsV1: list("v1"),
    acknowledgeNotificationsV0: acknowledge("v0"),
    acknowledgeNotificationsV1: acknowledge("v1"),
  };
}
