// Title enquiry services: official copy availability and proprietor names for any title number, the official
// search's message_id (unique per user, then the key of the Poll Request Service), and deferred results.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { advanceClock, errorOf, expectStatus, expectThat, fail, readClock } from "../../driver.js";
import type { Property } from "../../property.js";
import { setTimeout as sleep } from "node:timers/promises";
import type { Answer, Credentials, Session } from "../../session.js";
import { componentSchema, errorCodeFor, operationFor, type Operation, type SpecNode } from "@lrg/spec";

/** The title numbers the lookups take in their path (upper case only). */
const TITLE_PATTERN = new RegExp(String(componentSchema("TitleNumberUpperCase")["pattern"]));
const titleNumbers = fc.oneof(fc.constantFrom("ZZ100001", "ZZ100011", "ZZ100006"), fc.stringMatching(TITLE_PATTERN));

/** The official search of whole, as the spec holds it at the registry's address. */
const search = operationFor("POST", "/api/v1/official-searches-of-whole") as Operation;

/** The request examples of the official search in the spec. */
const searchExamples = Object.values(
  ((search.operation["requestBody"] as SpecNode)["content"] as Record<string, SpecNode>)["application/json"]?.[
    "examples"
  ] as Record<string, { value: Record<string, unknown> }>,
).map((example) => example.value);
const registeredTitle = searchExamples[0] as Record<string, unknown>;

/** A unit of its own for title enquiries on the gateway, so their rate limit is not shared with other properties. */
async function enquirer(session: Session): Promise<Credentials> {
  return session.has("control-plane")
    ? session.fixture("title-enquiry-unit", () => session.newBusinessUnit())
    : session.credentials;
}

/**
 * A lookup that honours the rate limit of the title services: after a 429 it waits Retry-After seconds (on the
 * gateway by moving the clock of the asking unit, which its token buckets follow) and asks again.
 */
async function lookUp(
  session: Session,
  path: string,
  as: Credentials,
  method = "GET",
  json?: unknown,
): Promise<Answer> {
  for (;;) {
    const answer = await session.call(method, path, { as, ...(json === undefined ? {} : { json }) });
    if (answer.status !== 429) return answer;
    const seconds = Number(answer.headers["retry-after"] ?? 1);
    if (session.has("control-plane")) await advanceClock(session, seconds, as);
    else await sleep(seconds * 1000);
  }
}

const lookups: Property = {
  id: "title-enquiries.lookups",
  rows: ["R052", "R053", "R148", "R105"],
  title:
    "official copy availability and registered proprietor names answer 200 for a title on the register (naming that title) and 404 for any other number that matches the pattern (the names 423 out of the service hours, on a target whose clock the suite does not set)",
  requires: ["writes"],
  runs: 15,
  async check(context) {
    const { session } = context;
    const as = await enquirer(session);
    await context.assert(
      fc.asyncProperty(titleNumbers, fc.constantFrom("s1", "s2"), async (titleNumber, service) => {
        const path =
          service === "s1"
            ? `/s1/v1/titles/${titleNumber}/official-copies/availability`
            : `/s2/v1/titles/${titleNumber}/registered-proprietor-names`;
        const answer = await lookUp(session, path, as);
        // The suite sets the gateway's service hours to always-open; the registry keeps its own.
        const outOfHours = service === "s2" && answer.status === 423 && !session.has("control-plane");
        expectThat(answer.status === 200 || answer.status === 404 || outOfHours, `${path} answered ${answer.status}`);
        if (answer.status === 200 && session.has("semantics")) {
          expectThat(
            (answer.body as { data: { title_number: string } }).data.title_number === titleNumber,
            `${path} answered title ${answer.text.slice(0, 200)}`,
          );
        }
      }),
    );
  },
};

