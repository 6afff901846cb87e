import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createGatewayClient,
  DocumentSizeError,
  GatewayError,
  MAX_DOCUMENT_BYTES,
  ProblemError,
  SignatureError,
  type DocumentSource,
  type UploadProgress,
} from "../src/index.js";
import { jsonResponse, recordingFetch } from "./support/recording-fetch.js";
import { json, startServer, type ReceivedRequest, type TestServer } from "./support/servers.js";
import { clientWith } from "./support/clients.js";

const DOCUMENT_ID = "0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4";
const directory = mkdtempSync(join(tmpdir(), "lrg-client-upload-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64");

/** Answers 403 as an upload address does: `403-01` (signature, length or checksum differ) or `403-02` (expired). */
function refuse(
  response: Parameters<typeof json>[0],
  url: string,
  code: "403-01" | "403-02",
  headers: Record<string, string> = {},
): void {
  const detail = code === "403-01" ? "signature verification failure" : "the upload address expired; ask for a new one";
  json(
    response,
    403,
    { type: "about:blank", title: "Forbidden", status: 403, detail, instance: url, code },
    { "content-type": "application/problem+json", ...headers },
  );
}

interface Signed {
  length: number;
  checksum: string;
}

/**
 * A gateway that signs upload addresses on itself (the same origin, so that leaking credentials would show)
 * and checks an upload the way the spec says: length, checksum header and the bytes' digest, else 403-01.
 */
async function startGateway(options: { refuseUrl?: boolean } = {}) {
  const signed = new Map<string, Signed>();
  const server: TestServer = await startServer((request: ReceivedRequest, response) => {
    if (request.method === "POST" && request.url === "/v0/documents/url") {
      if (options.refuseUrl === true) {
        return json(
          response,
          400,
          {
            type: "about:blank",
            title: "Bad Request",
            status: 400,
            detail: "unknown document_type",
            instance: request.url,
            code: "400-02",
          },
          { "content-type": "application/problem+json" },
        );
      }
      const { data } = JSON.parse(request.body.toString()) as { data: { file_length: number; file_sha256: string } };
      signed.set(DOCUMENT_ID, { length: data.file_length, checksum: data.file_sha256 });
      return json(response, 200, {
        data: {
          upload_url: `${server.url}/v0/uploads/${DOCUMENT_ID}?expires=1&signature=abc`,
          document_id: DOCUMENT_ID,
        },
      });
    }
    if (request.method === "PUT" && request.url.startsWith(`/v0/uploads/${DOCUMENT_ID}?`)) {
      const expected = signed.get(DOCUMENT_ID);
      const ok =
        expected !== undefined &&
        request.headers["content-length"] === String(expected.length) &&
        request.headers["x-provider-checksum-sha256"] === expected.checksum &&
        request.body.length === expected.length &&
        sha256(request.body) === expected.checksum;
      if (!ok) return refuse(response, request.url, "403-01");
      response.writeHead(200).end();
      return;
    }
    json(response, 404, {});
  });
  servers.push(server);
  const client = createGatewayClient({ baseUrl: server.url, username: "alex", password: "secret" });
  return { server, client, signed };
}

function file(name: string, bytes: Uint8Array): string {
  const path = join(directory, name);
  writeFileSync(path, bytes);
  return path;
}

const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, index) => (index * 31) % 251);

