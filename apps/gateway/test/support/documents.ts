import { expect } from "vitest";
import type { Credentials, TestGateway } from "./gateway.js";
import { checksumOf } from "./upload.js";

/** Asks `gw` for an upload address for `bytes`, as `unit`. */
export async function uploadAddress(
  gw: TestGateway,
  unit: Credentials,
  bytes: Buffer,
  documentType = "TR1",
): Promise<{ upload_url: string; document_id: string }> {
  const answer = await gw.call("POST", "/v0/documents/url", {
    as: unit,
    body: { data: { document_type: documentType, file_length: bytes.length, file_sha256: checksumOf(bytes) } },
  });
  expect(answer.status).toBe(200);
  return (answer.body as { data: { upload_url: string; document_id: string } }).data;
}

/** The headers of an upload of exactly `bytes`. */
export const uploadHeaders = (bytes: Buffer) => ({
  "content-length": String(bytes.length),
  "x-provider-checksum-sha256": checksumOf(bytes),
});

/** The status of an uploaded document, as the store has it. */
export async function documentStatus(gw: TestGateway, id: string): Promise<string | undefined> {
  return (await gw.gateway.storage.findDocument(id))?.status;
}

/** Submits an application of `unit`, protects its priority and raises a letter: answers the letter's download_id. */
export async function letterDownloadId(gw: TestGateway, unit: Credentials): Promise<string> {
  const id = await gw.submit(unit);
  await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
  const raised = await gw.sandbox("POST", `/sandbox/v1/applications/${id}/correspondence`, { documents: ["LTR"] });
  return (raised.body as { documents: { download_id: string }[] }).documents[0]?.download_id ?? "";
}
