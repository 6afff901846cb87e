// The few calls of the gateway's interface that the benchmarks need, straight over HTTP (no @lrg/client, so that
// the client's own costs stay out of the gateway's figures).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { request } from "node:http";

/** A business unit's user, as the sandbox creates it. */
export interface Unit {
  username: string;
  password: string;
  business_unit_id: string;
}

export const basicOf = (unit: Pick<Unit, "username" | "password">) =>
  `Basic ${Buffer.from(`${unit.username}:${unit.password}`).toString("base64")}`;

/** Calls the sandbox control plane; throws on an error answer. */
export async function sandboxCall(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** A new business unit with its user. */
export function createUnit(url: string, token: string, name = "Benchmark unit"): Promise<Unit> {
  return sandboxCall(url, token, "POST", "/sandbox/v1/business-units", { name }) as Promise<Unit>;
}

/** Length and base64 SHA-256 of a file, read once. */
export async function digestFile(path: string): Promise<{ length: number; sha256: string }> {
  const hash = createHash("sha256");
  const file = await open(path, "r");
  const buffer = Buffer.allocUnsafe(1 << 20);
  let length = 0;
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      length += bytesRead;
    }
  } finally {
    await file.close();
  }
  return { length, sha256: hash.digest("base64") };
}

/** Asks for an upload address (POST /v0/documents/url). */
export async function uploadAddress(
  url: string,
  unit: Unit,
  length: number,
  sha256: string,
): Promise<{ uploadUrl: string; documentId: string }> {
  const response = await fetch(`${url}/v0/documents/url`, {
    method: "POST",
    headers: { authorization: basicOf(unit), "content-type": "application/json" },
    body: JSON.stringify({ data: { document_type: "TR1", file_length: length, file_sha256: sha256 } }),
  });
  const body = (await response.json()) as { data?: { upload_url: string; document_id: string } };
  if (response.status !== 200 || body.data === undefined)
    throw new Error(`POST /v0/documents/url answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { uploadUrl: body.data.upload_url, documentId: body.data.document_id };
}

/** Streams a file to an upload address (PUT with Content-Length and the checksum); resolves with the status. */
export function putFile(uploadUrl: string, path: string, length: number, sha256: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const put = request(uploadUrl, {
      method: "PUT",
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(length),
        "x-provider-checksum-sha256": sha256,
      },
    });
    put.on("error", reject);
    put.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    createReadStream(path, { highWaterMark: 64 * 1024 })
      .on("error", reject)
      .pipe(put);
  });
}
