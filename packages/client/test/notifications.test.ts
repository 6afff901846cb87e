import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GatewayError, type NotificationEvent, type NotificationV1 } from "../src/index.js";
import { at, fakeRegistry, id, stored, type StoredNotification } from "./support/fake-notifications.js";
import { clientWith } from "./support/clients.js";

const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 2 } as const;

function clientOf(registry: ReturnType<typeof fakeRegistry>) {
  return clientWith({ fetch: registry.fetch, retry: FAST_RETRY });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe("notifications.listAll", () => {
  it("pages with created_after, 100 a page, oldest first", async () => {
    const all = Array.from({ length: 250 }, (_, index) => stored(at(index * 10)));
    const registry = fakeRegistry([...all].reverse());
    const listed = await collect(clientOf(registry).notifications.listAll());
    expect(listed.map((notification) => notification.notification_id)).toEqual(
      all.map((notification) => notification.notification_id),
    );
    const queries = registry.listQueries();
    expect(queries).toHaveLength(3);
    expect(queries.every((query) => query.limit === "100")).toBe(true);
    expect(queries[0]?.created_after).toBeUndefined();
    // Each page restarts a millisecond before the last notification received (so the second page holds the
    // first page's last notification again, recognised and left out, and ends with the 199th).
    // Sent as the requirement's example shows a date-time: UTC without a zone (milliseconds when there are some).
    expect(queries[1]?.created_after).toBe("2025-02-20T09:00:00.989");
    expect(queries[2]?.created_after).toBe("2025-02-20T09:00:01.979");
  });

  it("loses and repeats nothing when notifications share the created_datetime at a page boundary", async () => {
    // 97 distinct instants, then 6 notifications created at one instant across the boundary of the first page.
    const all = [
      ...Array.from({ length: 97 }, (_, index) => stored(at(index))),
      ...Array.from({ length: 6 }, () => stored(at(500))),
      stored(at(501)),
    ];
    const registry = fakeRegistry(all);
    const listed = await collect(clientOf(registry).notifications.listAll());
    expect(listed.map((notification) => notification.notification_id)).toEqual(
      all.map((notification) => notification.notification_id),
    );
  });

  it("starts after `since`, exclusive, given as a Date or as the registry's text", async () => {
    const all = Array.from({ length: 5 }, (_, index) => stored(at(index * 1000)));
    const registry = fakeRegistry(all);
    const client = clientOf(registry);
    const fromDate = await collect(client.notifications.listAll({ since: new Date(at(2000)) }));
    expect(fromDate.map((notification) => notification.created_datetime)).toEqual([at(3000), at(4000)]);
    const fromText = await collect(client.notifications.listAll({ since: "2025-02-20T09:00:01" }));
    expect(fromText).toHaveLength(3);
    expect(registry.listQueries().map((query) => query.created_after)).toEqual([
      "2025-02-20T09:00:02",
      "2025-02-20T09:00:01",
    ]);
    await collect(client.notifications.listAll({ since: "2025-02-20T10:00:01.250+01:00" }));
    expect(registry.listQueries().at(-1)?.created_after).toBe("2025-02-20T09:00:01.250");
  });

  it("passes the filters through", async () => {
    const registry = fakeRegistry([stored(at(0)), stored(at(1), { notification_type: "application.cancelled" })]);
    const listed = await collect(
      clientOf(registry).notifications.listAll({
        notification_type: "application.cancelled",
        status: "NEW",
        created_before: at(10),
      }),
    );
    expect(listed).toHaveLength(1);
    expect(registry.listQueries()[0]).toEqual({
      notification_type: "application.cancelled",
      status: "NEW",
      created_before: at(10),
      limit: "100",
    });
  });

  it("speaks version 0 on its own paths and filters", async () => {
    const registry = fakeRegistry([stored(at(0), { notification_type: "APPLICATION_COMPLETED" })], "v0");
    const listed = await collect(
      clientOf(registry).notifications.listAll({ version: "v0", occured_after: "2025-01-01T00:00:00" }),
    );
    expect(listed).toHaveLength(1);
    expect(registry.requests[0]?.url.pathname).toBe("/v0/notifications");
    expect(registry.listQueries()[0]?.occured_after).toBe("2025-01-01T00:00:00");
  });

  it("refuses to skip when more than 100 notifications share one millisecond", async () => {
    const registry = fakeRegistry(Array.from({ length: 150 }, () => stored(at(0))));
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const notification of clientOf(registry).notifications.listAll())
        seen.push(notification.notification_id);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(seen).toHaveLength(100);
  });

  it("property: every notification exactly once, oldest first, whatever the collisions", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Up to 400 notifications over 31 milliseconds: many share an instant (at most 40 each).
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 90, maxLength: 400, size: "max" }).filter((instants) => {
          const counts = new Map<number, number>();
          for (const instant of instants) counts.set(instant, (counts.get(instant) ?? 0) + 1);
          return [...counts.values()].every((count) => count <= 40);
        }),
        fc.option(fc.integer({ min: -1, max: 30 }), { nil: undefined }),
        async (instants, since) => {
          const all = instants.map((instant) => stored(at(instant)));
          const registry = fakeRegistry(all);
          const listed = await collect(
            clientOf(registry).notifications.listAll(since === undefined ? {} : { since: at(since) }),
          );
          const ids = listed.map((notification) => notification.notification_id);
          const expected = all.filter(
            (notification) => since === undefined || notification.created_datetime > at(since),
          );
          expect(new Set(ids).size).toBe(ids.length);
          expect([...ids].sort()).toEqual(expected.map((notification) => notification.notification_id).sort());
          const created = listed.map((notification) => notification.created_datetime);
          expect(created).toEqual([...created].sort());
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("notifications.acknowledge", () => {
  it("acknowledges in calls of at most 100 ids, each id once", async () => {
    const all = Array.from({ length: 250 }, (_, index) => stored(at(index)));
    const registry = fakeRegistry(all);
    const ids = all.map((notification) => notification.notification_id);
    const result = await clientOf(registry).notifications.acknowledge([...ids, ...ids.slice(0, 10)]);
    expect(registry.acknowledgements().map((chunk) => chunk.length)).toEqual([100, 100, 50]);
    expect(result.acknowledged).toEqual(ids);
    expect(result.not_found).toEqual([]);
    expect(registry.notifications.every((notification) => notification.status === "ACKNOWLEDGED")).toBe(true);
  });

  it("reports unknown ids as not found in both versions", async () => {
    for (const version of ["v0", "v1"] as const) {
      const known = stored(at(0));
      const unknown = id();
      const registry = fakeRegistry([known], version);
      const result = await clientOf(registry).notifications.acknowledge([known.notification_id, unknown], { version });
      expect(result).toEqual({ acknowledged: [known.notification_id], not_found: [unknown] });
      expect(registry.requests[0]?.url.pathname).toBe(`/${version}/notifications/acknowledge`);
    }
  });

  it("retries an acknowledgement (it is idempotent) on 503", async () => {
    const known = stored(at(0));
    const registry = fakeRegistry([known]);
    registry.failNext(1, 503);
    const result = await clientOf(registry).notifications.acknowledge([known.notification_id]);
    expect(result.acknowledged).toEqual([known.notification_id]);
    expect(registry.requests).toHaveLength(2);
  });

  it("sends nothing for no ids", async () => {
    const registry = fakeRegistry([]);
    expect(await clientOf(registry).notifications.acknowledge([])).toEqual({ acknowledged: [], not_found: [] });
    expect(registry.requests).toHaveLength(0);
  });
});

describe("notifications.consume", () => {
  const event = (ms: number, subject = "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10"): Partial<StoredNotification> => ({
    event_datetime: at(ms),
    subject,
    notification_type: "application.accepted-priority-protected",
  });

  it("calls the handler once per event and acknowledges every duplicate", async () => {
    const a = [
      stored(at(10), event(5)),
      stored(at(20), event(5)),
      stored(at(30), { ...event(5), event_datetime: "2025-02-20T09:00:00.005" }),
    ];
    const b = stored(at(40), event(35));
    const registry = fakeRegistry([a[0], b, a[1], a[2]] as StoredNotification[]);
    const events: NotificationEvent<NotificationV1>[] = [];
    const summary = await clientOf(registry).notifications.consume((received) => {
      events.push(received);
    });
    expect(
      events.map((received) => received.notifications.map((notification) => notification.notification_id)),
    ).toEqual([a.map((notification) => notification.notification_id), [b.notification_id]]);
    expect(events[0]?.notification.notification_id).toBe(a[0]?.notification_id);
    expect(summary).toEqual({ events: 2, notifications: 4, acknowledged: 4 });
    expect(registry.notifications.every((notification) => notification.status === "ACKNOWLEDGED")).toBe(true);
    expect(registry.listQueries()[0]?.status).toBe("NEW");
  });

  it("does not group notifications of different subjects or types", async () => {
    const registry = fakeRegistry([
      stored(at(1), event(0, "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10")),
      stored(at(2), event(0, "7a2d3b5f-1c8e-4d2f-8b64-3e9f5c7d8e21")),
      stored(at(3), { ...event(0), notification_type: "application.completed" }),
    ]);
    let calls = 0;
    await clientOf(registry).notifications.consume(() => {
      calls += 1;
    });
    expect(calls).toBe(3);
  });

  it("acknowledges only after the handler succeeds, and stops at the first failure", async () => {
    const first = stored(at(1), event(1));
    const firstAgain = stored(at(2), event(1));
    const failing = stored(at(3), event(3));
    const later = stored(at(4), event(4));
    const registry = fakeRegistry([first, firstAgain, failing, later]);
    const order: string[] = [];
    const failure = await clientOf(registry)
      .notifications.consume((received) => {
        order.push(`handle ${received.notification.notification_id}`);
        if (received.notification.notification_id === failing.notification_id) throw new Error("handler failed");
      })
      .catch((error: unknown) => error);
    expect((failure as Error).message).toBe("handler failed");
    expect(order).toEqual([`handle ${first.notification_id}`, `handle ${failing.notification_id}`]);
    expect(registry.acknowledgements()).toEqual([[first.notification_id, firstAgain.notification_id]]);
    expect(registry.notifications.map((notification) => notification.status)).toEqual([
      "ACKNOWLEDGED",
      "ACKNOWLEDGED",
      "NEW",
      "NEW",
    ]);
    // The acknowledgement was sent after the handler had returned for that event, never before.
    const ackIndex = registry.requests.findIndex((request) => request.method === "POST");
    expect(ackIndex).toBeGreaterThan(0);
  });

  it("recognises a duplicate delivered on a later page", async () => {
    const filler = Array.from({ length: 99 }, (_, index) => stored(at(index), event(index)));
    const original = stored(at(200), event(1000));
    const duplicate = stored(at(300), event(1000));
    const registry = fakeRegistry([...filler, original, duplicate]);
    const handled: string[] = [];
    const summary = await clientOf(registry).notifications.consume((received) => {
      handled.push(received.key);
    });
    expect(handled.filter((key) => key.startsWith(at(1000)))).toHaveLength(1);
    expect(summary).toEqual({ events: 100, notifications: 101, acknowledged: 101 });
    expect(registry.notifications.every((notification) => notification.status === "ACKNOWLEDGED")).toBe(true);
  });

  it("consumes version 0", async () => {
    const registry = fakeRegistry(
      [
        stored(at(1), { ...event(0), notification_type: "APPLICATION_COMPLETED" }),
        stored(at(2), { ...event(0), notification_type: "APPLICATION_COMPLETED" }),
      ],
      "v0",
    );
    let calls = 0;
    const summary = await clientOf(registry).notifications.consume(
      () => {
        calls += 1;
      },
      { version: "v0" },
    );
    expect(calls).toBe(1);
    expect(summary.acknowledged).toBe(2);
    expect(registry.requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
      "GET /v0/notifications",
      "POST /v0/notifications/acknowledge",
    ]);
  });

  it("acknowledges a large backlog in chunks of 100 while paging", async () => {
    const registry = fakeRegistry(Array.from({ length: 230 }, (_, index) => stored(at(index), event(index))));
    const summary = await clientOf(registry).notifications.consume(() => undefined);
    expect(summary).toEqual({ events: 230, notifications: 230, acknowledged: 230 });
    expect(registry.acknowledgements().every((chunk) => chunk.length <= 100)).toBe(true);
  });
});
