// State that several properties read and none changes, created once per session through the control plane.
import { advanceClock, submission, submit, transition, type Version } from "./driver.js";
import type { Credentials, Session } from "./session.js";

/** A business unit holding more than 100 notifications in each version, all NEW, in a known order. */
export interface BusyUnit {
  credentials: Credentials;
  /** Notification ids in the order they were created, per version. */
  order: Record<Version, string[]>;
}

const BUSY_APPLICATIONS = 35;

/**
 * Creates the busy unit: applications decided one after another, each transition a second later on the
 * unit's clock than the one before, so that creation times are distinct and the creation order is the order
 * the control plane reports them emitted.
 */
export function busyUnit(session: Session): Promise<BusyUnit> {
  return session.fixture("busy-unit", async () => {
    const credentials = await session.newBusinessUnit();
    const order: Record<Version, string[]> = { v0: [], v1: [] };
    for (let index = 0; index < BUSY_APPLICATIONS; index += 1) {
      const id = await submit(session, credentials, submission({ documents: 1 }));
      for (const to of ["ACCEPTED_AWAITING_PRIORITY", "ACCEPTED_PRIORITY_PROTECTED", "CANCELLED"]) {
        await advanceClock(session, 1, credentials);
        const result = await transition(session, id, { to }, credentials);
        for (const emitted of result.notifications) {
          order.v1.push(emitted.notification_id);
          if (emitted.v0_notification_type !== null) order.v0.push(emitted.notification_id);
        }
      }
    }
    return { credentials, order };
  });
}
