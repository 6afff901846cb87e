import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createGatewayClient, ProblemError } from "../src/index.js";
import { clientWith, FAKE_GATEWAY } from "./support/clients.js";
import { jsonResponse, recordingFetch } from "./support/recording-fetch.js";
import { json, startServer, type TestServer } from "./support/servers.js";

const DOWNLOAD_ID = "3b4c1f0e9d2a7c6b5e8f1a2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b";
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(200_000, 7), Buffer.from("\n%%EOF\n")]);
const directory = mkdtempSync(join(tmpdir(), "lrg-client-download-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The storage host: serves the bytes at a signed address, or 403 when `expired`. */
async function startStorage(options: { expired?: boolean; dropMidway?: boolean } = {}) {
  const storage = await startServer((request, response) => {
    if (options.expired === true) {
      return json(
        response,
        403,
        {
          type: "about:blank",
          title: "Forbidden",
          status: 403,
          detail: "expired",
          instance: request.url,
          code: "403-04",
        },
        { "content-type": "application/problem+json" },
      );
    }
    response.writeHead(200, {
      "content-type": "application/pdf",
      "content-length": PDF.length,
      "content-disposition": 'attachment; filename="LTR-3b4c1f0e.pdf"',
    });
    if (options.dropMidway === true) {
      response.write(PDF.subarray(0, 1000));
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    response.end(PDF);
  });
  servers.push(storage);
  return storage;
}

/** The gateway: answers 302 to the storage host's signed address. */
async function startGateway(location: (id: string) => string) {
  const gateway = await startServer((request, response) => {
    const id = request.url.split("/").at(-1) ?? "";
    if (!request.url.startsWith("/v1/documents/")) return json(response, 404, {});
    response.writeHead(302, { location: location(id), "content-length": 0 });
    response.end();
  });
  servers.push(gateway);
  return gateway;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe("downloadDocument", () => {
  it("follows Location to another host without the Authorization header (two real servers)", async () => {
    const storage = await startStorage();
    const gateway = await startGateway((id) => `${storage.url}/blobs/${id}?expires=1&signature=abc`);
    const client = createGatewayClient({ baseUrl: gateway.url, username: "alex", password: "secret" });

    const download = await client.downloadDocument(DOWNLOAD_ID);
    expect(Buffer.compare(await readAll(download.body), PDF)).toBe(0);
    expect(download).toMatchObject({
      contentType: "application/pdf",
      contentLength: PDF.length,
      fileName: "LTR-3b4c1f0e.pdf",
    });

    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]?.headers.authorization).toMatch(/^Basic /);
    expect(storage.requests).toHaveLength(1);
    expect(storage.requests[0]?.url).toBe(`/blobs/${DOWNLOAD_ID}?expires=1&signature=abc`);
    expect(storage.requests[0]?.headers.authorization).toBeUndefined();
    expect(storage.requests[0]?.headers.cookie).toBeUndefined();
  });

  it("does not send credentials to a relative Location on the gateway itself either", async () => {
    let gatewayUrl = "";
    const gateway = await startServer((request, response) => {
      if (request.url.startsWith("/v1/documents/")) {
        response.writeHead(302, { location: `/v1/document-downloads/${DOWNLOAD_ID}?expires=1&signature=abc` }).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/pdf" }).end(PDF);
    });
    servers.push(gateway);
    gatewayUrl = gateway.url;
    const client = createGatewayClient({ baseUrl: gatewayUrl, username: "alex", password: "secret" });
    const download = await client.downloadDocument(DOWNLOAD_ID);
    expect((await readAll(download.body)).length).toBe(PDF.length);
    expect(
      gateway.requests.map((request) => [request.url.split("?")[0], request.headers.authorization !== undefined]),
    ).toEqual([
      [`/v1/documents/${DOWNLOAD_ID}`, true],
      [`/v1/document-downloads/${DOWNLOAD_ID}`, false],
    ]);
  });

  it("writes to a file, leaving nothing partial beside it", async () => {
    const storage = await startStorage();
    const gateway = await startGateway((id) => `${storage.url}/blobs/${id}`);
    const client = createGatewayClient({ baseUrl: gateway.url, username: "alex", password: "secret" });
    const path = join(directory, "letter.pdf");
    const result = await client.downloadDocument(DOWNLOAD_ID, { to: path });
    expect(result).toEqual({ path, bytes: PDF.length, contentType: "application/pdf", fileName: "LTR-3b4c1f0e.pdf" });
    expect(Buffer.compare(readFileSync(path), PDF)).toBe(0);
    expect(readdirSync(directory).filter((name) => name.includes("partial"))).toEqual([]);
  });

  it("follows a further redirect from the storage host, still without credentials", async () => {
    const storage = await startStorage();
    const hop = await startServer((request, response) => {
      response.writeHead(307, { location: `${storage.url}${request.url}` }).end();
    });
    servers.push(hop);
    const gateway = await startGateway((id) => `${hop.url}/blobs/${id}`);
    const client = createGatewayClient({ baseUrl: gateway.url, username: "alex", password: "secret" });
    const download = await client.downloadDocument(DOWNLOAD_ID);
    expect((await readAll(download.body)).length).toBe(PDF.length);
    expect(hop.requests[0]?.headers.authorization).toBeUndefined();
    expect(storage.requests[0]?.headers.authorization).toBeUndefined();
  });

  it.each([
    ["upper case", DOWNLOAD_ID.toUpperCase()],
    ["63 characters", DOWNLOAD_ID.slice(1)],
    ["65 characters", `${DOWNLOAD_ID}0`],
    ["not hexadecimal", `${DOWNLOAD_ID.slice(1)}g`],
    ["a path", `../${DOWNLOAD_ID.slice(3)}`],
  ])("refuses a download id that is %s before any request", async (_name, id) => {
    const recorder = recordingFetch(() => new Response(null, { status: 500 }));
    const client = clientWith({ fetch: recorder.fetch });
    await expect(client.downloadDocument(id)).rejects.toThrow(TypeError);
    expect(recorder.requests).toHaveLength(0);
  });

  it("asks the gateway not to follow the redirect", async () => {
    const recorder = recordingFetch((request) =>
      request.url.hostname === "gateway.test"
        ? new Response(null, { status: 302, headers: { location: "http://storage.test/blob" } })
        : new Response("bytes", { status: 200, headers: { "content-type": "application/pdf" } }),
    );
    const client = clientWith({ fetch: recorder.fetch });
    const download = await client.downloadDocument(DOWNLOAD_ID);
    expect(await new Response(download.body).text()).toBe("bytes");
    expect(
      recorder.requests.map((request) => [request.url.href, request.redirect, request.headers.has("authorization")]),
    ).toEqual([
      [`${FAKE_GATEWAY}/v1/documents/${DOWNLOAD_ID}`, "manual", true],
      ["http://storage.test/blob", "manual", false],
    ]);
  });

  it("accepts the bytes answered at once", async () => {
    const recorder = recordingFetch(
      () => new Response("bytes", { status: 200, headers: { "content-type": "application/pdf" } }),
    );
    const client = clientWith({ fetch: recorder.fetch });
    const download = await client.downloadDocument(DOWNLOAD_ID);
    expect(await new Response(download.body).text()).toBe("bytes");
    expect(recorder.requests).toHaveLength(1);
  });

  it("throws the problem of an unknown download id", async () => {
    const recorder = recordingFetch(() =>
      jsonResponse(404, {
        type: "about:blank",
        title: "Not Found",
        status: 404,
        detail: "no such document",
        instance: "/",
        code: "404-01",
      }),
    );
    const client = clientWith({ fetch: recorder.fetch });
    const failure = await client.downloadDocument(DOWNLOAD_ID).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect((failure as ProblemError).code).toBe("404-01");
  });

  it("throws the problem of an expired address and writes no file", async () => {
    const storage = await startStorage({ expired: true });
    const gateway = await startGateway((id) => `${storage.url}/blobs/${id}`);
    const client = createGatewayClient({ baseUrl: gateway.url, username: "alex", password: "secret" });
    const path = join(directory, "expired.pdf");
    const failure = await client.downloadDocument(DOWNLOAD_ID, { to: path }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect((failure as ProblemError).code).toBe("403-04");
    expect(existsSync(path)).toBe(false);
  });

  it("leaves no file behind when the connection drops midway", async () => {
    const storage = await startStorage({ dropMidway: true });
    const gateway = await startGateway((id) => `${storage.url}/blobs/${id}`);
    const client = createGatewayClient({ baseUrl: gateway.url, username: "alex", password: "secret" });
    const path = join(directory, "dropped.pdf");
    await expect(client.downloadDocument(DOWNLOAD_ID, { to: path })).rejects.toThrow();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(directory).filter((name) => name.startsWith("dropped"))).toEqual([]);
  });
});
