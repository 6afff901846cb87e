// The registry's behaviour rules, judged across the exchanges of a recording: what no schema says but the registry
// (and the sandbox, which enforces them) does. Operations are known by what the spec says of them (the notification
// services by their tag, the Poll Request Service by its `message_id` path parameter), never by an operationId.
// Date-time forms are the schemas' patterns, judged with each exchange; a problem code outside the catalogue likewise.
import { NOTIFICATION_PAGE_SIZE, type Operation } from "@lrg/spec";
import { clockStated, RecordedClock } from "@lrg/spec/sandbox-clock";
import type { Finding, Judged, Side } from "./exchange-checks.js";

type Rule = (exchanges: readonly Judged[]) => Finding[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isNotifications = (operation: Operation | undefined) => operation?.tags.includes("notifications") === true;
const isListing = (judged: Judged) => isNotifications(judged.operation) && judged.operation?.method === "GET";
const isAcknowledgement = (judged: Judged) => isNotifications(judged.operation) && judged.operation?.method === "POST";
const isPoll = (judged: Judged) =>
  judged.operation?.method === "GET" &&
  judged.operation.parameters.some((p) => p.in === "path" && p.name === "message_id");

function finding(judged: Judged, side: Side, rule: string, pointer: string, message: string): Finding {
  return {
    exchange: judged.exchange.index,
    operation: judged.operation?.operationId ?? null,
    side,
    rule,
    pointer,
    message,
  };
}

/** The items of a list answer (`{ data: [...] }`), or none. */
function itemsOf(answer: unknown): Record<string, unknown>[] {
  const data = isObject(answer) ? answer["data"] : undefined;
  return Array.isArray(data) ? data.filter(isObject) : [];
}

/** A registry date-time as an instant: the registry writes some without a zone, read as UTC. */
function instantOf(value: unknown): number {
  if (typeof value !== "string") return Number.NaN;
  return Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`);
}

/** A list answers at most `limit` notifications (as asked, or its default) and never more than a page. */
const pageSize: Rule = (exchanges) =>
  exchanges.filter(isListing).flatMap((judged) => {
    if (judged.exchange.status !== 200) return [];
    const asked = Number(judged.request?.query["limit"] ?? NOTIFICATION_PAGE_SIZE);
    const most = Math.min(Number.isFinite(asked) ? asked : NOTIFICATION_PAGE_SIZE, NOTIFICATION_PAGE_SIZE);
    const count = itemsOf(judged.answer).length;
    return count > most
      ? [
          finding(
            judged,
            "registry",
            "page-size",
            "/response/body/data",
            `${count} notifications answered; at most ${most} (limit ${asked}, a page holds ${NOTIFICATION_PAGE_SIZE})`,
          ),
        ]
      : [];
  });

/** A list answers oldest first, by `created_datetime`. */
const order: Rule = (exchanges) =>
  exchanges.filter(isListing).flatMap((judged) => {
    const items = itemsOf(judged.answer);
    for (let i = 1; i < items.length; i += 1) {
      const before = instantOf(items[i - 1]?.["created_datetime"]);
      const now = instantOf(items[i]?.["created_datetime"]);
      if (now < before)
        return [
          finding(
            judged,
            "registry",
            "order",
            `/response/body/data/${i}/created_datetime`,
            `notification ${i} was created before notification ${i - 1}: a list answers oldest first`,
          ),
        ];
    }
    return [];
  });

/** A notification acknowledged (answered 200) is not answered again as NEW: acknowledging is for good. */
const acknowledgedSeenAgain: Rule = (exchanges) => {
  const acknowledged = new Map<string, number>();
  const found: Finding[] = [];
  for (const judged of exchanges) {
    if (isAcknowledgement(judged) && judged.exchange.status === 200) {
      const data = isObject(judged.answer) ? judged.answer["data"] : undefined;
      const ids = isObject(data) && Array.isArray(data["acknowledged"]) ? data["acknowledged"] : [];
      for (const id of ids)
        if (typeof id === "string" && !acknowledged.has(id)) acknowledged.set(id, judged.exchange.index);
    }
    if (isListing(judged))
      itemsOf(judged.answer).forEach((item, i) => {
        const id = item["notification_id"];
        const when = typeof id === "string" ? acknowledged.get(id) : undefined;
        if (when !== undefined && item["status"] === "NEW")
          found.push(
            finding(
              judged,
              "registry",
              "acknowledged-seen-again",
              `/response/body/data/${i}`,
              `notification ${String(id)} was acknowledged in exchange ${when} and is answered NEW again`,
            ),
          );
      });
  }
  return found;
};

/** The seconds a Retry-After header asks for (seconds, or an HTTP date counted from `answeredMs`), or undefined. */
function retryAfterSeconds(value: string | undefined, answeredMs: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - answeredMs) / 1000);
}

/** A 429 or 503 says when to try again (Retry-After). */
const retryAfterGiven: Rule = (exchanges) =>
  exchanges
    .filter(
      (judged) => judged.operation !== undefined && (judged.exchange.status === 429 || judged.exchange.status === 503),
    )
    .filter(
      (judged) =>
        retryAfterSeconds(judged.exchange.responseHeaders["retry-after"], judged.exchange.answeredMs) === undefined,
    )
    .map((judged) =>
      finding(
        judged,
        "registry",
        "retry-after",
        "/response/headers/retry-after",
        `${judged.exchange.status} answered without a Retry-After of seconds or a date`,
      ),
    );

/** What a request is retried as: the same caller's same operation on the same path (the same poll, application). */
const retryKey = (judged: Judged) =>
  `${judged.exchange.caller ?? ""} ${judged.exchange.method} ${judged.exchange.pathname}`;

/** A wait asked for: the same request no sooner than `recordedMs` by the recording's clock, `registryMs` by the registry's. */
interface Wait {
  recordedMs: number;
  registryMs: number;
  index: number;
  seconds: number;
}

/**
 * No wait shorter than asked: after an answer with Retry-After (a 429, a 503, a poll answered 202), the software sends
 * the same request again no sooner than it says; after a deferred search (202), the poll of its message_id. A wait is
 * kept when it ran out by the recording's clock or by the registry's as the recording shows it (`RecordedClock`: the
 * sandbox's clock where the recording holds its answers, as the readiness judges time a recording): a client waits in
 * the sandbox by moving its clock, and another unit's clock moved meanwhile says nothing of this caller's wait.
 */
const retryTooSoon: Rule = (exchanges) => {
  const polls = new Map<string, Set<string>>();
  for (const judged of exchanges) {
    const messageId = isPoll(judged) ? messageIdOf(judged) : undefined;
    if (typeof messageId !== "string") continue;
    const search = searchKey(judged, messageId);
    polls.set(search, (polls.get(search) ?? new Set()).add(retryKey(judged)));
  }
  const clock = new RecordedClock();
  const notBefore = new Map<string, Wait>();
  const found: Finding[] = [];
  for (const judged of exchanges) {
    const { exchange, operation } = judged;
    const sentMs = clock.at(exchange.startedMs);
    const answeredMs = clock.at(
      exchange.answeredMs,
      operation && clockStated(operation.operationId, exchange.status, judged.answer),
    );
    if (operation === undefined) continue;
    const key = retryKey(judged);
    const wait = notBefore.get(key);
    if (wait !== undefined && exchange.startedMs < wait.recordedMs && sentMs < wait.registryMs)
      found.push(
        finding(
          judged,
          "software",
          "retry-too-soon",
          "/request",
          `sent ${(Math.min(wait.recordedMs - exchange.startedMs, wait.registryMs - sentMs) / 1000).toFixed(3)} s before the Retry-After of ${wait.seconds} s given in exchange ${wait.index} ran out`,
        ),
      );
    notBefore.delete(key);
    const seconds = retryAfterSeconds(exchange.responseHeaders["retry-after"], exchange.answeredMs);
    if (seconds === undefined || ![202, 429, 503].includes(exchange.status)) continue;
    const entry = {
      recordedMs: exchange.answeredMs + seconds * 1000,
      registryMs: answeredMs + seconds * 1000,
      index: exchange.index,
      seconds,
    };
    // A deferred search is fetched by its poll: the wait holds for the poll of its message_id, not for other searches.
    const deferred = isPoll(judged) ? undefined : deferral(judged);
    if (deferred === undefined) notBefore.set(key, entry);
    else for (const poll of polls.get(searchKey(judged, deferred.messageId)) ?? []) notBefore.set(poll, entry);
  }
  return found;
};

/** A search of one caller, by its message_id (a message_id is the caller's own: another's is not found). */
const searchKey = (judged: Judged, messageId: string): string => `${judged.exchange.caller ?? ""} ${messageId}`;

/** The deferral an answer gives (202 with `data.message_id` and `acknowledgement_code`), if it is one. */
function deferral(judged: Judged): { messageId: string; id: unknown; expected: unknown } | undefined {
  if (judged.exchange.status !== 202 || !isObject(judged.answer)) return undefined;
  const data = judged.answer["data"];
  if (!isObject(data) || typeof data["message_id"] !== "string" || data["acknowledgement_code"] === undefined)
    return undefined;
  return { messageId: data["message_id"], id: data["id"], expected: data["expected_response_at"] };
}

const messageIdOf = (judged: Judged) => judged.request?.params["message_id"];

/**
 * A deferred official search (202, BG20001 or BG20002) is fetched by its poll: the same caller's poll of its message_id
 * answers the result with the same `id` (200), or the same deferral while it is pending (202), never 404.
 */
const deferredSearches: Rule = (exchanges) => {
  const deferred = new Map<string, { id: unknown; index: number }>();
  const found: Finding[] = [];
  for (const judged of exchanges) {
    const given = deferral(judged);
    const searched = given && searchKey(judged, given.messageId);
    if (given !== undefined && searched !== undefined && !isPoll(judged) && !deferred.has(searched))
      deferred.set(searched, { id: given.id, index: judged.exchange.index });
    if (!isPoll(judged)) continue;
    const messageId = messageIdOf(judged);
    const search = typeof messageId === "string" ? deferred.get(searchKey(judged, messageId)) : undefined;
    if (search === undefined) continue;
    const status = judged.exchange.status;
    if (status === 404)
      found.push(
        finding(
          judged,
          "registry",
          "deferred-search",
          "/response/status",
          `the search deferred in exchange ${search.index} is not found by its poll (404)`,
        ),
      );
    const data = isObject(judged.answer) ? judged.answer["data"] : undefined;
    if ((status === 200 || status === 202) && isObject(data) && search.id !== undefined && data["id"] !== search.id)
      found.push(
        finding(
          judged,
          "registry",
          "deferred-search",
          "/response/body/data/id",
          `the poll answers id ${String(data["id"])}, the search deferred in exchange ${search.index} gave ${String(search.id)}`,
        ),
      );
  }
  return found;
};

/** Every behaviour rule, in the order their findings are reported. */
export const behaviourRules: readonly Rule[] = [
  pageSize,
  order,
  acknowledgedSeenAgain,
  retryAfterGiven,
  retryTooSoon,
  deferredSearches,
];
