import { createHash } from "node:crypto";
import { request } from "node:http";
import type { Readable } from "node:stream";

/** The 44-character checksum of the requirement: base64 of the SHA-256 digest. */
export const checksumOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("base64");

/** A small valid PDF, PNG, GIF, TIFF or an unsupported file, for the registry's checks. */
export const SAMPLES = {
  pdf: Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
  encryptedPdf: Buffer.from(
    "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 2 0 R >>\n%%EOF\n",
  ),
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]),
  gif: Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(64, 2)]),
  tiff: Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.alloc(64, 3)]),
  text: Buffer.from("just some text, not a document the registry accepts\n"),
};

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A PUT with exactly the headers given (no Content-Length unless given: then the body goes chunked), so tests can
 * send what fetch would not: missing, lying or mismatching headers, and bodies fed slowly from a stream.
 */
export function rawPut(url: string, headers: Record<string, string>, body: Buffer | Readable): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: "PUT", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    outgoing.on("error", reject);
    if (Buffer.isBuffer(body)) outgoing.end(body);
    else body.pipe(outgoing);
  });
}