describe("uploadDocument", () => {
  const sources: [string, () => DocumentSource][] = [
    ["a file path", () => file("document.pdf", bytes)],
    ["a Uint8Array", () => bytes],
    ["a Buffer", () => Buffer.from(bytes)],
    ["a Blob", () => new Blob([bytes])],
    ["a Readable", () => Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)])],
    [
      "an async iterable",
      () =>
        (async function* () {
          for (let offset = 0; offset < bytes.length; offset += 65_536) yield bytes.subarray(offset, offset + 65_536);
        })(),
    ],
  ];

  it.each(sources)("uploads from %s with the exact headers and no credentials", async (_name, source) => {
    const { server, client } = await startGateway();
    const result = await client.uploadDocument(source(), { documentType: "TR1" });
    expect(result).toEqual({ document_id: DOCUMENT_ID, file_length: bytes.length, file_sha256: sha256(bytes) });

    const [urlRequest, upload] = server.requests;
    expect(urlRequest?.headers.authorization).toMatch(/^Basic /);
    expect(JSON.parse(urlRequest?.body.toString() ?? "")).toEqual({
      data: { document_type: "TR1", file_length: bytes.length, file_sha256: sha256(bytes) },
    });
    expect(upload?.method).toBe("PUT");
    expect(upload?.url).toBe(`/v0/uploads/${DOCUMENT_ID}?expires=1&signature=abc`);
    expect(upload?.headers.authorization).toBeUndefined();
    expect(upload?.headers["content-length"]).toBe(String(bytes.length));
    expect(upload?.headers["transfer-encoding"]).toBeUndefined();
    expect(upload?.headers["x-provider-checksum-sha256"]).toBe(sha256(bytes));
    expect(upload?.headers["content-type"]).toBe("application/octet-stream");
    expect(Buffer.compare(upload?.body ?? Buffer.alloc(0), Buffer.from(bytes))).toBe(0);
  });

  it("sends the additional provider filter", async () => {
    const { server, client } = await startGateway();
    await client.uploadDocument(bytes.subarray(0, 10), { documentType: "AP1", additionalProviderFilter: "team-a" });
    expect(JSON.parse(server.requests[0]?.body.toString() ?? "").data.additional_provider_filter).toBe("team-a");
  });

  it("reports progress while hashing and while uploading", async () => {
    const { client } = await startGateway();
    const events: UploadProgress[] = [];
    await client.uploadDocument(file("progress.pdf", bytes), {
      documentType: "TR1",
      onProgress: (event) => events.push(event),
    });
    const hashing = events.filter((event) => event.phase === "hashing");
    const uploading = events.filter((event) => event.phase === "uploading");
    expect(hashing.length).toBeGreaterThan(1);
    expect(uploading.length).toBeGreaterThan(1);
    expect(events.findIndex((event) => event.phase === "uploading")).toBe(hashing.length); // hashing comes first
    for (const phase of [hashing, uploading]) {
      const loaded = phase.map((event) => event.loaded);
      expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
      expect(phase.at(-1)).toMatchObject({ loaded: bytes.length, total: bytes.length });
    }
  });

  it("accepts a document of exactly 41943040 bytes", async () => {
    const { client, server } = await startGateway();
    const path = join(directory, "largest.tif");
    writeFileSync(path, "");
    truncateSync(path, MAX_DOCUMENT_BYTES);
    const result = await client.uploadDocument(path, { documentType: "TR1" });
    expect(result.file_length).toBe(MAX_DOCUMENT_BYTES);
    expect(server.requests[1]?.body.length).toBe(MAX_DOCUMENT_BYTES);
  });

  const tooLarge: [string, () => DocumentSource][] = [
    [
      "a file path",
      () => {
        const path = join(directory, "too-large.pdf");
        writeFileSync(path, "");
        truncateSync(path, MAX_DOCUMENT_BYTES + 1);
        return path;
      },
    ],
    ["a Uint8Array", () => new Uint8Array(MAX_DOCUMENT_BYTES + 1)],
    ["a Blob", () => new Blob([new Uint8Array(MAX_DOCUMENT_BYTES + 1)])],
    [
      "a stream, refused as soon as it passes the limit",
      () => {
        const chunk = new Uint8Array(1024 * 1024);
        return (async function* () {
          for (let index = 0; index < 40; index++) yield chunk;
          yield new Uint8Array(1);
          throw new Error("read past the limit");
        })();
      },
    ],
  ];
  it.each(tooLarge)("refuses more than 41943040 bytes from %s before any request", async (_name, source) => {
    const { client, server } = await startGateway();
    const failure = await client.uploadDocument(source(), { documentType: "TR1" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentSizeError);
    expect(failure).toBeInstanceOf(RangeError);
    expect((failure as DocumentSizeError).size).toBeGreaterThan(MAX_DOCUMENT_BYTES);
    expect(server.requests).toHaveLength(0);
  });

  it("refuses an empty document before any request", async () => {
    const { client, server } = await startGateway();
    await expect(client.uploadDocument(new Uint8Array(0), { documentType: "TR1" })).rejects.toBeInstanceOf(
      DocumentSizeError,
    );
    await expect(
      client.uploadDocument(file("empty.pdf", new Uint8Array(0)), { documentType: "TR1" }),
    ).rejects.toBeInstanceOf(DocumentSizeError);
    expect(server.requests).toHaveLength(0);
  });

  it("refuses a stream of text", async () => {
    const { client, server } = await startGateway();
    await expect(client.uploadDocument(Readable.from(["text"]), { documentType: "TR1" })).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
  });

  it("turns a 403 from the upload address into a SignatureError", async () => {
    const { client, signed } = await startGateway();
    const pending = client.uploadDocument(bytes, {
      documentType: "TR1",
      onProgress: (event) => {
        // The address was signed for other bytes: tamper with what the gateway recorded at signing.
        if (event.phase === "uploading" && event.loaded === Math.min(bytes.length, 1 << 20)) {
          signed.set(DOCUMENT_ID, { length: bytes.length, checksum: sha256(new Uint8Array(1)) });
        }
      },
    });
    const failure = await pending.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignatureError);
    expect((failure as SignatureError).status).toBe(403);
    expect((failure as SignatureError).code).toBe("403-01");
  });

  it("surfaces a 403 answered before the body was read", async () => {
    const server = await startServer(
      (request, response) => {
        if (request.method === "POST") {
          return json(response, 200, {
            data: { upload_url: `${server.url}/v0/uploads/${DOCUMENT_ID}`, document_id: DOCUMENT_ID },
          });
        }
        refuse(response, request.url, "403-02", { connection: "close" });
      },
      { readBody: false },
    );
    servers.push(server);
    const client = clientWith({ baseUrl: server.url });
    const failure = await client.uploadDocument(bytes, { documentType: "TR1" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignatureError);
    expect((failure as SignatureError).code).toBe("403-02");
    // An expired address is renewed once; a second one expired too is the caller's to handle.
    expect(server.requests.map((request) => request.method)).toEqual(["POST", "PUT", "POST", "PUT"]);
  });

  it("asks for a new address when the first expired before the upload (403-02), and sends the bytes there", async () => {
    let addresses = 0;
    const received: Buffer[] = [];
    const server = await startServer((request, response) => {
      if (request.method === "POST") {
        addresses += 1;
        const id = `${DOCUMENT_ID.slice(0, -1)}${addresses}`;
        return json(response, 200, { data: { upload_url: `${server.url}/v0/uploads/${id}`, document_id: id } });
      }
      if (request.url.endsWith("1")) return refuse(response, request.url, "403-02");
      received.push(request.body);
      response.writeHead(200).end();
    });
    servers.push(server);
    const client = clientWith({ baseUrl: server.url });
    const uploaded = await client.uploadDocument(bytes, { documentType: "TR1" });
    expect(uploaded.document_id).toBe(`${DOCUMENT_ID.slice(0, -1)}2`);
    expect(received.map((body) => sha256(body))).toEqual([sha256(bytes)]);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      "POST /v0/documents/url",
      `PUT /v0/uploads/${DOCUMENT_ID.slice(0, -1)}1`,
      "POST /v0/documents/url",
      `PUT /v0/uploads/${DOCUMENT_ID.slice(0, -1)}2`,
    ]);
  });

  it("does not renew an address refused for its signature (403-01): the bytes or headers are wrong, not the address's age", async () => {
    const server = await startServer((request, response) => {
      if (request.method === "POST")
        return json(response, 200, {
          data: { upload_url: `${server.url}/v0/uploads/${DOCUMENT_ID}`, document_id: DOCUMENT_ID },
        });
      refuse(response, request.url, "403-01");
    });
    servers.push(server);
    const client = clientWith({ baseUrl: server.url });
    const failure = await client.uploadDocument(bytes, { documentType: "TR1" }).catch((error: unknown) => error);
    expect((failure as SignatureError).code).toBe("403-01");
    expect(server.requests.map((request) => request.method)).toEqual(["POST", "PUT"]);
  });

  it("throws the problem of a refused upload address request, and uploads nothing", async () => {
    const { client, server } = await startGateway({ refuseUrl: true });
    const failure = await client.uploadDocument(bytes, { documentType: "TR1" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect(failure).not.toBeInstanceOf(SignatureError);
    expect((failure as ProblemError).code).toBe("400-02");
    expect(server.requests).toHaveLength(1);
  });

  it("fails clearly when the file changes between the two passes", async () => {
    const { client } = await startGateway();
    const path = file("changing.pdf", bytes);
    const failure = await client
      .uploadDocument(path, {
        documentType: "TR1",
        onProgress: (event) => {
          if (event.phase === "uploading" && event.loaded === 16 * 1024) appendFileSync(path, "more");
        },
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect((failure as Error).message).toMatch(/grew/);
  });

  it("fails clearly when the file shrinks between the two passes", async () => {
    const { client } = await startGateway();
    const path = file("shrinking.pdf", bytes);
    const failure = await client
      .uploadDocument(path, {
        documentType: "TR1",
        onProgress: (event) => {
          if (event.phase === "uploading" && event.loaded === 16 * 1024) truncateSync(path, 100_000);
        },
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect((failure as Error).message).toMatch(/shrank/);
  });

  it('sends the PUT with redirect "error", so that fetch keeps no copy of the streamed body', async () => {
    const recorder = recordingFetch((request) =>
      request.method === "POST"
        ? jsonResponse(200, {
            data: { upload_url: "http://uploads.test/put-here?signature=s", document_id: DOCUMENT_ID },
          })
        : new Response(null, { status: 200 }),
    );
    const client = clientWith({ fetch: recorder.fetch });
    const text = "%PDF-1.7 ".repeat(5000);
    await client.uploadDocument(new TextEncoder().encode(text), { documentType: "TR1" });
    expect(recorder.last()).toMatchObject({ method: "PUT", redirect: "error", body: text });
    expect(recorder.last().url.href).toBe("http://uploads.test/put-here?signature=s");
    expect(recorder.last().headers.has("authorization")).toBe(false);
  });
});
