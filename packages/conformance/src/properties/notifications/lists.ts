// Invariants of the notification lists and of acknowledging.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  acknowledge,
  advanceClock,
  expectStatus,
  expectThat,
  list,
  QUERY_SHAPES,
  queryDateTime,
  settings,
  submission,
  submit,
  transition,
  truncatedTo,
  type Notification,
  type Version,
} from "../../driver.js";
import { busyUnit } from "../../fixtures.js";
import type { Property } from "../../property.js";
import type { Credentials, Session } from "../../session.js";
import { transitions } from "@lrg/spec";

const versions = fc.constantFrom<Version>("v0", "v1");
const shapes = fc.constantFrom(...QUERY_SHAPES);
/** Instants between 2001 and 2099. */
const instants = fc.integer({ min: Date.UTC(2001, 0, 1), max: Date.UTC(2099, 0, 1) });

function expectOldestFirst(items: Notification[], what: string): void {
  for (let i = 1; i < items.length; i += 1) {
    const before = Date.parse(String(items[i - 1]?.created_datetime));
    const after = Date.parse(String(items[i]?.created_datetime));
    expectThat(
      before <= after,
      `${what}: not oldest first at ${i}: ${items[i - 1]?.created_datetime} then ${items[i]?.created_datetime}`,
    );
  }
}

const createdAfterLaterThanBefore: Property = {
  id: "notifications.created-after-later-than-created-before",
  rows: ["R130", "R076", "R077", "R093", "R037", "R038", "R153"],
  title:
    "a list whose created_after is later than its created_before is answered 400 with the requirement's problem (code 400-01, title Bad Request, instance the path); otherwise 200",
  requires: ["semantics"],
  runs: 40,
  async check(context) {
    const { session } = context;
    // The notification routes also answer under /api, the base of the registry's test stubs (gateway only).
    const prefixes = session.has("control-plane") ? ["", "/api"] : [""];
    await context.assert(
      fc.asyncProperty(
        versions,
        instants,
        fc.integer({ min: 1, max: 10 * 365 * 86_400_000 }),
        shapes,
        shapes,
        fc.constantFrom(...prefixes),
        async (version, before, gap, afterShape, beforeShape, prefix) => {
          const after = before + gap;
          fc.pre(truncatedTo(after, afterShape) > truncatedTo(before, beforeShape));
          const path = `${prefix}/${version}/notifications`;
          const answer = await session.call("GET", path, {
            query: {
              created_after: queryDateTime(after, afterShape),
              created_before: queryDateTime(before, beforeShape),
            },
          });
          expectStatus(answer, 400, "created_after later than created_before");
          expectThat(
            answer.headers["content-type"]?.startsWith("application/problem+json") === true,
            `content type ${answer.headers["content-type"]}`,
          );
          const problem = answer.body as Record<string, unknown>;
          expectThat(
            problem["status"] === 400 && problem["code"] === "400-01" && problem["title"] === "Bad Request",
            `problem ${answer.text}`,
          );
          expectThat(
            problem["instance"] === path,
            `instance ${String(problem["instance"])} is not the request path ${path}`,
          );
          expectThat(
            /created_after/.test(String(problem["detail"])) && /created_before/.test(String(problem["detail"])),
            `detail does not name both parameters: ${String(problem["detail"])}`,
          );
        },
      ),
    );
    await context.assert(
      fc.asyncProperty(
        versions,
        instants,
        fc.integer({ min: 0, max: 10 * 365 * 86_400_000 }),
        shapes,
        shapes,
        async (version, after, gap, afterShape, beforeShape) => {
          fc.pre(truncatedTo(after, afterShape) <= truncatedTo(after + gap, beforeShape));
          const answer = await session.call("GET", `/${version}/notifications`, {
            query: {
              created_after: queryDateTime(after, afterShape),
              created_before: queryDateTime(after + gap, beforeShape),
            },
          });
          expectStatus(answer, 200, "created_after not later than created_before");
        },
      ),
      Math.ceil(context.defaultRuns / 2),
    );
  },
};

