// The whole document path over HTTP with the blobs in a bucket (LRG_BLOB_URL) of a real S3-compatible service
// (s3rver, in this process): an upload kept and checked, a registry letter downloaded through its signed address.
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer as createNetServer, connect, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentStatus, letterDownloadId, uploadAddress, uploadHeaders } from "./support/documents.js";
import { startGateway, type Credentials, type TestGateway } from "./support/gateway.js";
import { startTestBucket, type TestBucket } from "./support/s3.js";
import { rawPut, SAMPLES } from "./support/upload.js";

const PREFIX = "sandbox/documents";

/**
 * A TCP proxy to the S3 service that can freeze: while frozen, new connections are taken and nothing is forwarded
 * either way (as a SIGSTOPped server behaves); thawed, new connections pass again. `freezeAtGetOf(key)` freezes it
 * the moment a GET of that object arrives (which is then not forwarded), and `getsOf(key)` counts those GETs.
 */
async function freezableProxy(targetPort: string) {
  let frozen = false;
  let freezeAt: string | undefined;
  const gets = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    // Before the pipe's own listener, so that the GET that freezes the proxy is not forwarded.
    client.on("data", (chunk: Buffer) => {
      const request = chunk.toString("latin1");
      const key = /^GET \/[^/]+\/([^? ]+)/.exec(request)?.[1];
      if (key === undefined) return;
      gets.set(key, (gets.get(key) ?? 0) + 1);
      if (key === freezeAt) {
        freezeAt = undefined;
        frozen = true;
        dropAll();
      }
    });
    if (frozen) return;
    const upstream = connect(Number(targetPort), "127.0.0.1");
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => {
      frozen = true;
      dropAll();
    },
    freezeAtGetOf: (key: string) => (freezeAt = key),
    getsOf: (key: string) => gets.get(key) ?? 0,
    thaw: () => {
      frozen = false;
      dropAll();
    },
    close: () => {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
/** A gateway whose bucket (blobs under `prefix`) is reached through a freezable proxy, its calls bounded at 300 ms. */
async function gatewayBehindProxy(prefix: string) {
  const proxy = await freezableProxy(new URL(bucket.s3.endpoint!).port);
  const other = await startGateway({
    blobUrl: `s3://${bucket.bucket}/${prefix}`,
    s3: { ...bucket.s3, endpoint: `http://127.0.0.1:${proxy.port}`, timeoutMs: 300 },
  });
  return { proxy, other, otherUnit: await other.newBusinessUnit() };
}

let bucket: TestBucket;
let gw: TestGateway;
let unit: Credentials;
beforeAll(async () => {
  bucket = await startTestBucket("lrg-documents");
  gw = await startGateway({ blobUrl: `s3://${bucket.bucket}/${PREFIX}`, s3: bucket.s3 });
  unit = await gw.newBusinessUnit();
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
});
afterAll(async () => {
  await gw?.stop();
  await bucket?.stop();
});

const keyOf = (sha256Hex: string) => `${PREFIX}/${sha256Hex.slice(0, 2)}/${sha256Hex}`;
const hexOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
/** The files under the data directory's blobs, which a gateway on a bucket keeps only while an upload lasts. */
const localBlobFiles = () =>
  readdirSync(join(gw.dataDir, "blobs"), { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name));

describe("with its blobs in a bucket, the gateway", () => {
  it.each([
    ["a PDF", "ACCEPTED", SAMPLES.pdf],
    ["a password-protected PDF", "REJECTED", SAMPLES.encryptedPdf],
    ["a text file", "REJECTED", SAMPLES.text],
  ] as const)("keeps an upload of %s in the bucket and checks it there: %s", async (_name, want, bytes) => {
    const { upload_url: url, document_id: id } = await uploadAddress(gw, unit, bytes);
    expect((await rawPut(url, uploadHeaders(bytes), bytes)).status).toBe(200);
    expect(await bucket.keys()).toContain(keyOf(hexOf(bytes)));
    await expect.poll(() => documentStatus(gw, id)).toBe(want);
  });

  it("serves a registry letter from the bucket through its signed download address", async () => {
    const downloadId = await letterDownloadId(gw, unit);
    expect(await bucket.keys()).toContain(keyOf(downloadId));
    const redirect = await gw.call("GET", `/v1/documents/${downloadId}`, { as: unit });
    expect(redirect.status).toBe(302);
    const download = await fetch(String(redirect.headers.get("location")));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(hexOf(bytes)).toBe(downloadId);
    expect(bytes.toString("latin1")).toContain("(Letter) Tj");
  });

  it("refuses to start on a bucket it cannot write, in one line naming LRG_BLOB_URL and the credentials", async () => {
    await expect(startGateway({ blobUrl: "s3://lrg-never-created/documents", s3: bucket.s3 })).rejects.toThrow(
      /^LRG_BLOB_URL s3:\/\/lrg-never-created\/documents: the bucket refused a write \(.*\); check LRG_BLOB_URL, AWS_ENDPOINT_URL \(or LRG_S3_ENDPOINT\) and the credentials/,
    );
    await expect(
      startGateway({
        blobUrl: "s3://lrg-test-blobs",
        s3: { ...bucket.s3, credentials: { accessKeyId: "WRONG", secretAccessKey: "WRONG" } },
      }),
    ).rejects.toThrow(/^LRG_BLOB_URL s3:\/\/lrg-test-blobs: the bucket refused a write/);
  });

  it("answers 503-02 to an upload the bucket refuses and is not ready meanwhile, then takes it again at the same address", async () => {
    await bucket.create("lrg-removed-later");
    const other = await startGateway({ blobUrl: "s3://lrg-removed-later/documents", s3: bucket.s3 });
    try {
      const otherUnit = await other.newBusinessUnit();
      const bytes = SAMPLES.gif;
      const { upload_url: url, document_id: id } = await uploadAddress(other, otherUnit, bytes);
      await bucket.remove("lrg-removed-later");
      const refused = await rawPut(url, uploadHeaders(bytes), bytes);
      expect(refused.status).toBe(503);
      expect(refused.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
      expect(JSON.parse(refused.body)).toMatchObject({ code: "503-02" });
      expect(await documentStatus(other, id)).toBe("AWAITING_UPLOAD");
      expect(readdirSync(join(other.dataDir, "blobs", "incoming"))).toEqual([]);
      const notReady = await fetch(`${other.url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ blobs: { kind: "bucket", reachable: true, writable: false } });
      await bucket.create("lrg-removed-later");
      expect((await fetch(`${other.url}/readyz`)).status).toBe(200);
      expect((await rawPut(url, uploadHeaders(bytes), bytes)).status).toBe(200);
      expect(await bucket.keys("lrg-removed-later")).toContain(`documents/${hexOf(bytes).slice(0, 2)}/${hexOf(bytes)}`);
      await expect.poll(() => documentStatus(other, id)).toBe("ACCEPTED");
    } finally {
      await other.stop();
    }
  });

  it("bounds every call to a frozen object store (LRG_BLOB_TIMEOUT_MS): 503-02 and not ready, then recovers", async () => {
    const { proxy, other, otherUnit } = await gatewayBehindProxy("frozen");
    try {
      const bytes = SAMPLES.png;
      const { upload_url: url } = await uploadAddress(other, otherUnit, bytes);
      proxy.freeze();
      const refused = await rawPut(url, uploadHeaders(bytes), bytes);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toMatchObject({ code: "503-02" });
      const notReady = await fetch(`${other.url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ blobs: { kind: "bucket", reachable: false, writable: false } });
      proxy.thaw();
      expect((await rawPut(url, uploadHeaders(bytes), bytes)).status).toBe(200);
      expect((await fetch(`${other.url}/readyz`)).status).toBe(200);
    } finally {
      await other.stop();
      await proxy.close();
    }
  });

  it("checks again by itself a document whose check met an outage of the store, once the store is back, and raises its notification", async () => {
    const { proxy, other, otherUnit } = await gatewayBehindProxy("interrupted");
    try {
      await other.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
      const applicationId = await other.submit(otherUnit);
      const bytes = SAMPLES.tiff;
      const key = `interrupted/${hexOf(bytes).slice(0, 2)}/${hexOf(bytes)}`;
      const { upload_url: url, document_id: id } = await uploadAddress(other, otherUnit, bytes);
      // The store goes away as the check reads the bytes that the upload has just kept.
      proxy.freezeAtGetOf(key);
      expect((await rawPut(url, uploadHeaders(bytes), bytes)).status).toBe(200);
      const attached = await other.call("POST", `/v1/applications/${applicationId}/attachments`, {
        as: otherUnit,
        body: { data: { document_id: id, certification_statement_type: "CERTIFIED" } },
      });
      expect(attached.status).toBe(202);
      // The check is tried again while the store is still away (the client makes one attempt a call)...
      await expect.poll(() => proxy.getsOf(key), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      expect(await documentStatus(other, id)).toBe("UPLOADED");
      // ...and gets through once it is back, with no restart.
      proxy.thaw();
      await expect.poll(() => documentStatus(other, id), { timeout: 30_000 }).toBe("ACCEPTED");
      const notified = async () =>
        (
          (await other.call("GET", `/v1/notifications?subject=${applicationId}`, { as: otherUnit })).body as {
            data: { notification_type: string; payload: { data: Record<string, unknown> } }[];
          }
        ).data.filter((notification) => notification.payload.data["document_id"] === id);
      await expect
        .poll(async () => (await notified()).map((notification) => notification.notification_type), {
          timeout: 30_000,
        })
        .toEqual(["application.attachment-success"]);
    } finally {
      await other.stop();
      await proxy.close();
    }
  });

  it("keeps no blob in its data directory", () => {
    expect(localBlobFiles()).toEqual([]);
    expect(readdirSync(join(gw.dataDir, "blobs"))).toEqual(["incoming"]);
  });
});
