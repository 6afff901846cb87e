// The client's notification workflows against a real gateway: listAll pages past 100 notifications in both
// versions without losing or repeating any, and retries ride out the sandbox's injected 503s without the
// consumer's handler seeing an event twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  unwrap,
  type GatewayClient,
  type NotificationV0,
  type NotificationV1,
  type RetryEvent,
} from "../../src/index.js";
import { smallPdf, startGateway, submit, type Credentials, type RunningGateway } from "./gateway-support.js";

let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.stop();
});

interface Emitted {
  readonly id: string;
  /** The application (subject) it is about, and the order in which the applications were decided. */
  readonly subject: string;
  readonly order: number;
  readonly inV0: boolean;
}

/**
 * A business unit whose applications the sandbox accepts one after the other (manual processing), one per entry
 * of `duplicateRates`, decided with that duplicate rate. Each emits an attachment result (version 1 only) at the
 * millisecond before the acceptance, then the acceptance; a re-delivery is created one millisecond after the
 * notification it repeats. Answers the notifications the control plane reports it emitted, in order.
 */
async function acceptedApplications(
  duplicateRates: number[],
): Promise<{ unit: Credentials; client: GatewayClient; emitted: Emitted[] }> {
  await gw.settings({ processing: "manual", duplicate_rate: 0, error_rate: 0, latency_ms: 0 });
  const unit = await gw.newBusinessUnit();
  const client = gw.client(unit);
  const { document_id: documentId } = await client.uploadDocument(smallPdf("paging"), { documentType: "TR1" });
  await expect.poll(async () => (await gw.gateway.storage.findDocument(documentId))?.status).toBe("ACCEPTED");
  const emitted: Emitted[] = [];
  let rate = 0;
  for (const [order, duplicateRate] of duplicateRates.entries()) {
    if (duplicateRate !== rate) await gw.settings({ duplicate_rate: (rate = duplicateRate) });
    const subject = await submit(client, documentId, `CLIENT-IT-PAGING-${order}`);
    const moved = await unwrap(
      gw.sandbox.POST("/sandbox/v1/applications/{id}/transitions", {
        params: { path: { id: subject } },
        body: { to: "ACCEPTED_PRIORITY_PROTECTED" },
      }),
    );
    for (const notification of moved.notifications) {
      emitted.push({
        id: notification.notification_id,
        subject,
        order,
        inV0: notification.v0_notification_type !== null,
      });
    }
  }
  await gw.settings({ duplicate_rate: 0 });
  return { unit, client, emitted };
}

/** Asserts that `listed` holds each of `expected` exactly once, oldest first. */
function expectAllOnceOldestFirst(listed: (NotificationV0 | NotificationV1)[], expected: Emitted[]): void {
  const ids = listed.map((notification) => notification.notification_id);
  expect(new Set(ids).size).toBe(ids.length); // nothing repeated
  expect([...ids].sort()).toEqual(expected.map((notification) => notification.id).sort()); // nothing lost, nothing else
  const created = listed.map((notification) => Date.parse(notification.created_datetime));
  expect(created).toEqual([...created].sort((a, b) => a - b));
  // Oldest first: the applications' notifications come in the order the applications were decided.
  const orderOf = new Map(expected.map((notification) => [notification.id, notification.order]));
  const orders = ids.map((id) => orderOf.get(id) ?? -1);
  expect(orders).toEqual([...orders].sort((a, b) => a - b));
}