const messageIds: Property = {
  id: "title-enquiries.message-id",
  rows: ["R001", "R002", "R051", "R148"],
  title:
    "an official search's message_id is unique per user: a second search with it is refused with 409 (the registry's BG40011), and the Poll Request Service answers the search by it",
  requires: ["writes", "semantics"],
  runs: 6,
  async check(context) {
    const { session } = context;
    const as = await enquirer(session);
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...searchExamples.filter((e) => e["title_number"] !== "ZZ100002")),
        async (example) => {
          const messageId = `c-${randomUUID()}`;
          const first = await session.call("POST", "/api/v1/official-searches-of-whole", {
            as,
            json: { ...example, message_id: messageId },
          });
          expectThat(
            first.status === 201 || first.status === 202,
            `the first search with ${messageId} answered ${first.status}: ${first.text.slice(0, 300)}`,
          );
          expectThat(
            first.headers["location"] === `/api/v1/poll-requests/${messageId}`,
            `Location ${String(first.headers["location"])}`,
          );
          const again = await session.call("POST", "/api/v1/official-searches-of-whole", {
            as,
            json: { ...example, message_id: messageId },
          });
          expectStatus(again, 409, "a second search with the same message_id");
          expectThat(errorOf(again).code === errorCodeFor(search, "409-02"), `problem ${again.text}`);
          const poll = await session.call("GET", `/api/v1/poll-requests/${messageId}`, { as });
          expectThat(
            poll.status === (first.status === 201 ? 200 : 202),
            `poll answered ${poll.status} for a search answered ${first.status}`,
          );
          const other = await session.call("GET", `/api/v1/poll-requests/${messageId}`, {
            as: session.has("control-plane") ? session.credentials : as,
          });
          if (session.has("control-plane")) expectStatus(other, 404, "another user's poll request");
        },
      ),
    );
  },
};

const deferred: Property = {
  id: "title-enquiries.deferred-result",
  rows: ["R002", "R051"],
  title:
    "a search out of the service hours is answered 202 with the poll address; polling answers 202 until the hours resume, then 200 with the result",
  requires: ["control-plane"],
  runs: 3,
  async check(context) {
    const { session } = context;
    const as = await enquirer(session);
    await keepingClock(session, as, () =>
      context.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 60 }), async (minutesAfterClose) => {
          // 23:00 London time (BST) on 1 April 2025 is the close of the service hours; they resume at 06:30.
          const closed = Date.UTC(2025, 3, 1, 22, 0) + minutesAfterClose * 60_000 + 60_000;
          await session.control("PUT", "/sandbox/v1/clock", { now: new Date(closed).toISOString() }, { as });
          const messageId = `d-${randomUUID()}`;
          const search = await session.call("POST", "/api/v1/official-searches-of-whole", {
            as,
            json: { ...registeredTitle, message_id: messageId },
          });
          expectStatus(search, 202, "a search out of hours");
          const poll = String(search.headers["location"]);
          expectStatus(await session.call("GET", poll, { as }), 202, "polling before the hours resume");
          await advanceClock(session, Math.ceil((Date.UTC(2025, 3, 2, 5, 31) - closed) / 1000), as);
          const result = await session.call("GET", poll, { as });
          expectStatus(result, 200, "polling after the hours resumed");
          expectThat(
            (result.body as { data: { message_id?: string } }).data.message_id === messageId,
            "the polled result is not the search's",
          );
        }),
      ),
    );
  },
};

/**
 * The registry's own code of an error answer, in whichever shape it comes: the `rule` of the gateway's
 * problem+json, or the first item of the registry's `{errors: [...]}` envelopes (`error_code` or `code`).
 */
function registryCode(answer: Answer): string | undefined {
  const body = answer.body as { rule?: string; errors?: { error_code?: string; code?: string }[] } | undefined;
  return body?.rule ?? body?.errors?.[0]?.error_code ?? body?.errors?.[0]?.code;
}

/** London wall-clock time of an instant, `HH:MM`. */
const londonTime = (ms: number) =>
  new Date(ms).toLocaleTimeString("en-GB", {
    timeZone: "Europe/London",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });

/** Puts the clock of business unit `unit` back to real time plus the offset it had, whatever the check did. */
async function keepingClock(session: Session, unit: Credentials, check: () => Promise<void>): Promise<void> {
  const realOffset = (await readClock(session, unit)) - Date.now();
  try {
    await check();
  } finally {
    await session.control(
      "PUT",
      "/sandbox/v1/clock",
      { now: new Date(Date.now() + realOffset).toISOString() },
      { as: unit },
    );
  }
}

const names = (title: string) => `/s2/v1/titles/${title}/registered-proprietor-names`;
const copies = (title: string) => `/s1/v1/titles/${title}/official-copies/availability`;

