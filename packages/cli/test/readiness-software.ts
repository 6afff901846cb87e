// The software a readiness run examines, as plain HTTP against one address (`lrg record` in front of the gateway): a
// correct client, and the mistakes the gateway's readiness tests make their naive clients commit
// (apps/gateway/test/readiness/*.test.ts and support.ts), each a way of one part of the software (`Ways`), so that a
// run can commit a mistake for every check at once. The unit's control plane (its settings, its clock, its run) goes
// through the same address, as the run's instructions have software move the unit's clock rather than wait.
import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { searchOf, smallPdf, submission } from "./support.js";

/** A business unit the sandbox created: its registry credentials and its own token of the control plane. */
export interface Unit {
  business_unit_id: string;
  username: string;
  password: string;
  sandbox_token: string;
}

/** An answer as the software reads it. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** How each part of the software behaves: the correct way, or one of the naive clients' mistakes. */
export interface Ways {
  /**
   * Title look-up and official search (rate-limits, deferred-official-search). `correct`: waits each Retry-After (in
   * real time after the 429; moving the unit's clock for the deferral), then reads the result. `hasty`: retries the
   * look-up at once, polls the deferred result three times at once. `forgetful`: never looks up again after the 429,
   * never polls. `uncertified`: its enquiries are refused 403 BG40005 (the unit needs a client certificate). `late`:
   * as `correct`, but the result is due after the run's deadline and never polled.
   */
  titles: "correct" | "hasty" | "forgetful" | "uncertified" | "late";
  /** After a 503 of the list: waits its Retry-After in real time, or on the unit's clock; or retries at once. */
  faults: "sleeps" | "moves-the-clock" | "hasty";
  /**
   * The notification consumer. `correct`: pages with created_after, reads the information of an application that
   * failed validation, downloads each despatched document (the 302 followed without credentials), acknowledges every
   * id, at most 100 a call. `version-0-idle`: the version 0 feed (status=NEW, paging on occured_after), acknowledges
   * every page, handles nothing (reads no information, asks for documents but never follows the 302).
   * `duplicate-ignoring`: acknowledges one id per event, sends its credentials to the download address, then polls
   * the list 27 times more without a pause. `one-call`: reads every page, acknowledges them in one call (more than 100
   * ids: refused), lets fetch follow the 302 with its credentials. `one-page`: reads the first page, acknowledges it.
   */
  consumer: "correct" | "version-0-idle" | "duplicate-ignoring" | "one-call" | "one-page";
  /**
   * Three submissions, taken by validation-failed, system-error and lost-answer in that order. `correct`: submits the
   * one that ended in SYSTEM_ERROR again with its key, and retries its lost answer with the same key. `other-case`:
   * submits another case instead, and never retries its lost answer. `no-resubmission`: two submissions only.
   * `new-key`: retries the lost answer with a new key. `changed-body`: retries it with the same key and another body
   * (409), then with a new key.
   */
  submissions: "correct" | "other-case" | "no-resubmission" | "new-key" | "changed-body";
  /** Reads each application's information as soon as it submitted it (rather than on its notification). */
  readsStatus: boolean;
  /**
   * Uploads (checksum-and-length, expired-upload; the run's first address is issued expired). `correct`: asks for a
   * new address and PUTs the same bytes. `other-bytes`: retries the expired address, then uploads other bytes, first
   * with the hex digest as X-Provider-Checksum-Sha256. `hex-sha`: asks with the hex digest as file_sha256 (refused).
   * `credentials`: sends its Authorization header with each PUT. `gives-up`: stops after the expired address's 403.
   */
  uploads: "correct" | "other-bytes" | "hex-sha" | "credentials" | "gives-up";
}

const base64Sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("base64");
const hexSha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

/** A document named in the submissions (never uploaded: the unit's processing is manual, nothing decides them). */
const NAMED_DOCUMENT = "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b";

/** The seconds of an answer's Retry-After. */
export function retryAfter(answer: Answer): number {
  const value = answer.headers.get("retry-after");
  expect(value, `status ${answer.status} without Retry-After`).toMatch(/^\d+$/);
  return Number(value);
}

