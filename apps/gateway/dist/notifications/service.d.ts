import type { Principal } from "../auth/basic-auth.js";
import { type Clock } from "../clock.js";
import type { NotificationRow, Storage } from "../storage/storage.js";
export type Version = "v0" | "v1";
/** The list query after validation against the spec (names as the version spells them). */
export type ListQuery = Record<string, unknown>;
/** The notifications of a business unit: listing with the requirement's filters, acknowledging, retention. */
export declare class NotificationService {
    #private;
    constructor(storage: Storage, clock: Clock);
    list(version: Version, principal: Principal, query: ListQuery): Promise<NotificationRow[]>;
    acknowledge(principal: Principal, ids: string[]): Promise<{
        acknowledged: string[];
        notFound: string[];
    }>;
    /** Deletes every notification older than one month by the gateway's clock. */
    purgeExpired(): Promise<number>;
}
/** A stored notification as a version shows it; `schemaBase` is where the payload schemas are served. */
export declare function renderNotification(row: NotificationRow, version: Version, schemaBase: string): Record<string, unknown>;
