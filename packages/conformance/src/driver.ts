// Steps the properties share: submitting applications, driving them through the control plane, reading
// notifications. Each step asserts the status it needs and answers the body; the session has already checked
// every answer against the spec.
import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Answer, Credentials, Session } from "./session.js";

/** Fails a property with a message (a plain Error: fast-check reports it with the counterexample). */
export function fail(message: string): never {
  throw new Error(message);
}

/** Asserts a condition of the interface. */
export function expectThat(condition: boolean, message: string | (() => string)): asserts condition {
  if (!condition) fail(typeof message === "string" ? message : message());
}

/** Asserts the status of an answer, showing the body when it differs. */
export function expectStatus(answer: Answer, status: number, what: string): void {
  expectThat(
    answer.status === status,
    () => `${what}: expected ${status}, got ${answer.status}: ${answer.text.slice(0, 400)}`,
  );
}

/**
 * The code, status and title of an error answer, whichever shape it came in: problem+json, or the first item of
 * one of the registry's envelopes (`code`, `error_code` or the attach envelope's `type`; status as a string or a
 * number).
 */
export function errorOf(answer: Pick<Answer, "body">): { code?: string; status?: number; title?: string } {
  const body = (answer.body ?? {}) as Record<string, unknown>;
  const first =
    Array.isArray(body["errors"]) && typeof body["code"] !== "string"
      ? (body["errors"] as Record<string, unknown>[])[0]
      : undefined;
  const item = first ?? body;
  const code = item["code"] ?? item["error_code"] ?? (first ? item["type"] : undefined);
  const status = Number(item["status"] ?? item["http_status"]);
  const title = item["title"];
  return {
    ...(typeof code === "string" ? { code } : {}),
    ...(Number.isInteger(status) ? { status } : {}),
    ...(typeof title === "string" ? { title } : {}),
  };
}

/** JSON equality for plain values (member order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .sort(([x], [y]) => (x < y ? -1 : 1))
          .map(([k, v]) => [k, canonical(v)]),
      );
    }
    return value;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** A notification as both versions list it. */
export interface Notification {
  notification_id: string;
  created_datetime: string;
  event_datetime: string;
  payload_schema: string;
  notification_type: string;
  subject_type: string;
  subject: string;
  additional_provider_filter?: string | null;
  status: "NEW" | "ACKNOWLEDGED";
  payload: { data: Record<string, unknown> | null };
}

/** A notification a control-plane request emitted. */
export interface Emitted {
  notification_id: string;
  notification_type: string;
  v0_notification_type: string | null;
  duplicate: boolean;
}

/** The answer of a transition. */
export interface TransitionResult {
  application_request_id: string;
  previous_status: string;
  status: string;
  registry_reference?: string;
  priority_timestamp?: string;
  documents?: { type: { code: string; name: string }; created_at: string; download_id: string }[];
  notifications: Emitted[];
}

export type Version = "v0" | "v1";

/** A valid submission naming `documents` documents (never uploaded unless the caller uploads them). */
export function submission(
  options: { documents?: number; label?: string | null; documentIds?: string[] } = {},
): Record<string, unknown> {
  const ids = options.documentIds ?? Array.from({ length: options.documents ?? 1 }, () => randomUUID());
  return {
    type: "REGISTER_UPDATE",
    submission_warning_understood: true,
    customer_reference: "CONFORMANCE-1",
    application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
    titles: { "title-1": { title_number: "AB12345" } },
    transactions: {
      transfer: {
        type: "T",
        priority: 1,
        title_keys: ["title-1"],
        document_keys: ids.map((_, index) => `doc-${index + 1}`),
      },
    },
    documents: Object.fromEntries(ids.map((id, index) => [`doc-${index + 1}`, { type: "TR1", document_id: id }])),
    ...(options.label ? { additional_provider_filter: options.label } : {}),
  };
}

/** Sends a submission as `as` under an Idempotency-Key; answers the gateway's answer, whatever its status. */
export function sendSubmission(
  session: Session,
  as: Credentials,
  body: Record<string, unknown>,
  key = `conformance-${randomUUID()}`,
): Promise<Answer> {
  return session.call("POST", "/v0/applications", { as, json: body, headers: { "idempotency-key": key } });
}

/** The application_request_id of an accepted submission's answer (202). */
export function applicationRequestIdOf(answer: Answer): string {
  return (answer.body as { data: { application_request_id: string } }).data.application_request_id;
}

/** Submits an application as `as`; answers its application_request_id. */
export async function submit(
  session: Session,
  as: Credentials,
  body: Record<string, unknown>,
  key = `conformance-${randomUUID()}`,
): Promise<string> {
  const answer = await sendSubmission(session, as, body, key);
  expectStatus(answer, 202, "submit an application");
  return applicationRequestIdOf(answer);
}

/**
 * The EICAR anti-virus test signature (68 bytes), which real virus scanners report as infected. Assembled at run
 * time so that no committed file carries it.
 */
export const EICAR = Buffer.from(
  ["X5O!P%@AP[4\\PZX54(P^)7CC)7}$", "EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"].join(""),
  "latin1",
);

/** Sends a document (upload address, then the signed PUT) declared as `type`; answers its document_id. */
export async function upload(session: Session, bytes: Buffer, type = "TR1"): Promise<string> {
  const checksum = createHash("sha256").update(bytes).digest("base64");
  const answer = await session.call("POST", "/v0/documents/url", {
    json: { data: { document_type: type, file_length: bytes.length, file_sha256: checksum } },
  });
  expectStatus(answer, 200, "upload address");
  const { upload_url: url, document_id: id } = (answer.body as { data: { upload_url: string; document_id: string } })
    .data;
  expectStatus(
    await session.call("PUT", url, {
      as: null,
      body: bytes,
      headers: { "content-type": "application/octet-stream", "x-provider-checksum-sha256": checksum },
    }),
    200,
    "upload",
  );
  return id;
}

