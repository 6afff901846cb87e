// The client's document upload against a real gateway: every kind of source is accepted and passes the
// gateway's document checks; bytes that differ from what the address was signed for surface as SignatureError;
// a document over 40 MiB is refused before any request.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentSizeError, MAX_DOCUMENT_BYTES, SignatureError, type UploadProgress } from "../../src/index.js";
import {
  countingFetch,
  sha256Base64,
  smallPdf,
  startGateway,
  type Credentials,
  type RunningGateway,
} from "./gateway-support.js";

let gw: RunningGateway;
let unit: Credentials;
let workDir: string;

beforeAll(async () => {
  gw = await startGateway();
  unit = await gw.newBusinessUnit();
  workDir = mkdtempSync(join(tmpdir(), "lrg-client-documents-"));
});
afterAll(async () => {
  await gw?.stop();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

/** The gateway's own record of a document: its status after the checks, and what it was signed for. */
async function storedDocument(documentId: string) {
  return gw.gateway.storage.findDocument(documentId);
}

describe("uploadDocument against the gateway", () => {
  it.each([
    [
      "a file path",
      (bytes: Buffer) => {
        const path = join(workDir, "transfer.pdf");
        writeFileSync(path, bytes);
        return path;
      },
    ],
    ["bytes", (bytes: Buffer) => new Uint8Array(bytes)],
    [
      "a Node stream",
      (bytes: Buffer) => Readable.from([bytes.subarray(0, 10), bytes.subarray(10, 40), bytes.subarray(40)]),
    ],
    ["a Blob", (bytes: Buffer) => new Blob([new Uint8Array(bytes)])],
  ] as const)("sends %s: accepted, checks passed, credentials kept off the upload address", async (name, sourceOf) => {
    const bytes = smallPdf(name);
    const transport = countingFetch();
    const progress: UploadProgress[] = [];
    const client = gw.client(unit, { fetch: transport.fetch });

    const uploaded = await client.uploadDocument(sourceOf(bytes), {
      documentType: "TR1",
      onProgress: (event) => progress.push(event),
    });

    expect(uploaded).toEqual({
      document_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      file_length: bytes.length,
      file_sha256: sha256Base64(bytes),
    });
    await expect
      .poll(async () => (await storedDocument(uploaded.document_id))?.status, { timeout: 5000 })
      .toBe("ACCEPTED");
    const stored = await storedDocument(uploaded.document_id);
    expect(stored).toMatchObject({ fileLength: bytes.length, fileSha256: sha256Base64(bytes) });

    // Two requests: the address (with Basic), then the PUT to the signed address (without).
    expect(
      transport.requests.map((request) => [
        request.method,
        new URL(request.url).pathname.split("/").slice(0, 3).join("/"),
      ]),
    ).toEqual([
      ["POST", "/v0/documents"],
      ["PUT", "/v0/uploads"],
    ]);
    expect(transport.requests[0]?.authorization).toMatch(/^Basic /);
    expect(transport.requests[1]?.authorization).toBeNull();
    expect(progress.at(-1)).toEqual({ phase: "uploading", loaded: bytes.length, total: bytes.length });
    expect(progress.some((event) => event.phase === "hashing")).toBe(true);
  });

  it("surfaces bytes that differ from the checksum the address was signed for as SignatureError (403-01)", async () => {
    // A file changed, same length, after it was hashed and before it is sent: the address is signed for the
    // checksum of other bytes than those the PUT carries.
    const original = smallPdf("original");
    const tampered = smallPdf("tampered");
    expect(tampered.length).toBe(original.length);
    const path = join(workDir, "tampered.pdf");
    writeFileSync(path, original);
    const transport = countingFetch();
    const client = gw.client(unit, { fetch: transport.fetch });

    const failure = await client
      .uploadDocument(path, {
        documentType: "TR1",
        onProgress: ({ phase, loaded, total }) => {
          if (phase === "hashing" && loaded === total) writeFileSync(path, tampered);
        },
      })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(SignatureError);
    expect(failure).toMatchObject({ status: 403, code: "403-01" });
    expect(transport.requests.map((request) => request.method)).toEqual(["POST", "PUT"]);
    // Nothing was kept: the document still waits for its bytes.
    const documentId = new URL(transport.requests[1]?.url ?? "http://x/").pathname.split("/").at(-1) ?? "";
    expect((await storedDocument(documentId))?.status).toBe("AWAITING_UPLOAD");
  });

  it("surfaces a checksum header of other bytes as SignatureError, and the address still takes the right bytes", async () => {
    const bytes = smallPdf("header");
    let documentPath = "";
    // Rewrites the checksum header of the PUT to that of other bytes; everything else as the client sent it.
    const transport = countingFetch(async (request) => {
      if (request.method !== "PUT") return globalThis.fetch(request, { window: null });
      documentPath = new URL(request.url).pathname;
      const headers = new Headers(request.headers);
      headers.set("x-provider-checksum-sha256", sha256Base64(smallPdf("other bytes")));
      return globalThis.fetch(new Request(request, { headers }), { window: null });
    });
    const failure = await gw
      .client(unit, { fetch: transport.fetch })
      .uploadDocument(new Uint8Array(bytes), { documentType: "TR1" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignatureError);
    expect(failure).toMatchObject({ status: 403, code: "403-01" });
    const documentId = documentPath.split("/").at(-1) ?? "";
    expect((await storedDocument(documentId))?.status).toBe("AWAITING_UPLOAD");
  });

  it("refuses a document over 40 MiB (path, bytes, stream) and an empty one before any request", async () => {
    const tooLarge = MAX_DOCUMENT_BYTES + 1;
    const sparse = join(workDir, "too-large.pdf");
    writeFileSync(sparse, smallPdf());
    truncateSync(sparse, tooLarge);
    const mebibyte = new Uint8Array(1 << 20);
    const endless = async function* () {
      for (let sent = 0; sent <= MAX_DOCUMENT_BYTES; sent += mebibyte.byteLength) yield mebibyte;
    };
    const transport = countingFetch();
    const client = gw.client(unit, { fetch: transport.fetch });
    const before = await gw.answeredRequests();

    for (const source of [sparse, new Uint8Array(tooLarge), endless(), Readable.from(endless()), new Uint8Array(0)]) {
      const failure = await client.uploadDocument(source, { documentType: "TR1" }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DocumentSizeError);
      expect(failure).toBeInstanceOf(RangeError);
    }

    expect(transport.requests).toEqual([]);
    expect(await gw.answeredRequests()).toBe(before);
  });
});
