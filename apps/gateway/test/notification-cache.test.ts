import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderNotificationPage, type ListQuery } from "../src/notifications/service.js";
import { idempotencyKey, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual" });
});
afterAll(async () => {
  await gw.stop();
});

type Step =
  | { kind: "event"; duplicate: boolean }
  | { kind: "acknowledge"; take: number }
  | { kind: "advance"; days: number }
  | { kind: "list"; query: ListQuery<"v1"> };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("event" as const), duplicate: fc.boolean() }),
  fc.record({ kind: fc.constant("acknowledge" as const), take: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant("advance" as const), days: fc.integer({ min: 1, max: 20 }) }),
  fc.record({
    kind: fc.constant("list" as const),
    query: fc.constantFrom<ListQuery<"v1">[]>(
      {},
      { limit: 2 },
      { status: "ACKNOWLEDGED" },
      { notification_type: "application.accepted-priority-protected" },
    ),
  }),
);

describe("cached notification pages", () => {
  it("always equal a fresh read of the store, whatever happened in between", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        await gw.sandbox("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
        const unit: Credentials = await gw.newBusinessUnit();
        const principal = { username: unit.username, businessUnitId: String(unit.business_unit_id) };
        for (const s of [...steps, { kind: "list", query: {} } as Step]) {
          if (s.kind === "event") {
            await gw.sandbox("PUT", "/sandbox/v1/settings", { duplicate_rate: s.duplicate ? 1 : 0 });
            const answer = await gw.call("POST", "/v0/applications", {
              as: unit,
              body: submission(),
              headers: { "idempotency-key": idempotencyKey() },
            });
            const id = (answer.body as { data: { application_request_id: string } }).data.application_request_id;
            await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, {
              to: "ACCEPTED_PRIORITY_PROTECTED",
            });
          } else if (s.kind === "acknowledge") {
            const listed = (await gw.call("GET", "/v1/notifications", { as: unit })).body as {
              data: { notification_id: string }[];
            };
            const ids = listed.data.slice(0, s.take).map((n) => n.notification_id);
            if (ids.length > 0)
              await gw.call("POST", "/v1/notifications/acknowledge", { as: unit, body: { data: ids } });
          } else if (s.kind === "advance") {
            await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: s.days * 24 * 3600 });
          } else {
            // Twice: the second answer comes from the cache when nothing changed.
            for (let i = 0; i < 2; i += 1) {
              const search = new URLSearchParams(
                Object.entries(s.query).map(([name, value]): [string, string] => [name, String(value)]),
              );
              const response = await fetch(`${gw.url}/v1/notifications?${search}`, {
                headers: {
                  authorization: `Basic ${Buffer.from(`${unit.username}:${unit.password}`).toString("base64")}`,
                },
              });
              const served = await response.text();
              const rows = await gw.gateway.notifications.list("v1", principal, {
                status: "NEW",
                limit: 100,
                ...s.query,
              });
              expect(served).toBe(renderNotificationPage(rows, "v1", gw.url));
            }
          }
        }
      }),
      { numRuns: 15 },
    );
    await gw.sandbox("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
  }, 120_000);
});