const serviceHours: Property = {
  id: "title-enquiries.service-hours",
  rows: ["R180"],
  title:
    "registered proprietor names answer 423 (BG50003) with Retry-After up to 06:30 outside 06:30 to 23:00 London time and 200 inside them, official copy availability at any hour; with the sandbox setting service_hours always-open the names answer at any hour",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 24 * 60 - 1 }),
        fc.constantFrom("enforced", "always-open"),
        async (minute, mode) => {
          // A unit of its own (a rate-limit window of its own), its setting and its clock: nothing to put back.
          const as = await session.newBusinessUnit();
          await session.control("PUT", "/sandbox/v1/settings", { service_hours: mode }, { as });
          // London midnight of Wednesday 2 April 2025 (BST) is 23:00 UTC the day before.
          const now = Date.UTC(2025, 3, 1, 23, 0) + minute * 60_000;
          await session.control("PUT", "/sandbox/v1/clock", { now: new Date(now).toISOString() }, { as });
          const open = minute >= 6 * 60 + 30 && minute < 23 * 60;
          const answer = await session.call("GET", names("ZZ100001"), { as });
          if (open || mode === "always-open")
            expectStatus(answer, 200, `the names at ${londonTime(now)} London time, service_hours ${mode}`);
          else {
            expectStatus(answer, 423, `the names at ${londonTime(now)} London time`);
            expectThat(
              registryCode(answer) === "BG50003",
              `the 423 names ${String(registryCode(answer))}, not BG50003: ${answer.text.slice(0, 300)}`,
            );
            const retryAfter = Number(answer.headers["retry-after"]);
            // Counted from when the gateway answered, by the unit's clock: seconds after the instant set above on a
            // loaded machine, so read it after the answer (a Retry-After is rounded up: it lands within 06:30).
            const answeredBy = await readClock(session, as);
            expectThat(
              londonTime(answeredBy + retryAfter * 1000) === "06:30",
              `Retry-After ${retryAfter} at ${londonTime(answeredBy)} does not reach 06:30`,
            );
          }
          expectStatus(
            await session.call("GET", copies("ZZ100001"), { as }),
            200,
            `official copy availability at ${londonTime(now)} London time`,
          );
        },
      ),
    );
  },
};

/**
 * Asks until the first 429 (at most `cap` times); answers the answers before it, the 429 and the seconds the
 * gateway's clock moved meanwhile (the windows refill with it, so a burst may get a little more than the limit).
 */
async function burst(session: Session, path: string, as: Credentials, cap: number) {
  const started = await readClock(session, as);
  const allowed: Answer[] = [];
  for (let i = 0; i < cap; i += 1) {
    const answer = await session.call("GET", path, { as });
    if (answer.status === 429)
      return { allowed, limited: answer, elapsedSeconds: ((await readClock(session, as)) - started) / 1000 };
    expectThat(
      answer.status === 200 || answer.status === 404,
      `${path} answered ${answer.status} within the rate limit`,
    );
    allowed.push(answer);
  }
  return fail(`${cap} requests to ${path} and no 429`);
}

/** A 429 of the title look-ups: the registry's BG40006 and a Retry-After of `low` to `high` seconds. */
function expectRateLimited(answer: Answer, low: number, high: number): number {
  expectThat(
    registryCode(answer) === "BG40006",
    `the 429 names ${String(registryCode(answer))}, not BG40006: ${answer.text.slice(0, 300)}`,
  );
  const retryAfter = Number(answer.headers["retry-after"]);
  expectThat(
    retryAfter >= low && retryAfter <= high,
    `Retry-After ${String(answer.headers["retry-after"])} is not ${low} to ${high}`,
  );
  return retryAfter;
}

const namesRateLimit: Property = {
  id: "title-enquiries.names-rate-limit",
  rows: ["R181"],
  title:
    "registered proprietor names allow 6 requests a minute per user: a burst of 6 is answered, the next is 429 (BG40006) with Retry-After, and after Retry-After seconds on the gateway's clock the user is answered again",
  requires: ["control-plane"],
  runs: 3,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(fc.constantFrom("ZZ100001", "ZZ100006", "ZZ100010"), async (title) => {
        const as = await session.newBusinessUnit();
        const { allowed, limited, elapsedSeconds } = await burst(session, names(title), as, 30);
        expectThat(
          allowed.length >= 6 && allowed.length <= 6 + Math.floor(elapsedSeconds / 10),
          `${allowed.length} requests answered before the 429 in ${elapsedSeconds} s`,
        );
        const retryAfter = expectRateLimited(limited, 1, 10);
        expectThat(
          (await session.call("GET", names(title), { as: await session.newBusinessUnit() })).status !== 429,
          "another user was refused by this user's limit",
        );
        await advanceClock(session, retryAfter, as);
        const again = await session.call("GET", names(title), { as });
        expectThat(again.status !== 429, `after Retry-After (${retryAfter} s) the user is still refused`);
      }),
    );
  },
};

