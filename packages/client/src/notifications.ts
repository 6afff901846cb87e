import type { WorkflowContext } from "./context.js";
import { formatQueryDateTime, tryParseRegistryDateTime } from "./date-time.js";
import { GatewayError, errorFromResponse } from "./errors.js";
import { MAX_ACKNOWLEDGE_IDS, NOTIFICATION_PAGE_SIZE } from "@lrg/spec/constants";
import type { components, operations } from "@lrg/spec/types/openapi";

/** The registry's two notification interfaces: `v0` (upper-case types, `occured_*`) and `v1` (dotted types). */
export type NotificationVersion = "v0" | "v1";
export type NotificationV0 = components["schemas"]["NotificationV0"];
export type NotificationV1 = components["schemas"]["NotificationV1"];
/** The notification of a version. */
export type NotificationOf<V extends NotificationVersion> = V extends "v0" ? NotificationV0 : NotificationV1;

type ListQuery<V extends NotificationVersion> = NonNullable<
  (V extends "v0" ? operations["listNotificationsV0"] : operations["listNotificationsV1"])["parameters"]["query"]
>;

/** The list filters of a version, except the ones the paging owns (`created_after`, `limit`). */
export type NotificationFilters<V extends NotificationVersion> = Omit<ListQuery<V>, "created_after" | "limit">;

/** Options of {@link listAllNotifications}: a version (default `v1`), a starting point, and the list filters. */
export type ListAllOptions<V extends NotificationVersion> = NotificationFilters<V> & {
  readonly version?: V;
  /**
   * Only notifications created after this instant (exclusive), as the registry's `created_after`. Sent as zone-less
   * UTC (see `formatQueryDateTime`); a string in any registry shape is rewritten so, one that is not is sent as is.
   */
  readonly since?: string | Date;
  readonly signal?: AbortSignal;
};

/** Options of {@link acknowledgeNotifications}. */
export interface AcknowledgeOptions<V extends NotificationVersion> {
  readonly version?: V;
  readonly signal?: AbortSignal;
}

/** What was acknowledged, the same for both versions. */
export interface AcknowledgeResult {
  /** The ids now acknowledged (ids acknowledged before included). */
  readonly acknowledged: string[];
  /** The ids the registry does not know for this business unit (for v1, the ids it left out of `acknowledged`). */
  readonly not_found: string[];
}

/** One event: a notification and every duplicate delivery of it. */
export interface NotificationEvent<N> {
  /** What makes deliveries duplicates: `event_datetime` (normalised), `notification_type` and `subject`. */
  readonly key: string;
  /** The first delivery seen. */
  readonly notification: N;
  /** Every delivery of the event in this batch, the first included. All are acknowledged together. */
  readonly notifications: readonly N[];
}

/** Options of {@link consumeNotifications}: those of `listAll`, except `status` (only NEW ones are consumed). */
export type ConsumeOptions<V extends NotificationVersion> = Omit<ListAllOptions<V>, "status">;

/** What one run of {@link consumeNotifications} did. */
export interface ConsumeSummary {
  /** Events handed to the handler (each once). */
  readonly events: number;
  /** Notifications received, duplicates included. */
  readonly notifications: number;
  /** Notifications acknowledged. */
  readonly acknowledged: number;
}

/** The most notifications the registry answers a page (the spec's bound). */
export { NOTIFICATION_PAGE_SIZE };
/** The most ids the registry acknowledges a call (the spec's bound). */
export const ACKNOWLEDGE_CHUNK_SIZE = MAX_ACKNOWLEDGE_IDS;

/** How many handled events a consume run remembers to recognise a duplicate delivered on a later page. */
const REMEMBERED_EVENTS = 10_000;

type AnyNotification = NotificationV0 | NotificationV1;

function instantOf(value: string): number | undefined {
  return tryParseRegistryDateTime(value)?.getTime();
}

/** The key that duplicate deliveries of one event share. */
export function duplicateKey(notification: AnyNotification): string {
  const at = instantOf(notification.event_datetime);
  const when = at === undefined ? notification.event_datetime : new Date(at).toISOString();
  return `${when} ${notification.notification_type} ${notification.subject}`;
}

