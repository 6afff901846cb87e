// Title enquiry services: official copy availability and proprietor names for any title number, the official
// search's message_id (unique per user, then the key of the Poll Request Service), and deferred results.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { advanceClock, errorOf, expectStatus, expectThat, readClock } from "../driver.js";
import type { Property } from "../property.js";
import { setTimeout as sleep } from "node:timers/promises";
import type { Answer, Credentials, Session } from "../session.js";
import { componentSchema, errorCodeFor, operationById, type SpecNode } from "../spec.js";

/** The title numbers the lookups take in their path (upper case only). */
const TITLE_PATTERN = new RegExp(String(componentSchema("TitleNumberUpperCase")["pattern"]));
const titleNumbers = fc.oneof(fc.constantFrom("ZZ100001", "ZZ100011", "ZZ100006"), fc.stringMatching(TITLE_PATTERN));

/** The request examples of the official search in the spec. */
const searchExamples = Object.values(
  ((operationById("officialSearchOfWhole").operation["requestBody"] as SpecNode)["content"] as Record<string, SpecNode>)["application/json"]?.["examples"] as Record<string, { value: Record<string, unknown> }>,
).map((example) => example.value);
const registeredTitle = searchExamples[0] as Record<string, unknown>;

/** A unit of its own for title enquiries on the gateway, so their rate limit is not shared with other properties. */
async function enquirer(session: Session): Promise<Credentials> {
  return session.has("control-plane") ? session.fixture("title-enquiry-unit", () => session.newBusinessUnit()) : session.credentials;
}

/**
 * A lookup that honours the rate limit of the title services: after a 429 it waits Retry-After seconds (on the
 * gateway by moving its clock, which the token buckets follow) and asks again.
 */
async function lookUp(session: Session, path: string, as: Credentials): Promise<Answer> {
  for (;;) {
    const answer = await session.call("GET", path, { as });
    if (answer.status !== 429) return answer;
    const seconds = Number(answer.headers["retry-after"] ?? 1);
    if (session.has("control-plane")) await advanceClock(session, seconds);
    else await sleep(seconds * 1000);
  }
}

const lookups: Property = {
  id: "title-enquiries.lookups",
  rows: ["R052", "R053", "R148", "R105"],
  title: "official copy availability and registered proprietor names answer 200 for a title on the register (naming that title) and 404 for any other number that matches the pattern",
  requires: ["writes"],
  runs: 15,
  async check(context) {
    const { session } = context;
    const as = await enquirer(session);
    await context.assert(
      fc.asyncProperty(titleNumbers, fc.constantFrom("s1", "s2"), async (titleNumber, service) => {
        const path = service === "s1" ? `/s1/v1/titles/${titleNumber}/official-copies/availability` : `/s2/v1/titles/${titleNumber}/registered-proprietor-names`;
        const answer = await lookUp(session, path, as);
        expectThat(answer.status === 200 || answer.status === 404, `${path} answered ${answer.status}`);
        if (answer.status === 200 && session.has("semantics")) {
          expectThat((answer.body as { data: { title_number: string } }).data.title_number === titleNumber, `${path} answered title ${answer.text.slice(0, 200)}`);
        }
      }),
    );
  },
};

const messageIds: Property = {
  id: "title-enquiries.message-id",
  rows: ["R001", "R002", "R051", "R148"],
  title: "an official search's message_id is unique per user: a second search with it is refused with 409 (the registry's BG40011), and the Poll Request Service answers the search by it",
  requires: ["writes", "semantics"],
  runs: 6,
  async check(context) {
    const { session } = context;
    const as = await enquirer(session);
    await context.assert(
      fc.asyncProperty(fc.constantFrom(...searchExamples.filter((e) => e["title_number"] !== "ZZ100002")), async (example) => {
        const messageId = `c-${randomUUID()}`;
        const first = await session.call("POST", "/api/v1/official-searches-of-whole", { as, json: { ...example, message_id: messageId } });
        expectThat(first.status === 201 || first.status === 202, `the first search with ${messageId} answered ${first.status}: ${first.text.slice(0, 300)}`);
        expectThat(first.headers["location"] === `/api/v1/poll-requests/${messageId}`, `Location ${String(first.headers["location"])}`);
        const again = await session.call("POST", "/api/v1/official-searches-of-whole", { as, json: { ...example, message_id: messageId } });
        expectStatus(again, 409, "a second search with the same message_id");
        expectThat(errorOf(again).code === errorCodeFor(operationById("officialSearchOfWhole"), "409-02"), `problem ${again.text}`);
        const poll = await session.call("GET", `/api/v1/poll-requests/${messageId}`, { as });
        expectThat(poll.status === (first.status === 201 ? 200 : 202), `poll answered ${poll.status} for a search answered ${first.status}`);
        const other = await session.call("GET", `/api/v1/poll-requests/${messageId}`, { as: session.has("control-plane") ? session.credentials : as });
        if (session.has("control-plane")) expectStatus(other, 404, "another user's poll request");
      }),
    );
  },
};

const deferred: Property = {
  id: "title-enquiries.deferred-result",
  rows: ["R002", "R051"],
  title: "a search out of the service hours is answered 202 with the poll address; polling answers 202 until the hours resume, then 200 with the result",
  requires: ["control-plane"],
  runs: 3,
  async check(context) {
    const { session } = context;
    const as = await enquirer(session);
    const realOffset = (await readClock(session)) - Date.now();
    try {
      await context.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 60 }), async (minutesAfterClose) => {
          // 23:00 London time (BST) on 1 April 2025 is the close of the service hours; they resume at 06:30.
          const closed = Date.UTC(2025, 3, 1, 22, 0) + minutesAfterClose * 60_000 + 60_000;
          await session.control("PUT", "/sandbox/v1/clock", { now: new Date(closed).toISOString() });
          const messageId = `d-${randomUUID()}`;
          const search = await session.call("POST", "/api/v1/official-searches-of-whole", { as, json: { ...registeredTitle, message_id: messageId } });
          expectStatus(search, 202, "a search out of hours");
          const poll = String(search.headers["location"]);
          expectStatus(await session.call("GET", poll, { as }), 202, "polling before the hours resume");
          await advanceClock(session, Math.ceil((Date.UTC(2025, 3, 2, 5, 31) - closed) / 1000));
          const result = await session.call("GET", poll, { as });
          expectStatus(result, 200, "polling after the hours resumed");
          expectThat((result.body as { data: { message_id?: string } }).data.message_id === messageId, "the polled result is not the search's");
        }),
      );
    } finally {
      await session.control("PUT", "/sandbox/v1/clock", { now: new Date(Date.now() + realOffset).toISOString() });
    }
  },
};

/** Title enquiry properties. */
export const titleEnquiryProperties: Property[] = [lookups, messageIds, deferred];
