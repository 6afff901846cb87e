// An upload's headers are checked before its size: a Content-Length that differs from the signed length is refused
// as a signature failure whatever its size, before the body is read.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { MAX_DOCUMENT_BYTES } from "@lrg/spec";
import { errorOf, expectStatus, expectThat } from "../../driver.js";
import type { Property } from "../../property.js";

const contentLengthBeforeSize: Property = {
  id: "documents.content-length-before-size",
  rows: ["R131", "R140", "R057", "R058", "R132"],
  title:
    "an upload whose Content-Length differs from the signed file_length is refused with 403 (403-01) whatever its size, over 41943040 bytes included, and the address stays usable; the signed length is answered 200",
  requires: ["writes", "semantics"],
  runs: 20,
  async check(context) {
    const { session } = context;
    const lengths = fc.oneof(
      fc.integer({ min: 0, max: 4096 }),
      fc.integer({ min: MAX_DOCUMENT_BYTES + 1, max: 2 ** 40 }),
      fc.constantFrom(MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES + 1, MAX_DOCUMENT_BYTES * 10 + 1),
    );
    await context.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 1024 }), lengths, async (raw, declared) => {
        const bytes = Buffer.from(raw);
        const checksum = createHash("sha256").update(bytes).digest("base64");
        const created = await session.call("POST", "/v0/documents/url", {
          json: { data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksum } },
        });
        expectStatus(created, 200, "upload address");
        const url = (created.body as { data: { upload_url: string } }).data.upload_url;
        const headers = { "content-type": "application/octet-stream", "x-provider-checksum-sha256": checksum };
        if (declared !== bytes.length) {
          // A shorter declared length sends that many bytes; a longer one sends all there are (the rest never comes).
          const body = declared < bytes.length ? bytes.subarray(0, declared) : bytes;
          const refused = await session.call("PUT", url, {
            as: null,
            body,
            headers: { ...headers, "content-length": String(declared) },
          });
          expectStatus(refused, 403, `Content-Length ${declared} for a signed file_length of ${bytes.length}`);
          expectThat(errorOf(refused).code === "403-01", `problem code ${refused.text}`);
        }
        expectStatus(
          await session.call("PUT", url, { as: null, body: bytes, headers }),
          200,
          "the upload with the signed length",
        );
      }),
    );
  },
};

/** Properties of an upload's declared length. */
export const contentLengthProperties: Property[] = [contentLengthBeforeSize];
