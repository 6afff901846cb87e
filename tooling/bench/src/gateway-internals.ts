// @lrg/gateway exports only createServer. The seed needs two more of its functions so that the rows it writes are
// the gateway's own (the scrypt hash format, and notifications rendered exactly as a transition emits them), and
// the bench draws from the gateway's seeded generator rather than a copy of it, so they are imported by file from the package's build output. If the gateway's internals move, this file breaks
// at type-check time, not silently at run time.
export { hashPassword } from "../node_modules/@lrg/gateway/dist/auth/passwords.js";
export { seededRandom } from "../node_modules/@lrg/gateway/dist/registry/seeded-random.js";
export { notificationsFor } from "../node_modules/@lrg/gateway/dist/notifications/events.js";
export type { ApplicationEvent, CorrespondenceDocument } from "../node_modules/@lrg/gateway/dist/notifications/events.js";
export type { NotificationRow } from "../node_modules/@lrg/gateway/dist/storage/storage.js";