/** What application information says of a decided application. */
export interface Decision {
  status: string;
  errors: { type: string; detail: string; pointer: string | null }[];
}

/**
 * Submits `body` with automatic processing on and waits (moving the gateway's clock) until the simulated registry
 * has decided it; puts processing back to manual. Answers application information's status and errors.
 */
export async function decide(session: Session, body: Record<string, unknown>): Promise<Decision & { id: string }> {
  await session.control("PUT", "/sandbox/v1/settings", { processing: "automatic" });
  try {
    const id = await submit(session, session.credentials, body);
    let data: Decision = { status: "VALIDATING", errors: [] };
    for (let attempt = 0; attempt < 40 && data.status === "VALIDATING"; attempt += 1) {
      await advanceClock(session, 5);
      data = ((await session.call("GET", `/v0/applications/${id}/information`)).body as { data: Decision }).data;
      if (data.status === "VALIDATING") await sleep(25);
    }
    return { id, ...data };
  } finally {
    await session.control("PUT", "/sandbox/v1/settings", { processing: "manual" });
  }
}

/**
 * Asks the control plane of the business unit that owns application `id` (`owner`, the session's own unit when
 * absent) for a transition; answers the raw answer (200 or a problem).
 */
export function requestTransition(
  session: Session,
  id: string,
  body: Record<string, unknown>,
  owner?: Credentials,
): Promise<Answer> {
  return session.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, body, owner);
}

/** A transition that must succeed, through the control plane of the application's `owner` (default: own unit). */
export async function transition(
  session: Session,
  id: string,
  body: Record<string, unknown>,
  owner?: Credentials,
): Promise<TransitionResult> {
  const answer = await requestTransition(session, id, body, owner);
  expectStatus(answer, 200, `transition ${id} to ${String(body["to"])}`);
  return answer.body as TransitionResult;
}

/**
 * Moves the clock of business unit `unit` (the session's own when absent) forward; answers its new reading in
 * milliseconds. Only that unit's time moves: other runs on the gateway keep theirs.
 */
export async function advanceClock(session: Session, seconds: number, unit?: Credentials): Promise<number> {
  const clock = await session.control<{ now: string }>("POST", "/sandbox/v1/clock/advance", { seconds }, { as: unit });
  return Date.parse(clock.now);
}

/** The clock of business unit `unit` (the session's own when absent) in milliseconds. */
export async function readClock(session: Session, unit?: Credentials): Promise<number> {
  return Date.parse((await session.control<{ now: string }>("GET", "/sandbox/v1/clock", undefined, { as: unit })).now);
}

/**
 * Changes the sandbox settings of business unit `unit` (the session's own when absent), naming `processing: manual`
 * every time: the suite depends on it, and a gateway that resets unnamed settings (see the control-plane property on
 * settings) must not switch it back to automatic.
 */
export async function settings(session: Session, changes: Record<string, unknown>, unit?: Credentials): Promise<void> {
  await session.control("PUT", "/sandbox/v1/settings", { processing: "manual", ...changes }, { as: unit });
}

/** Lists notifications; the answer must be 200. */
export async function list(
  session: Session,
  version: Version,
  as: Credentials,
  query: Record<string, string | number | undefined> = {},
): Promise<Notification[]> {
  const answer = await session.call("GET", `/${version}/notifications`, { as, query });
  expectStatus(answer, 200, `list ${version} notifications ${JSON.stringify(query)}`);
  return (answer.body as { data: Notification[] }).data;
}

/** Acknowledges ids; the answer must be 200. */
export async function acknowledge(
  session: Session,
  version: Version,
  as: Credentials,
  ids: string[],
): Promise<{ acknowledged: string[]; not_found?: string[] }> {
  const answer = await session.call("POST", `/${version}/notifications/acknowledge`, { as, json: { data: ids } });
  expectStatus(answer, 200, `acknowledge ${ids.length} ${version} notifications`);
  return (answer.body as { data: { acknowledged: string[]; not_found?: string[] } }).data;
}

/** Renders an instant as a query date-time in one of the shapes the spec admits (all denote the same instant). */
export function queryDateTime(
  ms: number,
  shape: "zoneless" | "zonelessMillis" | "Z" | "millisZ" | "offset" | "compactOffset" | "minutes",
): string {
  const iso = new Date(ms).toISOString(); // 2025-02-20T09:06:29.040Z
  switch (shape) {
    case "zoneless":
      return iso.slice(0, 19);
    case "zonelessMillis":
      return iso.slice(0, 23);
    case "Z":
      return `${iso.slice(0, 19)}Z`;
    case "millisZ":
      return iso;
    case "minutes":
      return iso.slice(0, 16);
    case "offset":
    case "compactOffset": {
      // The same instant written in UTC+02:00.
      const shifted = new Date(ms + 2 * 3600_000).toISOString().slice(0, 23);
      return `${shifted}${shape === "offset" ? "+02:00" : "+0200"}`;
    }
  }
}

/** The instant a query date-time shape really names (seconds or milliseconds dropped by the shape). */
export function truncatedTo(ms: number, shape: Parameters<typeof queryDateTime>[1]): number {
  if (shape === "zoneless" || shape === "Z") return Math.floor(ms / 1000) * 1000;
  if (shape === "minutes") return Math.floor(ms / 60_000) * 60_000;
  return ms;
}

export const QUERY_SHAPES = [
  "zoneless",
  "zonelessMillis",
  "Z",
  "millisZ",
  "offset",
  "compactOffset",
  "minutes",
] as const;
