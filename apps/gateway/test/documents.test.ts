import { createHash, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { connect } from "node:net";
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { idempotencyKey, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";
import { documentStatus as statusOf, letterDownloadId, uploadAddress, uploadHeaders } from "./support/documents.js";
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
  await gw.sandbox("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
});

const uploadUrl = (bytes: Buffer, documentType?: string) => uploadAddress(gw, unit, bytes, documentType);
const headersFor = uploadHeaders;
const incomingFiles = () => readdirSync(join(gw.dataDir, "blobs", "incoming"));
const documentStatus = (id: string) => statusOf(gw, id);

describe("an upload address", () => {
  it("is refused for a checksum of 43 or 45 characters, one that is not a 32-byte digest, a length out of 1..41943040, or an unknown type", async () => {
    const good = checksumOf(SAMPLES.pdf);
    const bad: Record<string, unknown>[] = [
      { document_type: "TR1", file_length: 10, file_sha256: good.slice(0, 43) },
      { document_type: "TR1", file_length: 10, file_sha256: `${good}A` },
      { document_type: "TR1", file_length: 10, file_sha256: `${good.slice(0, 42)}B=` },
      { document_type: "TR1", file_length: 0, file_sha256: good },
      { document_type: "TR1", file_length: 41_943_041, file_sha256: good },
      { document_type: "NOT_A_FORM", file_length: 10, file_sha256: good },
    ];
    for (const data of bad) {
      const answer = await gw.call("POST", "/v0/documents/url", { as: unit, body: { data } });
      expect(answer.status, JSON.stringify(data)).toBe(400);
      expect(answer.body).toMatchObject({ code: "400-02" });
    }
  });

  it("points at the gateway, and uploading exactly the signed bytes answers 200 once", async () => {
    const { upload_url: url, document_id: id } = await uploadUrl(SAMPLES.pdf);
    expect(url.startsWith(`${gw.url}/v0/uploads/${id}?`)).toBe(true);
    const put = await fetch(url, {
      method: "PUT",
      headers: { "x-provider-checksum-sha256": checksumOf(SAMPLES.pdf) },
      body: SAMPLES.pdf,
    });
    expect(put.status).toBe(200);
    const again = await rawPut(url, headersFor(SAMPLES.pdf), SAMPLES.pdf);
    expect(again.status).toBe(409);
    expect(JSON.parse(again.body)).toMatchObject({ code: "409-04" });
    await expect.poll(() => documentStatus(id)).toBe("ACCEPTED");
  });

  it("refuses missing or mismatching headers and altered bytes with 403, keeps nothing, and stays usable", async () => {
    const bytes = SAMPLES.png;
    const { upload_url: url, document_id: id } = await uploadUrl(bytes);
    const attempts: [string, Record<string, string>, Buffer][] = [
      [
        "no Content-Length (chunked)",
        { "transfer-encoding": "chunked", "x-provider-checksum-sha256": checksumOf(bytes) },
        bytes,
      ],
      ["no checksum header", { "content-length": String(bytes.length) }, bytes],
      [
        "another checksum",
        { "content-length": String(bytes.length), "x-provider-checksum-sha256": checksumOf(SAMPLES.gif) },
        bytes,
      ],
      [
        "another length",
        { "content-length": String(bytes.length - 1), "x-provider-checksum-sha256": checksumOf(bytes) },
        bytes.subarray(1),
      ],
      ["other bytes of the same length", headersFor(bytes), Buffer.concat([bytes.subarray(0, -1), Buffer.from([0])])],
    ];
    for (const [name, headers, body] of attempts) {
      const answer = await rawPut(url, headers, body);
      expect(answer.status, name).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ code: "403-01", status: 403 });
    }
    expect(incomingFiles()).toEqual([]);
    expect(await documentStatus(id)).toBe("AWAITING_UPLOAD");
    expect((await rawPut(url, headersFor(bytes), bytes)).status).toBe(200);
  });

  it("refuses any single-character change to the address, the checksum header or the bytes with 403", async () => {
    const bytes = SAMPLES.tiff;
    const { upload_url: url } = await uploadUrl(bytes);
    const prefix = `${gw.url}/v0/uploads/`;
    const signed = url.slice(prefix.length); // the document id and the query: the parts the signature covers
    const checksum = checksumOf(bytes);
    const alphabet = "0123456789abcdefABCDEF-";
    const change = (text: string, index: number, replacement: string) =>
      text.slice(0, index) + replacement + text.slice(index + 1);
    const mutation = fc.oneof(
      fc.record({
        part: fc.constant("address" as const),
        index: fc.nat(signed.length - 1),
        char: fc.constantFrom(...alphabet),
      }),
      fc.record({
        part: fc.constant("checksum" as const),
        index: fc.nat(42),
        char: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
      }),
      fc.record({
        part: fc.constant("body" as const),
        index: fc.nat(bytes.length - 1),
        char: fc.constantFrom(..."ABC"),
      }),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async ({ part, index, char }) => {
        const address = part === "address" ? change(signed, index, char) : signed;
        const header = part === "checksum" ? change(checksum, index, char) : checksum;
        const body = Buffer.from(bytes);
        if (part === "body") body[index] = char.charCodeAt(0);
        fc.pre(address !== signed || header !== checksum || !body.equals(bytes));
        const answer = await rawPut(
          prefix + address,
          { "content-length": String(body.length), "x-provider-checksum-sha256": header },
          body,
        );
        // A change to a member's name leaves the address without that member: malformed (400), not forged.
        const query = new URLSearchParams(address.split("?")[1] ?? "");
        expect(answer.status).toBe(query.has("expires") && query.has("signature") ? 403 : 400);
      }),
      { numRuns: 60 },
    );
    expect((await rawPut(url, headersFor(bytes), bytes)).status).toBe(200);
  });

  it("expires ten minutes after generation by the gateway's clock (403-02)", async () => {
    const { upload_url: url } = await uploadUrl(SAMPLES.gif);
    await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 601 });
    const answer = await rawPut(url, headersFor(SAMPLES.gif), SAMPLES.gif);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "403-02" });
  });

  it("does not cut off an upload that started in time, however slow", async () => {
    const bytes = SAMPLES.pdf;
    const { upload_url: url } = await uploadUrl(bytes);
    const body = new PassThrough();
    const answer = rawPut(url, headersFor(bytes), body);
    body.write(bytes.subarray(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 1800 });
    body.end(bytes.subarray(10));
    expect((await answer).status).toBe(200);
  });

  it.each([
    ["over 41943040 bytes", "41943041"],
    ["far over 41943040 bytes", "419430401"],
    ["one byte more than signed", String(SAMPLES.pdf.length + 1)],
    ["one byte less than signed", String(SAMPLES.pdf.length - 1)],
  ])(
    "refuses a Content-Length %s that differs from the signed file_length with 403, before reading the body",
    async (_name, length) => {
      const { upload_url: url } = await uploadUrl(SAMPLES.pdf);
      const body = new PassThrough();
      const answer = rawPut(
        url,
        { "content-length": length, "x-provider-checksum-sha256": checksumOf(SAMPLES.pdf) },
        body,
      );
      body.write(Buffer.alloc(16)); // the rest never comes: the answer must not wait for it
      const result = await answer;
      body.destroy();
      expect(result.status).toBe(403);
      expect(JSON.parse(result.body)).toMatchObject({ code: "403-01" });
    },
  );

  it("keeps nothing of a body that ends early, and the address stays usable", async () => {
    const bytes = SAMPLES.png;
    const { upload_url: url } = await uploadUrl(bytes);
    const address = new URL(url);
    const socket = connect(Number(address.port), address.hostname);
    await once(socket, "connect");
    const head = [
      `PUT ${address.pathname}${address.search} HTTP/1.1`,
      `Host: ${address.host}`,
      `Content-Length: ${bytes.length}`,
      `X-Provider-Checksum-Sha256: ${checksumOf(bytes)}`,
      "",
      "",
    ];
    socket.write(head.join("\r\n"));
    socket.write(bytes.subarray(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy(); // the client gives up half way
    await expect.poll(() => incomingFiles()).toEqual([]);
    expect((await rawPut(url, headersFor(bytes), bytes)).status).toBe(200);
  });

  it.each(["expires", "signature"])(
    "answers 400-02 naming %s for an address without it, and stays usable",
    async (member) => {
      const bytes = SAMPLES.gif;
      const { upload_url: url } = await uploadUrl(bytes);
      const address = new URL(url);
      address.searchParams.delete(member);
      const answer = await rawPut(address.href, headersFor(bytes), bytes);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        code: "400-02",
        errors: [{ type: "required", pointer: `/query/${member}` }],
      });
      expect((await rawPut(url, headersFor(bytes), bytes)).status).toBe(200);
    },
  );

  it("answers 403 for an address that was never issued", async () => {
    const answer = await rawPut(
      `${gw.url}/v0/uploads/${randomUUID()}?expires=9999999999&signature=${"0".repeat(64)}`,
      headersFor(SAMPLES.pdf),
      SAMPLES.pdf,
    );
    expect(answer.status).toBe(403);
  });
});

