// The requests of the signed flows, as each mutation changes them from what was signed.
import { describe, expect, it } from "vitest";
import { documentBytes, downloadWire, sha256Base64, uploadWire } from "../../src/fuzz/flows.js";
import { UPLOAD_MUTATIONS, type DownloadMutation, type UploadMutation } from "../../src/fuzz/plans.js";

const signed = new URL("http://gateway.test/v0/uploads/doc-1?expires=100&signature=ab0");
const bytes = documentBytes(64, 1);
const who = { username: "u", password: "p" };

describe("an upload to a signed address", () => {
  it("is sent as signed: the bytes, their length and checksum, on a connection of its own", () => {
    expect(uploadWire(signed, bytes, "none", who)).toEqual({
      method: "PUT",
      target: "/v0/uploads/doc-1?expires=100&signature=ab0",
      headers: {
        "content-type": "application/octet-stream",
        "content-length": "64",
        "x-provider-checksum-sha256": sha256Base64(bytes),
      },
      body: bytes,
      fresh: true,
    });
  });

  it.each<[UploadMutation, (wire: ReturnType<typeof uploadWire>) => boolean]>([
    ["checksum", (w) => w.headers["x-provider-checksum-sha256"] !== sha256Base64(bytes)],
    ["no-checksum", (w) => !("x-provider-checksum-sha256" in w.headers)],
    ["bytes", (w) => w.body?.length === 64 && !w.body.equals(bytes)],
    ["length", (w) => w.body?.length === 63 && w.headers["content-length"] === "63"],
    ["signature", (w) => w.target.endsWith("signature=ab1")],
    ["expires", (w) => w.target.includes("expires=3700")],
    ["junk-query", (w) => w.target.endsWith("&colour=red")],
    ["chunked", (w) => w.headers["transfer-encoding"] === "chunked" && !("content-length" in w.headers)],
    ["content-type", (w) => w.headers["content-type"] === "application/pdf"],
    ["replay", (w) => w.body === bytes],
    ["declared-too-large", (w) => w.headers["content-length"] === "41943041" && w.stallAfter === 64],
    ["empty", (w) => w.body?.length === 0 && w.headers["content-length"] === "0"],
    ["with-credentials", (w) => String(w.headers["authorization"]).startsWith("Basic ")],
  ])("changed: %s", (mutation, changed) => {
    expect(changed(uploadWire(signed, bytes, mutation, who))).toBe(true);
  });

  it("has a case above for every mutation the plans draw, and documents a PDF but now and then", () => {
    expect(UPLOAD_MUTATIONS.length).toBe(14);
    expect(documentBytes(32, 1).subarray(0, 5).toString()).toBe("%PDF-");
    expect(documentBytes(32, 7).subarray(0, 6).toString()).toBe("GIF87a");
  });
});

describe("a download through a signed address", () => {
  const id = "a".repeat(64);
  const address = new URL(`http://gateway.test/v1/document-downloads/${id}?expires=100&signature=ff0`);
  it.each<[DownloadMutation, string, string]>([
    ["none", "GET", `/v1/document-downloads/${id}?expires=100&signature=ff0`],
    ["signature", "GET", `/v1/document-downloads/${id}?expires=100&signature=ff1`],
    ["expires", "GET", `/v1/document-downloads/${id}?expires=3700&signature=ff0`],
    ["no-signature", "GET", `/v1/document-downloads/${id}?expires=100`],
    ["junk-query", "GET", `/v1/document-downloads/${id}?expires=100&signature=ff0&colour=red`],
    ["head", "HEAD", `/v1/document-downloads/${id}?expires=100&signature=ff0`],
  ])("%s", (mutation, method, target) => {
    expect(downloadWire(address, mutation, id)).toEqual({ method, target, headers: {} });
  });

  it("names another id, signed for the first", () => {
    const wire = downloadWire(address, "other-id", id);
    expect(wire.target).toMatch(/^\/v1\/document-downloads\/[0-9a-f]{64}\?expires=100&signature=ff0$/);
    expect(wire.target).not.toContain(id);
  });
});
