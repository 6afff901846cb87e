// An in-memory registry of notifications behind an injected fetch: the list and acknowledge operations of both
// versions as the spec describes them (created_after exclusive, oldest first, at most `limit` and 100, default
// status NEW in version 1 and none in version 0, at most 100 ids per acknowledgement).
import type { NotificationV0, NotificationV1 } from "../../src/index.js";
import { jsonResponse, recordingFetch, type RecordedRequest, type RecordingFetch } from "./recording-fetch.js";

export interface StoredNotification {
  notification_id: string;
  created_datetime: string;
  event_datetime: string;
  notification_type: string;
  subject: string;
  status: "NEW" | "ACKNOWLEDGED";
}

/** Reads the date-times this fake is given: ISO with or without a trailing Z (no zone = UTC). */
function instant(value: string): number {
  return Date.parse(/[zZ]$|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
}

let counter = 0;
/** A fresh UUID-shaped id, ordered by creation for readable failures. */
export function id(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`;
}

export function stored(created: string, overrides: Partial<StoredNotification> = {}): StoredNotification {
  return {
    notification_id: id(),
    created_datetime: created,
    event_datetime: created,
    notification_type: "application.completed",
    subject: "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10",
    status: "NEW",
    ...overrides,
  };
}

export interface FakeRegistry extends RecordingFetch {
  readonly notifications: StoredNotification[];
  /** The list requests' query parameters, in order. */
  listQueries(): Record<string, string>[];
  /** The id arrays of the acknowledge requests, in order. */
  acknowledgements(): string[][];
  /** Answers this status to the next `count` requests (fault injection). */
  failNext(count: number, status: number): void;
}

export function fakeRegistry(initial: StoredNotification[], version: "v0" | "v1" = "v1"): FakeRegistry {
  const notifications = [...initial];
  let faults: { count: number; status: number } = { count: 0, status: 503 };

  const view = (notification: StoredNotification): NotificationV1 | NotificationV0 =>
    ({
      ...notification,
      payload_schema: "http://127.0.0.1:8080/schemas/v1/application/completed.json",
      subject_type: version === "v0" ? "LAND_REGISTER_APPLICATION" : "APPLICATION",
      additional_provider_filter: null,
      payload: { data: {} },
    }) as unknown as NotificationV1;

  const list = (request: RecordedRequest) => {
    const query = request.url.searchParams;
    const after = query.get("created_after");
    const before = query.get("created_before");
    // Version 1 lists NEW by default; version 0 names no default and lists every status.
    const status = query.get("status") ?? (version === "v1" ? "NEW" : null);
    const limit = Math.min(100, Number(query.get("limit") ?? 100));
    const matching = notifications
      .map((notification, index) => ({ notification, index }))
      .filter(({ notification }) => status === null || notification.status === status)
      .filter(({ notification }) => after === null || instant(notification.created_datetime) > instant(after))
      .filter(({ notification }) => before === null || instant(notification.created_datetime) < instant(before))
      .filter(
        ({ notification }) =>
          !query.has("notification_type") || notification.notification_type === query.get("notification_type"),
      )
      .filter(({ notification }) => !query.has("subject") || notification.subject === query.get("subject"))
      .sort(
        (a, b) =>
          instant(a.notification.created_datetime) - instant(b.notification.created_datetime) || a.index - b.index,
      )
      .slice(0, limit)
      .map(({ notification }) => view(notification));
    return jsonResponse(200, { data: matching });
  };

  const acknowledge = (request: RecordedRequest) => {
    const ids = (JSON.parse(request.body) as { data: string[] }).data;
    if (ids.length > 100) {
      return jsonResponse(400, {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: "too many",
        instance: "/",
        code: "400-02",
      });
    }
    const acknowledged: string[] = [];
    const notFound: string[] = [];
    for (const wanted of ids) {
      const notification = notifications.find((candidate) => candidate.notification_id === wanted);
      if (notification === undefined) notFound.push(wanted);
      else {
        notification.status = "ACKNOWLEDGED";
        acknowledged.push(wanted);
      }
    }
    return jsonResponse(200, { data: version === "v0" ? { acknowledged, not_found: notFound } : { acknowledged } });
  };

  const recorder = recordingFetch((request) => {
    if (faults.count > 0) {
      faults = { ...faults, count: faults.count - 1 };
      return new Response(null, { status: faults.status });
    }
    const path = request.url.pathname;
    if (request.method === "GET" && path === `/${version}/notifications`) return list(request);
    if (request.method === "POST" && path === `/${version}/notifications/acknowledge`) return acknowledge(request);
    return jsonResponse(404, {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: path,
      instance: path,
      code: "404-02",
    });
  });

  return {
    ...recorder,
    notifications,
    listQueries: () =>
      recorder.requests
        .filter((request) => request.method === "GET")
        .map((request) => Object.fromEntries(request.url.searchParams)),
    acknowledgements: () =>
      recorder.requests
        .filter((request) => request.method === "POST" && request.body !== "")
        .map((request) => (JSON.parse(request.body) as { data: string[] }).data),
    failNext: (count, status) => {
      faults = { count, status };
    },
  };
}

/** `2025-02-20T09:00:00.000Z` plus `ms` milliseconds, in the registry's shape. */
export function at(ms: number): string {
  return new Date(Date.parse("2025-02-20T09:00:00.000Z") + ms).toISOString();
}