describe("the registry's checks after upload", () => {
  it.each([
    ["a PDF", SAMPLES.pdf, "ACCEPTED"],
    ["a PNG", SAMPLES.png, "ACCEPTED"],
    ["a GIF", SAMPLES.gif, "ACCEPTED"],
    ["a TIFF", SAMPLES.tiff, "ACCEPTED"],
    ["a text file", SAMPLES.text, "REJECTED"],
    ["a password-protected PDF", SAMPLES.encryptedPdf, "REJECTED"],
  ] as const)("classify %s as %s", async (_name, bytes, want) => {
    const { upload_url: url, document_id: id } = await uploadUrl(bytes);
    expect((await rawPut(url, headersFor(bytes), bytes)).status).toBe(200);
    await expect.poll(() => documentStatus(id)).toBe(want);
  });

  it("reach the client: a submission with a rejected and a missing document fails validation, with attachment notifications", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "automatic" });
    const accepted = await uploadUrl(SAMPLES.pdf);
    await rawPut(accepted.upload_url, headersFor(SAMPLES.pdf), SAMPLES.pdf);
    const rejected = await uploadUrl(SAMPLES.encryptedPdf);
    await rawPut(rejected.upload_url, headersFor(SAMPLES.encryptedPdf), SAMPLES.encryptedPdf);
    const missing = await uploadUrl(SAMPLES.gif);
    const body = submission({
      documents: {
        tr1: { type: "TR1", document_id: accepted.document_id },
        ap1: { type: "TR1", document_id: rejected.document_id },
        plan: { type: "TR1", document_id: missing.document_id },
      },
    });
    const submitted = await gw.call("POST", "/v0/applications", {
      as: unit,
      body,
      headers: { "idempotency-key": idempotencyKey() },
    });
    const id = (submitted.body as { data: { application_request_id: string } }).data.application_request_id;
    const info = async () =>
      (
        (await gw.call("GET", `/v0/applications/${id}/information`, { as: unit })).body as {
          data: { status: string; errors: { type: string; pointer: string }[] };
        }
      ).data;
    await expect.poll(async () => (await info()).status, { timeout: 5000 }).toBe("VALIDATION_FAILED");
    expect((await info()).errors).toEqual([
      expect.objectContaining({
        type: "document-valid",
        pointer: "/documents/ap1/document_id",
        detail: expect.stringContaining("password protected"),
      }),
      expect.objectContaining({ type: "OC018", pointer: "/documents/plan/document_id" }),
    ]);
    const listed = (await gw.call("GET", `/v1/notifications?subject=${id}`, { as: unit })).body as {
      data: { notification_type: string; payload: { data: Record<string, unknown> } }[];
    };
    expect(listed.data.map((n) => [n.notification_type, n.payload.data["document_id"] ?? null])).toEqual([
      ["application.attachment-success", accepted.document_id],
      ["application.attachment-failed", rejected.document_id],
      ["application.attachment-failed", missing.document_id],
      ["application.validation-failed", null],
    ]);
  });
});