/** Groups notifications by {@link duplicateKey}, in the order in which each event first appears. */
export function groupDuplicates<N extends AnyNotification>(notifications: readonly N[]): NotificationEvent<N>[] {
  const groups = new Map<string, N[]>();
  for (const notification of notifications) {
    const key = duplicateKey(notification);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [notification]);
    else group.push(notification);
  }
  return [...groups].map(([key, group]) => ({ key, notification: group[0] as N, notifications: group }));
}

async function listPage<V extends NotificationVersion>(
  context: WorkflowContext,
  version: V,
  query: ListQuery<V>,
  signal: AbortSignal | undefined,
): Promise<NotificationOf<V>[]> {
  const init = { ...(signal !== undefined && { signal }) };
  const { data, error, response } =
    version === "v0"
      ? await context.api.GET("/v0/notifications", { params: { query: query }, ...init })
      : await context.api.GET("/v1/notifications", { params: { query: query }, ...init });
  if (data === undefined) {
    throw errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body: error });
  }
  return data.data as NotificationOf<V>[];
}

/**
 * Pages through notifications, oldest first, 100 a page, with `created_after`, answering each page's
 * notifications not answered before.
 *
 * `created_after` is exclusive and several notifications can share one `created_datetime`, so the next page
 * does not start after the last one received (that would lose the others created at the same instant that did
 * not fit on the page) but a millisecond before it; the notifications of that last millisecond that were
 * already answered are recognised by id and left out. If a full page brings nothing new (more than 100
 * notifications in one millisecond), paging cannot go on without losing some, and a `GatewayError` says so.
 */
export async function* listNotificationPages<V extends NotificationVersion = "v1">(
  context: WorkflowContext,
  options: ListAllOptions<V> = {} as ListAllOptions<V>,
): AsyncGenerator<NotificationOf<V>[], void, undefined> {
  const { version = "v1" as V, since, signal, ...filters } = options;
  const sinceDate = since instanceof Date ? since : since === undefined ? undefined : tryParseRegistryDateTime(since);
  const sinceText = sinceDate !== undefined ? formatQueryDateTime(sinceDate) : (since as string | undefined);
  const sinceInstant = sinceText === undefined ? undefined : instantOf(sinceText);
  let createdAfter = sinceText;
  let answered = new Set<string>();

  for (;;) {
    const query = {
      ...filters,
      ...(createdAfter !== undefined && { created_after: createdAfter }),
      limit: NOTIFICATION_PAGE_SIZE,
    } as ListQuery<V>;
    const page = await listPage(context, version, query, signal);
    const fresh = page.filter((notification) => !answered.has(notification.notification_id));
    if (fresh.length > 0) yield fresh;
    if (page.length < NOTIFICATION_PAGE_SIZE) return;

    const last = page[page.length - 1] as AnyNotification;
    const lastInstant = instantOf(last.created_datetime);
    if (lastInstant === undefined) {
      throw new GatewayError(
        `cannot page past an unreadable created_datetime: ${JSON.stringify(last.created_datetime)}`,
      );
    }
    if (fresh.length === 0) {
      throw new GatewayError(
        `more than ${NOTIFICATION_PAGE_SIZE} notifications were created within one millisecond of ${last.created_datetime}; ` +
          "created_after paging cannot go past them without losing some",
      );
    }
    // Restart a millisecond before the last one, but never before `since` (the caller's exclusive bound).
    const restart = lastInstant - 1;
    if (sinceInstant !== undefined && restart <= sinceInstant) {
      createdAfter = sinceText;
    } else {
      createdAfter = formatQueryDateTime(new Date(restart));
    }
    const boundary = sinceInstant !== undefined && restart <= sinceInstant ? sinceInstant : restart;
    answered = new Set(
      page
        .filter((notification) => (instantOf(notification.created_datetime) ?? Number.POSITIVE_INFINITY) >= boundary)
        .map((notification) => notification.notification_id),
    );
  }
}

/**
 * Every notification that matches, oldest first, one at a time: an async iterator over
 * {@link listNotificationPages}. Without `status`, version 1 answers only NEW ones and version 0 every status.
 */
