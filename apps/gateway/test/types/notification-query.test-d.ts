// Type test, run by `check` (tsc over test/): the notification list query keeps its operation's type from the handler
// to the store, each version with its own spelling; a member the spec does not give, or of another type, does not
// compile. Each `@ts-expect-error` fails the check if the error it expects disappears.
import type { Principal } from "../../src/auth/basic-auth.js";
import type { NotificationService } from "../../src/notifications/service.js";
import type { NotificationQuery } from "../../src/storage/storage.js";

declare const notifications: NotificationService;
declare const principal: Principal;

// Version 0 spells the event-time filters with one r, version 1 with two.
void notifications.list("v0", principal, { occured_after: "2020-01-01T00:00:00" });
void notifications.list("v1", principal, { occurred_after: "2020-01-01T00:00:00", subject_type: "APPLICATION" });
// @ts-expect-error version 1 has no occured_after
void notifications.list("v1", principal, { occured_after: "2020-01-01T00:00:00" });
// @ts-expect-error version 0 has no subject_type
void notifications.list("v0", principal, { subject_type: "APPLICATION" });
// @ts-expect-error limit is an integer, as the spec types it
void notifications.list("v1", principal, { limit: "2" });

// The store's filter keeps the spec's statuses.
export const acknowledged: NotificationQuery["status"] = "ACKNOWLEDGED";
// @ts-expect-error no status READ in the spec
export const read: NotificationQuery["status"] = "READ";