const RATE_LIMIT_HEADERS = [
  "x-ratelimit-burst-capacity",
  "x-ratelimit-replenish-rate",
  "x-ratelimit-requested-tokens",
  "x-ratelimit-remaining",
] as const;

const availabilityRateLimit: Property = {
  id: "title-enquiries.availability-rate-limit",
  rows: ["R182"],
  title:
    "official copy availability allows 75 requests a minute per business unit, each 200 stating the window in X-RateLimit-* headers (burst capacity ÷ requested tokens = 75); the next is 429 (BG40006), answered again after Retry-After seconds on the gateway's clock",
  requires: ["control-plane"],
  runs: 1,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(fc.constantFrom("ZZ100001", "ZZ100010"), async (title) => {
        const as = await session.newBusinessUnit();
        const { allowed, limited, elapsedSeconds } = await burst(session, copies(title), as, 300);
        for (const answer of allowed.filter((a) => a.status === 200)) {
          const [capacity, rate, requested, remaining] = RATE_LIMIT_HEADERS.map((name) => Number(answer.headers[name]));
          expectThat(
            [capacity, rate, requested, remaining].every((n) => Number.isInteger(n) && n !== undefined && n >= 0),
            `X-RateLimit-* headers ${JSON.stringify(answer.headers)}`,
          );
          expectThat(
            capacity === 75 * Number(requested) && Number(remaining) <= Number(capacity) - Number(requested),
            `a window of ${capacity}/${requested}, ${remaining} left`,
          );
        }
        expectThat(
          allowed.length >= 75 && allowed.length <= 75 + Math.floor(elapsedSeconds / 0.8),
          `${allowed.length} requests answered before the 429 in ${elapsedSeconds} s`,
        );
        const retryAfter = expectRateLimited(limited, 1, 60);
        await advanceClock(session, retryAfter, as);
        expectThat(
          (await session.call("GET", copies(title), { as })).status !== 429,
          `after Retry-After (${retryAfter} s) the business unit is still refused`,
        );
      }),
    );
  },
};

const clientCertificate: Property = {
  id: "title-enquiries.client-certificate",
  rows: ["R103"],
  title:
    "over plain HTTP every title enquiry answers 403 (the registry's BG40005) while the sandbox setting require_client_certificate is true, the other services answer as usual, and with the setting false the title enquiries answer",
  requires: ["control-plane"],
  runs: 4,
  async check(context) {
    const { session } = context;
    // Only a plain HTTP target shows it; over HTTPS the suite's session presents whatever certificate it was given.
    if (new URL(session.baseUrl).protocol !== "http:") return;
    const as = await enquirer(session);
    const requests: [string, string, () => unknown][] = [
      ["GET", copies("ZZ100001"), () => undefined],
      ["GET", names("ZZ100001"), () => undefined],
      ["GET", "/api/v1/poll-requests/never-used-0001", () => undefined],
      ["POST", "/api/v1/official-searches-of-whole", () => ({ ...registeredTitle, message_id: `m-${randomUUID()}` })],
    ];
    await context.assert(
      fc.asyncProperty(fc.constantFrom(...requests), async ([method, path, body]) => {
        const json = body();
        await session.control("PUT", "/sandbox/v1/settings", { require_client_certificate: true }, { as });
        const refused = await session.call(method, path, { as, ...(json === undefined ? {} : { json }) });
        expectStatus(refused, 403, `${method} ${path} over plain HTTP`);
        expectThat(registryCode(refused) === "BG40005", `the 403 is ${refused.text.slice(0, 300)}`);
        expectStatus(await session.call("GET", "/v1/notifications", { as }), 200, "the notifications over plain HTTP");
        await session.control("PUT", "/sandbox/v1/settings", { require_client_certificate: false }, { as });
        const answered = await lookUp(session, path, as, method, json);
        expectThat(answered.status !== 403, `${method} ${path} answered 403 with require_client_certificate false`);
      }),
    );
  },
};

/** Title enquiry properties. */
export const titleEnquiryProperties: Property[] = [
  lookups,
  messageIds,
  deferred,
  serviceHours,
  namesRateLimit,
  availabilityRateLimit,
  clientCertificate,
];