const acknowledgeLimit: Property = {
  id: "notifications.acknowledge-limit",
  rows: ["R138", "R015", "R016", "R094", "R101", "R017", "R018"],
  title:
    "acknowledge takes at most 100 ids: 101 or more are refused with 400 and nothing is acknowledged; up to 100 are answered 200",
  requires: ["writes"],
  runs: 15,
  async check(context) {
    const { session } = context;
    // On the gateway a refused request carries real NEW notifications, which must stay NEW.
    const held = session.has("control-plane")
      ? await session.fixture("acknowledge-limit-unit", async () => {
          const credentials = await session.newBusinessUnit();
          const id = await submit(session, credentials, submission({ documents: 1 }));
          const emitted = (
            await transition(session, id, { to: "ACCEPTED_PRIORITY_PROTECTED" }, credentials)
          ).notifications.map((n) => n.notification_id);
          return { credentials, application: id, emitted };
        })
      : undefined;
    const as = held?.credentials ?? session.credentials;
    await context.assert(
      fc.asyncProperty(versions, fc.integer({ min: 0, max: 160 }), fc.boolean(), async (version, count, repeat) => {
        const ids: string[] = Array.from({ length: count }, () => randomUUID());
        // Repeating one id: the limit counts entries as sent.
        if (repeat && count > 1) ids[count - 1] = String(ids[0]);
        if (held && count > 100) ids.splice(0, held.emitted.length, ...held.emitted);
        const answer = await session.call("POST", `/${version}/notifications/acknowledge`, { as, json: { data: ids } });
        if (count <= 100) {
          expectStatus(answer, 200, `acknowledge ${count} ids`);
          return;
        }
        expectStatus(answer, 400, `acknowledge ${count} ids`);
        expectThat((answer.body as { code?: string }).code === "400-02", `problem code ${answer.text}`);
        if (held) {
          const still = await list(session, "v1", as, { subject: held.application });
          expectThat(
            still.length === held.emitted.length,
            `a refused acknowledge changed notifications: ${still.length} of ${held.emitted.length} still NEW`,
          );
        }
      }),
    );
  },
};

const listBounds: Property = {
  id: "notifications.list-bounds",
  rows: ["R086", "R087", "R137", "R100", "R014", "R075", "R095", "R149", "R009", "R012"],
  title:
    "a list holds at most 100 notifications and never more than limit, oldest first, each with the status asked for (version 1: NEW by default) and the version's subject_type",
  requires: ["semantics"],
  runs: 20,
  async check(context) {
    const { session } = context;
    const as = session.has("control-plane") ? (await busyUnit(session)).credentials : session.credentials;
    const limits = (version: Version) =>
      version === "v1"
        ? fc.integer({ min: 1, max: 100 })
        : fc.oneof(fc.integer({ min: 1, max: 150 }), fc.integer({ min: 1, max: 2_147_483_647 }));
    await context.assert(
      fc.asyncProperty(
        versions.chain((version) =>
          fc.tuple(
            fc.constant(version),
            fc.option(limits(version), { nil: undefined }),
            fc.constantFrom<"NEW" | "ACKNOWLEDGED" | undefined>(undefined, "NEW", "ACKNOWLEDGED"),
          ),
        ),
        async ([version, limit, status]) => {
          const items = await list(session, version, as, { limit, status });
          expectThat(
            items.length <= Math.min(limit ?? 100, 100),
            `${items.length} notifications for limit ${String(limit)}`,
          );
          expectOldestFirst(items, `${version} list`);
          for (const item of items) {
            // Version 0 names no default status: without one, either status may be listed.
            const wanted = status ?? (version === "v1" ? "NEW" : item.status);
            expectThat(
              item.status === wanted,
              `a ${item.status} notification in a ${version} list for ${status ?? "the default status"}`,
            );
            expectThat(
              item.subject_type === (version === "v1" ? "APPLICATION" : "LAND_REGISTER_APPLICATION"),
              `subject_type ${item.subject_type} in ${version}`,
            );
          }
        },
      ),
    );
  },
};

