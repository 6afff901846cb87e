// What the migration tests write into an older schema, and how they check that every status survived.
import { expect } from "vitest";
import type { NotificationStore } from "../../src/storage/ports/notifications.js";

export interface WrittenNotification {
  id: string;
  unit: "unit-a" | "unit-b";
  createdMs: number;
  status: "NEW" | "ACKNOWLEDGED";
}

/** Thirty notifications of two units, interleaved in creation order: every third acknowledged. */
export const written: WrittenNotification[] = Array.from({ length: 30 }, (_, index) => ({
  id: `n-${String(index).padStart(2, "0")}`,
  unit: index % 2 === 0 ? "unit-a" : "unit-b",
  createdMs: 1_000 + index,
  status: index % 3 === 0 ? "ACKNOWLEDGED" : "NEW",
}));

/** Each unit's list answers `expected` (the written notifications, some perhaps acknowledged since): all, by status. */
export async function expectEveryStatus(
  storage: Pick<NotificationStore, "listNotifications">,
  expected: WrittenNotification[] = written,
): Promise<void> {
  const list = (unit: string, status?: "NEW" | "ACKNOWLEDGED") =>
    storage.listNotifications({
      businessUnitId: unit,
      version: "v1",
      ...(status ? { status } : {}),
      additionalProviderFilter: null,
      limit: 100,
    });
  for (const unit of ["unit-a", "unit-b"]) {
    const mine = expected.filter((n) => n.unit === unit);
    expect((await list(unit)).map((n) => [n.id, n.status])).toEqual(mine.map((n) => [n.id, n.status]));
    for (const status of ["NEW", "ACKNOWLEDGED"] as const)
      expect((await list(unit, status)).map((n) => n.id)).toEqual(
        mine.filter((n) => n.status === status).map((n) => n.id),
      );
  }
}

/**
 * Acknowledging after the migration: `asked` (the NEW notification `fresh` among them) answers `answered`, and
 * afterwards every list shows `fresh` acknowledged and every other notification as it was written.
 */
export async function expectAcknowledgedAlone(
  storage: Pick<NotificationStore, "listNotifications" | "acknowledgeNotifications">,
  fresh: WrittenNotification,
  asked: string[],
  answered: string[],
  nowMs: number,
): Promise<void> {
  expect(await storage.acknowledgeNotifications(fresh.unit, asked, nowMs)).toEqual(answered);
  await expectEveryStatus(
    storage,
    written.map((n) => (n === fresh ? { ...n, status: "ACKNOWLEDGED" } : n)),
  );
}
