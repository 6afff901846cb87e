import { setTimeout as sleep } from "node:timers/promises";
import type { AttachmentService } from "../applications/attachments.js";
import type { ApplicationService } from "../applications/service.js";
import type { NotificationService } from "../notifications/service.js";
import type { StoreLifecycle } from "../storage/ports/lifecycle.js";

const PROCESSING_INTERVAL_MS = 250;
const RETENTION_INTERVAL_MS = 60_000;

/**
 * The simulated registry's own pace: decisions in automatic processing (and attachments' checks) every quarter of a
 * second, retention every minute, each on one instance at a time (`StoreLifecycle.exclusively`). Answers `stop`, which
 * answers once the work in progress is done.
 */
export function keepPace(deps: {
  storage: StoreLifecycle;
  applications: ApplicationService;
  attachments: AttachmentService;
  notifications: NotificationService;
  log: (error: unknown, message: string) => void;
  closing: () => boolean;
}): { stop: () => Promise<void> } {
  const { storage, applications, attachments, notifications, log, closing } = deps;
  let deciding = false;
  const processing = setInterval(() => {
    if (deciding || closing()) return;
    deciding = true;
    storage
      .exclusively(
        "processing",
        async () => void (await Promise.all([applications.decideDue(), attachments.resolvePending()])),
      )
      .catch((error: unknown) => log(error, "automatic processing failed"))
      .finally(() => (deciding = false));
  }, PROCESSING_INTERVAL_MS);
  const retention = setInterval(() => {
    storage
      .exclusively("retention", async () => void (await notifications.purgeExpired()))
      .catch((error: unknown) => log(error, "retention failed"));
  }, RETENTION_INTERVAL_MS);
  processing.unref();
  retention.unref();
  return {
    stop: async () => {
      clearInterval(processing);
      clearInterval(retention);
      while (deciding) await sleep(10);
    },
  };
}