const pagePrefix: Property = {
  id: "notifications.oldest-first-pages",
  rows: ["R087", "R088", "R089", "R137", "R086", "R100", "R076"],
  title:
    "with more than 100 notifications, a list without parameters answers the 100 oldest; limit L answers the first L; created_after of the k-th answers those created after it",
  requires: ["control-plane"],
  runs: 15,
  async check(context) {
    const { session } = context;
    const busy = await busyUnit(session);
    await context.assert(
      fc.asyncProperty(
        versions,
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        fc.nat({ max: 99 }),
        async (version, limit, k) => {
          const order = busy.order[version];
          expectThat(order.length > 100, "the fixture holds more than 100 notifications");
          const page = await list(session, version, busy.credentials, { limit });
          const want = order.slice(0, Math.min(limit ?? 100, 100));
          expectThat(
            page.map((n) => n.notification_id).join() === want.join(),
            () => `limit ${String(limit)}: answered ids are not the oldest ${want.length}`,
          );
          const pivot = page[k];
          if (!pivot) return;
          const next = await list(session, version, busy.credentials, { limit, created_after: pivot.created_datetime });
          const after = order.slice(k + 1, k + 1 + Math.min(limit ?? 100, 100));
          expectThat(
            next.map((n) => n.notification_id).join() === after.join(),
            () => `created_after the ${k}th: answered ${next.length} ids, not the ${after.length} created after it`,
          );
        },
      ),
    );
  },
};

/** A fresh application of `credentials` with its notifications (decided along a legal path). */
async function decidedApplication(
  session: Session,
  credentials: Credentials,
  path: string[],
): Promise<{ id: string; emitted: string[] }> {
  const id = await submit(session, credentials, submission({ documents: 1 }));
  const emitted: string[] = [];
  for (const to of path)
    emitted.push(...(await transition(session, id, { to }, credentials)).notifications.map((n) => n.notification_id));
  return { id, emitted };
}

/** Legal paths through the state machine from VALIDATING, of one to three moves. */
const legalPaths: string[][] = (() => {
  const paths: string[][] = [];
  const walk = (from: string, path: string[]) => {
    if (path.length > 0) paths.push(path);
    if (path.length === 3) return;
    for (const t of transitions.filter((t) => t.from === from)) walk(t.to, [...path, t.to]);
  };
  walk("VALIDATING", []);
  return paths;
})();

const statusFilter: Property = {
  id: "notifications.status-filter",
  rows: ["R078", "R049", "R048", "R012", "R098", "R003", "R083", "R017", "R018"],
  title:
    "after acknowledging a subset, status=NEW (and the default) lists exactly the others, status=ACKNOWLEDGED exactly the subset, in both versions",
  requires: ["control-plane"],
  runs: 20,
  async check(context) {
    const { session } = context;
    const credentials = await session.fixture("status-filter-unit", () => session.newBusinessUnit());
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...legalPaths),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        versions,
        async (path, picks, ackVersion) => {
          const { id, emitted } = await decidedApplication(session, credentials, path);
          const chosen = emitted.filter((_, i) => picks[i % picks.length]);
          const answer = await acknowledge(session, ackVersion, credentials, chosen);
          expectThat(
            [...answer.acknowledged].sort().join() === [...chosen].sort().join(),
            `acknowledged ${JSON.stringify(answer.acknowledged)} for ${JSON.stringify(chosen)}`,
          );
          if (ackVersion === "v0")
            expectThat(answer.not_found?.length === 0, `not_found ${JSON.stringify(answer.not_found)}`);
          const ids = (items: Notification[]) =>
            items
              .map((n) => n.notification_id)
              .sort()
              .join();
          const fresh = emitted
            .filter((n) => !chosen.includes(n))
            .sort()
            .join();
          expectThat(
            ids(await list(session, "v1", credentials, { subject: id })) === fresh,
            "v1 default list is not the NEW notifications",
          );
          expectThat(
            ids(await list(session, "v1", credentials, { subject: id, status: "NEW" })) === fresh,
            "v1 status=NEW is not the unacknowledged notifications",
          );
          expectThat(
            ids(await list(session, "v1", credentials, { subject: id, status: "ACKNOWLEDGED" })) ===
              [...chosen].sort().join(),
            "v1 status=ACKNOWLEDGED is not the acknowledged notifications",
          );
          const v0 = await list(session, "v0", credentials, { subject: id, status: "ACKNOWLEDGED" });
          expectThat(
            v0.every((n) => chosen.includes(n.notification_id)),
            "v0 status=ACKNOWLEDGED lists a notification not acknowledged",
          );
        },
      ),
    );
  },
};

