// The gateway's own functions the seed needs so that the rows it writes are the gateway's (the scrypt hash format,
// and notifications rendered exactly as a transition emits them), and its seeded generator rather than a copy of it:
// exported for tests and tools by `@lrg/gateway/testing`.
export { hashPassword, notificationsFor, seededRandom } from "@lrg/gateway/testing";
export type { ApplicationEvent, CorrespondenceDocument, NotificationRow } from "@lrg/gateway/testing";
