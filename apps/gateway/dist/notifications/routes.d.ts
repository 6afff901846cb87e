import type { Handler } from "../routing.js";
import { type NotificationService } from "./service.js";
/** Handlers of the four notification operations (v0 and v1, list and acknowledge). */
export declare function notificationHandlers(notifications: NotificationService, schemaBase: (request: Parameters<Handler>[0]["request"]) => string): Record<string, Handler>;