describe("listAll against the gateway", () => {
  it("pages across more than 100 notifications in version 1 and version 0: nothing lost, nothing repeated, oldest first", async () => {
    // One application delivered once (2 notifications in version 1, 1 in version 0), then 55 with every
    // notification delivered twice: 222 in version 1, 111 in version 0 (which lists no attachment results).
    const { client, emitted } = await acceptedApplications([0, ...Array.from({ length: 55 }, () => 1)]);
    // The gateway refuses every date-time shape but the requirement's zone-less example: the client sends that one.
    await gw.settings({ strict_date_times: true });
    const v1Expected = emitted;
    const v0Expected = emitted.filter((notification) => notification.inV0);
    expect(v1Expected).toHaveLength(222);
    expect(v0Expected).toHaveLength(111);

    const v1: NotificationV1[] = [];
    for await (const notification of client.notifications.listAll()) v1.push(notification);
    expectAllOnceOldestFirst(v1, v1Expected);
    // The gateway gives notifications strictly increasing creation instants (so nothing committed later can be
    // back-dated behind a page already read); ties at a page boundary are the client's unit property test's case.
    expect(v1.every((n, index) => index === 0 || String(v1[index - 1]?.created_datetime) < n.created_datetime)).toBe(
      true,
    );

    const v0: NotificationV0[] = [];
    for await (const notification of client.notifications.listAll({ version: "v0" })) v0.push(notification);
    expectAllOnceOldestFirst(v0, v0Expected);
    expect(v0.every((notification) => notification.subject_type === "LAND_REGISTER_APPLICATION")).toBe(true);

    // The same, a page at a time: more than one page each, none larger than 100.
    const v1Pages: number[] = [];
    for await (const page of client.notifications.listPages()) v1Pages.push(page.length);
    expect(v1Pages.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...v1Pages)).toBeLessThanOrEqual(100);
    expect(v1Pages.reduce((sum, length) => sum + length, 0)).toBe(222);
    const v0Pages: number[] = [];
    for await (const page of client.notifications.listPages({ version: "v0" })) v0Pages.push(page.length);
    expect(v0Pages.length).toBeGreaterThanOrEqual(2);
    expect(v0Pages.reduce((sum, length) => sum + length, 0)).toBe(111);

    // From a point in time (exclusive): only what was created after it.
    const middle = v1[119];
    const later: NotificationV1[] = [];
    for await (const notification of client.notifications.listAll({ since: middle?.created_datetime ?? "" }))
      later.push(notification);
    const after = v1Expected.filter((notification) => {
      const listed = v1.find((each) => each.notification_id === notification.id);
      return Date.parse(listed?.created_datetime ?? "") > Date.parse(middle?.created_datetime ?? "");
    });
    expectAllOnceOldestFirst(later, after);
    await gw.settings({ strict_date_times: false });
  }, 30_000);
});

describe("retries against the gateway's injected faults", () => {
  it("GETs of /v1/notifications succeed within bounded attempts with error_rate 0.5, and consume handles every event once", async () => {
    const { unit, emitted } = await acceptedApplications(Array.from({ length: 8 }, () => 1)); // 16 events, 32 notifications
    const retries: RetryEvent[] = [];
    const attempts = 12;
    const client = gw.client(unit, { retry: { attempts }, onRetry: (event) => retries.push(event) });
    await gw.settings({ error_rate: 0.5 });
    try {
      // Until the faults have shown themselves a few times (one GET in two fails at the first attempt).
      let gets = 0;
      while (retries.length < 3 && gets < 40) {
        gets += 1;
        const { data } = await unwrap(client.GET("/v1/notifications"));
        expect(data).toHaveLength(32);
      }
      expect(retries.length).toBeGreaterThanOrEqual(3);
      for (const retry of retries) {
        expect(retry).toMatchObject({ method: "GET", status: 503, delayMs: 1000 }); // the gateway's Retry-After: 1
        expect(retry.attempt).toBeLessThan(attempts);
      }

      const calls = new Map<string, number>();
      const handled: string[] = [];
      const summary = await client.notifications.consume(({ key, notifications }) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        handled.push(...notifications.map((notification) => notification.notification_id));
      });
      expect(summary).toEqual({ events: 16, notifications: 32, acknowledged: 32 });
      expect(calls.size).toBe(16);
      expect([...calls.values()].every((count) => count === 1)).toBe(true);
      expect([...handled].sort()).toEqual(emitted.map((notification) => notification.id).sort());
    } finally {
      await gw.settings({ error_rate: 0 });
    }
    expect((await unwrap(client.GET("/v1/notifications"))).data).toEqual([]);
  }, 40_000);
});