/** One unit's software, talking to `address` (the recorder) with the unit's credentials. */
export class Software {
  readonly #address: string;
  readonly #unit: Unit;
  readonly #ways: Ways;

  constructor(address: string, unit: Unit, ways: Ways) {
    this.#address = address;
    this.#unit = unit;
    this.#ways = ways;
  }

  get #basic(): string {
    return `Basic ${Buffer.from(`${this.#unit.username}:${this.#unit.password}`).toString("base64")}`;
  }

  /** One request; its answer, or "lost" when the connection closed unanswered. */
  async #send(
    method: string,
    path: string,
    authorization: string | undefined,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer | "lost"> {
    const headers: Record<string, string> = { ...(authorization && { authorization }), ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(new URL(path, this.#address), {
        method,
        headers,
        redirect: "manual",
        ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      });
    } catch (error) {
      if (error instanceof TypeError) return "lost"; // fetch failed: the connection closed unanswered
      throw error;
    }
    const text = await response.text();
    const body = text && response.headers.get("content-type")?.includes("json") ? (JSON.parse(text) as unknown) : text;
    return { status: response.status, headers: response.headers, body };
  }

  async #answered(
    method: string,
    path: string,
    authorization: string | undefined,
    options: { body?: unknown } = {},
  ): Promise<Answer> {
    const answer = await this.#send(method, path, authorization, options);
    if (answer === "lost") throw new Error(`${method} ${path}: the connection closed unanswered`);
    return answer;
  }

  /** A request of the registry interface, with the unit's HTTP Basic credentials. */
  registry(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.#answered(method, path, this.#basic, body === undefined ? {} : { body });
  }

  /** A request of the unit's control plane, with its own token. */
  control(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.#answered(method, path, `Bearer ${this.#unit.sandbox_token}`, body === undefined ? {} : { body });
  }

  /** Moves the unit's own clock on. */
  async advance(seconds: number): Promise<void> {
    expect((await this.control("POST", "/sandbox/v1/clock/advance", { seconds })).status).toBe(200);
  }

  /** Title enquiries: the run answers the first look-up 429, and defers the first search. */
  async titles(): Promise<void> {
    const way = this.#ways.titles;
    const lookUp = () => this.registry("GET", "/s1/v1/titles/ZZ100001/official-copies/availability");
    const limited = await lookUp();
    expect(limited.status).toBe(way === "uncertified" ? 403 : 429);
    if (way === "hasty") expect((await lookUp()).status).toBe(200);
    else if (way === "correct" || way === "late") {
      await sleep(retryAfter(limited) * 1000);
      expect((await lookUp()).status).toBe(200);
    }
    const messageId = `agree-${randomUUID()}`;
    const searched = await this.registry("POST", "/api/v1/official-searches-of-whole", {
      ...searchOf("ZZ100001"),
      message_id: messageId,
    });
    expect(searched.status).toBe(way === "uncertified" ? 403 : 202);
    if (way !== "correct" && way !== "hasty") return;
    const poll = () => this.registry("GET", `/api/v1/poll-requests/${messageId}`);
    if (way === "hasty") for (let attempt = 0; attempt < 3; attempt += 1) expect((await poll()).status).toBe(202);
    await this.advance(retryAfter(searched));
    expect((await poll()).status).toBe(200);
  }

  /** One submission with this key; its answer (and the application's id), or "lost". */
  async #submit(key: string, reference: string): Promise<{ status: number; id: string | undefined } | "lost"> {
    const answer = await this.#send("POST", "/v0/applications", this.#basic, {
      body: submission(NAMED_DOCUMENT, reference),
      headers: { "idempotency-key": key },
    });
    if (answer === "lost") return answer;
    const id = (answer.body as { data?: { application_request_id?: string } }).data?.application_request_id;
    return { status: answer.status, id };
  }

  async #submitted(key: string, reference: string): Promise<string> {
    const answer = await this.#submit(key, reference);
    expect(answer).toMatchObject({ status: 202 });
    const id = answer === "lost" ? undefined : answer.id;
    if (this.#ways.readsStatus && id !== undefined) await this.information(id);
    return id!;
  }

  /** The application's information; answers its status. */
  async information(id: string): Promise<string> {
    const answer = await this.registry("GET", `/v0/applications/${id}/information`);
    expect(answer.status).toBe(200);
    return (answer.body as { data: { status: string } }).data.status;
  }

  /** The run's three submissions, and what follows the SYSTEM_ERROR and the lost answer. */
  async submissions(): Promise<void> {
    const way = this.#ways.submissions;
    await this.#submitted(`agree-${randomUUID()}`, "AGREE-1"); // failed validation
    const key = `agree-${randomUUID()}`;
    await this.#submitted(key, "AGREE-2"); // ended in SYSTEM_ERROR, its key released
    if (way === "no-resubmission") return;
    if (way === "other-case") {
      expect(await this.#submit(`agree-${randomUUID()}`, "AGREE-3")).toBe("lost");
      return;
    }
    expect(await this.#submit(key, "AGREE-2")).toBe("lost"); // submitted again: its answer is lost
    if (way === "correct") await this.#submitted(key, "AGREE-2");
    if (way === "changed-body") expect(await this.#submit(key, "AGREE-2-RETRY")).toMatchObject({ status: 409 });
    if (way === "new-key" || way === "changed-body") await this.#submitted(`agree-${randomUUID()}`, "AGREE-2");
  }

  /** Asks for an upload address for `bytes`; answers it, or undefined when refused. */
  async #uploadAddress(bytes: Buffer, checksum = base64Sha256(bytes)): Promise<string | undefined> {
    const answer = await this.registry("POST", "/v0/documents/url", {
      data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksum },
    });
    return answer.status === 200 ? (answer.body as { data: { upload_url: string } }).data.upload_url : undefined;
  }

  /** PUTs `bytes` to an upload address; answers the status and the problem's code. */
  async #put(
    address: string,
    bytes: Buffer,
    options: { checksum?: string; credentials?: boolean } = {},
  ): Promise<[number, string | undefined]> {
    const answer = await fetch(address, {
      method: "PUT",
      headers: {
        "content-length": String(bytes.length),
        "x-provider-checksum-sha256": options.checksum ?? base64Sha256(bytes),
        ...(options.credentials && { authorization: this.#basic }),
      },
      body: bytes,
    });
    const text = await answer.text();
    return [answer.status, text ? (JSON.parse(text) as { code?: string }).code : undefined];
  }

  /** One document sent; the run issues the first address already expired. */
  async uploads(): Promise<void> {
    const way = this.#ways.uploads;
    const bytes = smallPdf(`AGREE ${randomUUID()}`);
    if (way === "hex-sha") {
      expect(await this.#uploadAddress(bytes, hexSha256(bytes))).toBeUndefined();
      return;
    }
    const credentials = way === "credentials";
    const expired = (await this.#uploadAddress(bytes))!;
    expect(await this.#put(expired, bytes, { credentials })).toEqual([403, "403-02"]);
    if (way === "gives-up") return;
    if (way === "other-bytes") {
      expect(await this.#put(expired, bytes)).toEqual([403, "403-02"]);
      const other = smallPdf(`AGREE OTHER ${randomUUID()}`);
      expect((await this.#put((await this.#uploadAddress(other))!, other, { checksum: hexSha256(other) }))[0]).toBe(
        403,
      );
      expect(await this.#put((await this.#uploadAddress(other))!, other)).toEqual([200, undefined]);
      return;
    }
    expect(await this.#put((await this.#uploadAddress(bytes))!, bytes, { credentials })).toEqual([200, undefined]);
  }

  /** Lists notifications of a version; after a 503, as `faults` says. Answers the page. */
  async #list(version: "v0" | "v1", query: string): Promise<Notification[]> {
    for (;;) {
      const answer = await this.registry("GET", `/${version}/notifications${query}`);
      if (answer.status === 200) return (answer.body as { data: Notification[] }).data;
      expect(answer.status).toBe(503);
      if (this.#ways.faults === "sleeps") await sleep(retryAfter(answer) * 1000);
      if (this.#ways.faults === "moves-the-clock") await this.advance(retryAfter(answer));
    }
  }

  async #acknowledge(version: "v0" | "v1", ids: string[]): Promise<number> {
    return (await this.registry("POST", `/${version}/notifications/acknowledge`, { data: ids })).status;
  }

  /** Downloads a despatched document: the 302, then its address as the consumer's way has it. */
  async #download(downloadId: string): Promise<void> {
    const way = this.#ways.consumer;
    const path = new URL(`/v1/documents/${downloadId}`, this.#address);
    if (way === "one-call") {
      // fetch follows the 302 itself, on the same origin (the recorder's): it keeps the Authorization header.
      const followed = await fetch(path, { headers: { authorization: this.#basic } });
      expect([followed.status, (await followed.text()).slice(0, 5)]).toEqual([200, "%PDF-"]);
      return;
    }
    const asked = await this.#answered("GET", path.pathname, this.#basic);
    expect(asked.status).toBe(302);
    if (way === "version-0-idle") return;
    const credentials = way === "duplicate-ignoring" ? { authorization: this.#basic } : undefined;
    const fetched = await fetch(asked.headers.get("location")!, credentials && { headers: credentials });
    expect([fetched.status, (await fetched.text()).slice(0, 5)]).toEqual([200, "%PDF-"]);
  }

  /** Handles one page as the consumer's way has it: the information of a failed application, the documents. */
  async #handle(page: readonly Notification[]): Promise<void> {
    for (const notification of page) {
      const type = notification.notification_type;
      if (type === "application.validation-failed" && this.#ways.consumer !== "version-0-idle")
        expect(await this.information(notification.subject)).toBe("VALIDATION_FAILED");
      if (type === "application.correspondence-despatched" || type === "APPLICATION_CORRESPONDENCE_DESPATCHED")
        for (const { download_id: id } of notification.payload.data.documents ?? []) await this.#download(id);
    }
  }

  /** Consumes the unit's notifications. */
  async consume(): Promise<void> {
    const way = this.#ways.consumer;
    if (way === "version-0-idle") return this.#consumeVersionZero();
    if (way === "one-page") {
      const page = await this.#list("v1", "");
      expect(
        await this.#acknowledge(
          "v1",
          page.map((n) => n.notification_id),
        ),
      ).toBe(200);
      return;
    }
    const read: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.#list("v1", after === undefined ? "" : `?created_after=${encodeURIComponent(after)}`);
      await this.#handle(page);
      const events = new Map<string, string>();
      for (const n of page)
        if (way !== "duplicate-ignoring") events.set(n.notification_id, n.notification_id);
        else if (!events.has(`${n.event_datetime} ${n.notification_type} ${n.subject}`))
          events.set(`${n.event_datetime} ${n.notification_type} ${n.subject}`, n.notification_id);
      const ids = [...events.values()];
      if (way === "one-call") read.push(...ids);
      else
        for (let index = 0; index < ids.length; index += 100)
          expect(await this.#acknowledge("v1", ids.slice(index, index + 100))).toBe(200);
      if (page.length < 100) break;
      after = page.at(-1)!.created_datetime;
    }
    if (way === "one-call") expect(await this.#acknowledge("v1", read)).toBe(400);
    if (way === "duplicate-ignoring") for (let poll = 0; poll < 27; poll += 1) await this.#list("v1", "");
  }

  /** The version 0 feed: NEW, paged on occured_after, every page acknowledged; nothing handled but the 302s asked. */
  async #consumeVersionZero(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const query = `?status=NEW${after === undefined ? "" : `&occured_after=${encodeURIComponent(after)}`}`;
      const page = await this.#list("v0", query);
      await this.#handle(page);
      if (page.length > 0)
        expect(
          await this.#acknowledge(
            "v0",
            page.map((n) => n.notification_id),
          ),
        ).toBe(200);
      if (page.length < 100) return;
      after = page.at(-1)!.event_datetime.replace(/Z$/, "");
    }
  }
}

/** A notification as the consumer reads it (either version). */
interface Notification {
  notification_id: string;
  notification_type: string;
  subject: string;
  event_datetime: string;
  created_datetime: string;
  payload: { data: { documents?: { download_id: string }[] } };
}