const duplicates: Property = {
  id: "notifications.duplicates",
  rows: ["R091", "R092", "R004", "R006", "R008"],
  title:
    "at-least-once delivery: a duplicate has its own notification_id and shares event_datetime, notification_type, subject and payload; each is acknowledged separately",
  requires: ["control-plane"],
  runs: 15,
  async check(context) {
    const { session } = context;
    const credentials = await session.fixture("duplicates-unit", () => session.newBusinessUnit());
    await settings(session, { duplicate_rate: 1 }, credentials);
    try {
      await context.assert(
        fc.asyncProperty(fc.constantFrom(...legalPaths), versions, async (path, version) => {
          const { id, emitted } = await decidedApplication(session, credentials, path);
          const items = await list(session, version, credentials, { subject: id });
          const ids = new Set(items.map((n) => n.notification_id));
          expectThat(ids.size === items.length, "two listed notifications share a notification_id");
          expectThat(
            items.every((n) => emitted.includes(n.notification_id)),
            "a listed notification was not emitted",
          );
          const groups = new Map<string, Notification[]>();
          for (const item of items) {
            const key = `${item.event_datetime}|${item.notification_type}`;
            groups.set(key, [...(groups.get(key) ?? []), item]);
          }
          for (const [key, group] of groups) {
            expectThat(group.length === 2, `${group.length} deliveries of ${key} with duplicate_rate 1`);
            const [first, second] = group as [Notification, Notification];
            expectThat(
              first.subject === second.subject && JSON.stringify(first.payload) === JSON.stringify(second.payload),
              `duplicates of ${key} differ in subject or payload`,
            );
          }
          // Acknowledging one delivery leaves its duplicate NEW.
          const one = items[0];
          if (!one) return;
          await acknowledge(session, version, credentials, [one.notification_id]);
          const left = await list(session, version, credentials, { subject: id, status: "NEW" });
          expectThat(
            left.length === items.length - 1 && !left.some((n) => n.notification_id === one.notification_id),
            "acknowledging one delivery did not leave exactly its duplicate and the others",
          );
        }),
      );
    } finally {
      await settings(session, { duplicate_rate: 0 }, credentials);
    }
  },
};

const retention: Property = {
  id: "notifications.retention",
  rows: ["R050", "R139"],
  title:
    "a notification is listed for a month after its creation, acknowledged or not, and deleted after (its id then unknown to acknowledge)",
  requires: ["control-plane"],
  runs: 4,
  async check(context) {
    const { session } = context;
    const credentials = await session.fixture("retention-unit", () => session.newBusinessUnit());
    await context.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 27 }), fc.boolean(), async (days, acknowledgeFirst) => {
        const { id, emitted } = await decidedApplication(session, credentials, ["ACCEPTED_PRIORITY_PROTECTED"]);
        const first = String(emitted[0]);
        if (acknowledgeFirst) await acknowledge(session, "v1", credentials, [first]);
        const all = async () => [
          ...(await list(session, "v1", credentials, { subject: id, status: "NEW" })),
          ...(await list(session, "v1", credentials, { subject: id, status: "ACKNOWLEDGED" })),
        ];
        await advanceClock(session, days * 86_400, credentials);
        expectThat((await all()).length === emitted.length, `after ${days} days not every notification is listed`);
        await advanceClock(session, (32 - days) * 86_400, credentials);
        expectThat((await all()).length === 0, "after 32 days a notification is still listed");
        const answer = await acknowledge(session, "v0", credentials, emitted);
        expectThat(
          answer.acknowledged.length === 0 && answer.not_found?.length === emitted.length,
          `expired notifications are still known to acknowledge: ${JSON.stringify(answer)}`,
        );
      }),
    );
  },
};

/** Properties of the notification lists and acknowledgement. */
export const listProperties: Property[] = [
  createdAfterLaterThanBefore,
  acknowledgeLimit,
  listBounds,
  pagePrefix,
  statusFilter,
  duplicates,
  retention,
];
