import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { enums } from "@lrg/spec";
import { idempotencyKey, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";
import { checksumOf, rawPut, SAMPLES } from "./support/upload.js";

let gw: TestGateway;
let unit: Credentials;
beforeAll(async () => {
  gw = await startGateway();
  unit = await gw.newBusinessUnit();
});
afterAll(async () => {
  await gw.stop();
});
beforeEach(async () => {
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
  await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
});

interface Listed {
  notification_type: string;
  payload: { data: Record<string, unknown> };
}

/** Sends a document with Send a document (both calls); answers its id. */
async function sendDocument(bytes: Buffer, as: Credentials = unit): Promise<string> {
  const answer = await gw.call("POST", "/v0/documents/url", {
    as,
    body: { data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksumOf(bytes) } },
  });
  const { upload_url: url, document_id: id } = (answer.body as { data: { upload_url: string; document_id: string } })
    .data;
  const put = await rawPut(
    url,
    { "content-length": String(bytes.length), "x-provider-checksum-sha256": checksumOf(bytes) },
    bytes,
  );
  expect(put.status).toBe(200);
  return id;
}

/** A new application of the unit, left VALIDATING (manual processing) or moved on to `to`. */
async function application(to?: string, as: Credentials = unit): Promise<string> {
  const submitted = await gw.call("POST", "/v0/applications", {
    as,
    body: submission(),
    headers: { "idempotency-key": idempotencyKey() },
  });
  const id = (submitted.body as { data: { application_request_id: string } }).data.application_request_id;
  const path: Record<string, string[]> = {
    ACCEPTED_PRIORITY_PROTECTED: ["ACCEPTED_PRIORITY_PROTECTED"],
    COMPLETED: ["ACCEPTED_PRIORITY_PROTECTED", "COMPLETED"],
    CANCELLED: ["ACCEPTED_PRIORITY_PROTECTED", "CANCELLED"],
    VALIDATION_FAILED: ["VALIDATION_FAILED"],
    SYSTEM_ERROR: ["SYSTEM_ERROR"],
  };
  for (const status of to ? (path[to] ?? []) : []) {
    expect((await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: status })).status).toBe(200);
  }
  return id;
}

async function notificationsOf(id: string, as: Credentials = unit): Promise<Listed[]> {
  return ((await gw.call("GET", `/v1/notifications?subject=${id}`, { as })).body as { data: Listed[] }).data;
}

/**
 * Waits for the notification of this type about the application (outcomes are decided asynchronously), about this
 * document when one is named (a transition out of VALIDATING also reports on the submission's own documents).
 */
async function outcome(id: string, type: string, documentId?: string): Promise<Listed> {
  const matches = (n: Listed) =>
    n.notification_type === type && (documentId === undefined || n.payload.data["document_id"] === documentId);
  await expect.poll(async () => (await notificationsOf(id)).some(matches), { timeout: 5000 }).toBe(true);
  return (await notificationsOf(id)).find(matches) as Listed;
}

const attachDocument = (id: string, documentId: string, as: Credentials = unit) =>
  gw.call("POST", `/v1/applications/${id}/attachments`, {
    as,
    body: { data: { document_id: documentId, certification_statement_type: "CERTIFIED" } },
  });
const attachMessage = (id: string, text: string, as: Credentials = unit) =>
  gw.call("POST", `/v1/applications/${id}/messages`, { as, body: { data: { message_text: text } } });

describe("Attach a document", () => {
  it("answers 202 with no body, then application.attachment-success with the attachment's number and the document", async () => {
    const id = await application();
    const documentId = await sendDocument(SAMPLES.pdf);
    const answer = await attachDocument(id, documentId);
    expect(answer.status).toBe(202);
    expect(answer.body).toBe("");
    const success = await outcome(id, "application.attachment-success");
    expect(success.payload.data).toEqual({ attachment_id: expect.any(Number), document_id: documentId });
  });

  it("ends in application.attachment-failed with a failure_reason when the document's checks fail, or it was never sent or is another unit's", async () => {
    const other = await gw.newBusinessUnit();
    const cases: [string, string, RegExp][] = [
      ["password-protected PDF", await sendDocument(SAMPLES.encryptedPdf), /password/i],
      ["unsupported type", await sendDocument(SAMPLES.text), /type/i],
      ["never sent", randomUUID(), /not sent/],
      ["another unit's", await sendDocument(SAMPLES.pdf, other), /not sent/],
    ];
    for (const [name, documentId, reason] of cases) {
      const id = await application("ACCEPTED_PRIORITY_PROTECTED");
      expect((await attachDocument(id, documentId)).status, name).toBe(202);
      const failed = await outcome(id, "application.attachment-failed", documentId);
      expect(failed.payload.data, name).toEqual({
        failure_reason: expect.stringMatching(reason),
        document_id: documentId,
      });
      expect(
        (await notificationsOf(id)).map((n) => n.notification_type),
        name,
      ).not.toContain("application.attachment-success");
    }
  });

  it("refuses a certification statement type the registry does not list, in the attach envelope, attaching nothing", async () => {
    const id = await application();
    const answer = await gw.call("POST", `/v1/applications/${id}/attachments`, {
      as: unit,
      body: { data: { document_id: randomUUID(), certification_statement_type: "SELF_CERTIFIED" } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: [{ type: "400-02", detail: expect.any(String), pointer: "/data/certification_statement_type" }],
    });
    expect(await notificationsOf(id)).toEqual([]);
  });
});

describe("Attach a message", () => {
  it("answers 202, then application.message-success with a numeric attachment_id; up to 4034 characters", async () => {
    const id = await application();
    expect((await attachMessage(id, "x".repeat(4034))).status).toBe(202);
    const success = await outcome(id, "application.message-success");
    expect(success.payload.data).toEqual({ attachment_id: expect.any(Number) });
  });

  it("ends in application.message-failed with a failure_reason for a message of only white space", async () => {
    const id = await application();
    expect((await attachMessage(id, " \n\t ")).status).toBe(202);
    const failed = await outcome(id, "application.message-failed");
    expect(failed.payload.data).toEqual({ failure_reason: expect.any(String) });
  });

  it("refuses 4035 characters with 400 in the attach envelope pointing at message_text", async () => {
    const id = await application();
    const answer = await attachMessage(id, "x".repeat(4035));
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      errors: [{ type: "400-02", detail: expect.stringContaining("4034"), pointer: "/data/message_text" }],
    });
  });
});