export async function* listAllNotifications<V extends NotificationVersion = "v1">(
  context: WorkflowContext,
  options: ListAllOptions<V> = {} as ListAllOptions<V>,
): AsyncGenerator<NotificationOf<V>, void, undefined> {
  for await (const page of listNotificationPages(context, options)) yield* page;
}

/**
 * Acknowledges notifications by id, in calls of at most 100 ids (duplicate ids are sent once). Acknowledging
 * is idempotent, so each call is retried like a GET. A failed call throws its typed error; the calls before
 * it took effect, and calling again with the same ids is safe.
 */
export async function acknowledgeNotifications<V extends NotificationVersion = "v1">(
  context: WorkflowContext,
  ids: Iterable<string>,
  options: AcknowledgeOptions<V> = {},
): Promise<AcknowledgeResult> {
  const unique = [...new Set(ids)];
  const acknowledged: string[] = [];
  const notFound: string[] = [];
  const signal = options.signal;
  for (let start = 0; start < unique.length; start += ACKNOWLEDGE_CHUNK_SIZE) {
    const chunk = unique.slice(start, start + ACKNOWLEDGE_CHUNK_SIZE);
    const init = { body: { data: chunk }, fetch: context.idempotentFetch, ...(signal !== undefined && { signal }) };
    const { data, error, response } =
      options.version === "v0"
        ? await context.api.POST("/v0/notifications/acknowledge", init)
        : await context.api.POST("/v1/notifications/acknowledge", init);
    if (data === undefined) {
      throw errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body: error });
    }
    const done = new Set(data.data.acknowledged);
    acknowledged.push(...data.data.acknowledged);
    const reported = (data.data as { not_found?: string[] }).not_found; // v0 only
    notFound.push(...(reported ?? chunk.filter((id) => !done.has(id))));
  }
  return { acknowledged, not_found: notFound };
}

/**
 * A consumer loop over NEW notifications: pages through them oldest first, groups duplicate deliveries of one
 * event (same `event_datetime`, `notification_type` and `subject`), calls `handler` once per event, and only
 * after it succeeds acknowledges every delivery of that event. A duplicate that arrives on a later page of the
 * same run is acknowledged without calling the handler again.
 *
 * When the handler throws, the events handled before it are acknowledged, nothing after it is, and the error is
 * thrown: the failed event stays NEW and comes back in the next run (delivery is at least once, so a handler
 * must tolerate seeing an event again).
 */
export async function consumeNotifications<V extends NotificationVersion = "v1">(
  context: WorkflowContext,
  handler: (event: NotificationEvent<NotificationOf<V>>) => unknown,
  options: ConsumeOptions<V> = {} as ConsumeOptions<V>,
): Promise<ConsumeSummary> {
  const handled = new Set<string>();
  let events = 0;
  let received = 0;
  let acknowledged = 0;
  const listOptions = { ...options, status: "NEW" } as ListAllOptions<V>;
  const ackOptions: AcknowledgeOptions<V> = {
    ...(options.version !== undefined && { version: options.version }),
    ...(options.signal !== undefined && { signal: options.signal }),
  };

  for await (const page of listNotificationPages(context, listOptions)) {
    received += page.length;
    const done: string[] = [];
    let failure: { error: unknown } | undefined;
    for (const event of groupDuplicates(page)) {
      if (!handled.has(event.key)) {
        try {
          await handler(event);
        } catch (error) {
          failure = { error };
          break;
        }
        events += 1;
        handled.add(event.key);
        if (handled.size > REMEMBERED_EVENTS) handled.delete(handled.values().next().value as string);
      }
      done.push(...event.notifications.map((notification) => notification.notification_id));
    }
    if (done.length > 0) {
      try {
        acknowledged += (await acknowledgeNotifications(context, done, ackOptions)).acknowledged.length;
      } catch (error) {
        // The handler's failure is the one to report; these events come back in the next run.
        if (failure === undefined) throw error;
      }
    }
    if (failure !== undefined) throw failure.error;
  }
  return { events, notifications: received, acknowledged };
}