describe("downloads", () => {
  const protectedApplicationWithLetter = () => letterDownloadId(gw, unit);

  it("answer 302 to a signed address that serves the PDF without credentials; its SHA-256 is the download id", async () => {
    const downloadId = await protectedApplicationWithLetter();
    const first = await gw.call("GET", `/v1/documents/${downloadId}`, { as: unit });
    expect(first.status).toBe(302);
    const location = String(first.headers.get("location"));
    const second = await fetch(location); // no Authorization header
    expect(second.status).toBe(200);
    expect(second.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await second.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(downloadId);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.toString("latin1")).toContain("(Letter) Tj");
  });

  it("give 200 and the bytes to a client that follows redirects", async () => {
    const downloadId = await protectedApplicationWithLetter();
    const response = await fetch(`${gw.url}/v1/documents/${downloadId}`, {
      headers: { authorization: `Basic ${Buffer.from(`${unit.username}:${unit.password}`).toString("base64")}` },
    });
    expect(response.status).toBe(200);
    expect(
      createHash("sha256")
        .update(Buffer.from(await response.arrayBuffer()))
        .digest("hex"),
    ).toBe(downloadId);
  });

  it("are 404 for another business unit and for unknown ids, 400 for ids that are not 64 lower-case hex", async () => {
    const downloadId = await protectedApplicationWithLetter();
    const other = await gw.newBusinessUnit();
    expect((await gw.call("GET", `/v1/documents/${downloadId}`, { as: other })).status).toBe(404);
    expect((await gw.call("GET", `/v1/documents/${"a".repeat(64)}`, { as: unit })).status).toBe(404);
    for (const id of [downloadId.toUpperCase(), downloadId.slice(1), `${downloadId}0`, "zz".repeat(32)]) {
      expect((await gw.call("GET", `/v1/documents/${id}`, { as: unit })).status, id).toBe(400);
    }
  });

  it("refuse an address without its expiry or signature (400-02, the member named)", async () => {
    const downloadId = await protectedApplicationWithLetter();
    const location = String(
      (await gw.call("GET", `/v1/documents/${downloadId}`, { as: unit })).headers.get("location"),
    );
    for (const member of ["expires", "signature"]) {
      const address = new URL(location);
      address.searchParams.delete(member);
      const answer = await gw.call("GET", `${address.pathname}${address.search}`, { as: null });
      expect(answer.status, member).toBe(400);
      expect(answer.body).toMatchObject({ code: "400-02", errors: [{ pointer: `/query/${member}` }] });
    }
    expect((await gw.call("GET", location.slice(gw.url.length), { as: null })).status).toBe(200);
  });

  it("refuse an expired or altered download address (403-04)", async () => {
    const downloadId = await protectedApplicationWithLetter();
    const location = String(
      (await gw.call("GET", `/v1/documents/${downloadId}`, { as: unit })).headers.get("location"),
    );
    const path = location.slice(gw.url.length);
    const altered = path.replace(/signature=(.)/, (_m, c: string) => `signature=${c === "0" ? "1" : "0"}`);
    expect((await gw.call("GET", altered, { as: null })).status).toBe(403);
    await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 301 });
    const expired = await gw.call("GET", path, { as: null });
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({ code: "403-04" });
  });
});