describe("both attach operations", () => {
  const operations = [
    ["attachments", (id: string, as?: Credentials) => attachDocument(id, randomUUID(), as)],
    ["messages", (id: string, as?: Credentials) => attachMessage(id, "hello", as)],
  ] as const;

  it.each(operations)("/%s: an unknown application, or another unit's, is 404 OC200", async (_name, attach) => {
    const other = await gw.newBusinessUnit();
    const othersApplication = await application(undefined, other);
    for (const id of [randomUUID(), othersApplication]) {
      const answer = await attach(id);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ errors: [{ type: "OC200", detail: expect.stringContaining(id), pointer: null }] });
    }
    expect(await notificationsOf(othersApplication, other)).toEqual([]);
  });

  it.each(operations)(
    "/%s: an application that is not pending (COMPLETED, CANCELLED, VALIDATION_FAILED, SYSTEM_ERROR) is 400 OC036",
    async (_name, attach) => {
      for (const status of ["COMPLETED", "CANCELLED", "VALIDATION_FAILED", "SYSTEM_ERROR"]) {
        const id = await application(status);
        const before = (await notificationsOf(id)).length;
        const answer = await attach(id);
        expect(answer.status, status).toBe(400);
        expect(answer.body, status).toEqual({
          errors: [{ type: "OC036", detail: expect.stringContaining(status), pointer: null }],
        });
        expect((await notificationsOf(id)).length, status).toBe(before);
      }
    },
  );

  it.each(operations)(
    "/%s: a pending application (VALIDATING, ACCEPTED_AWAITING_PRIORITY, ACCEPTED_PRIORITY_PROTECTED) takes it",
    async (_name, attach) => {
      await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: false });
      const awaiting = await application();
      await gw.sandbox("POST", `/sandbox/v1/applications/${awaiting}/transitions`, {
        to: "ACCEPTED_AWAITING_PRIORITY",
      });
      await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
      const queued = await application();
      await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: false });
      await gw.sandbox("POST", `/sandbox/v1/applications/${queued}/transitions`, { to: "ACCEPTED_AWAITING_PRIORITY" });
      for (const id of [await application(), queued, await application("ACCEPTED_PRIORITY_PROTECTED")]) {
        expect((await attach(id)).status).toBe(202);
      }
    },
  );

  it.each(operations)(
    "/%s: wrong credentials and a body that is not JSON are answered in the attach envelope",
    async (_name, attach) => {
      const id = await application();
      const unauthorised = await attach(id, { username: unit.username, password: "wrong" });
      expect(unauthorised.status).toBe(401);
      expect(unauthorised.body).toEqual({ errors: [{ type: "401-01", detail: expect.any(String), pointer: null }] });
      const malformed = await gw.call("POST", `/v1/applications/${id}/${_name}`, {
        as: unit,
        rawBody: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ errors: [{ type: "400-03", detail: expect.any(String), pointer: null }] });
    },
  );
});

describe("every notification type of the requirement", () => {
  it("can occur through the API (submission, attach operations and the control plane)", async () => {
    const types = enums.NotificationTypeV1;
    expect(types.length).toBe(11);
    const seen = new Set<string>();
    const collect = async (id: string) => (await notificationsOf(id)).forEach((n) => seen.add(n.notification_type));

    await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: false });
    const main = await application();
    await gw.sandbox("POST", `/sandbox/v1/applications/${main}/transitions`, { to: "ACCEPTED_AWAITING_PRIORITY" });
    await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
    await attachDocument(main, await sendDocument(SAMPLES.png));
    await attachDocument(main, await sendDocument(SAMPLES.encryptedPdf));
    await attachMessage(main, "please see the attached plan");
    await attachMessage(main, "   ");
    for (const type of ["attachment-success", "attachment-failed", "message-success", "message-failed"])
      await outcome(main, `application.${type}`);
    await gw.sandbox("POST", `/sandbox/v1/applications/${main}/correspondence`, { documents: ["LTR"] });
    await gw.sandbox("POST", `/sandbox/v1/applications/${main}/transitions`, { to: "COMPLETED" });
    await collect(main);
    for (const to of ["VALIDATION_FAILED", "SYSTEM_ERROR", "CANCELLED"]) await collect(await application(to));

    expect([...seen].sort()).toEqual([...types].sort());
  });
});
