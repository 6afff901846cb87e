import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { basic, DEMO } from "./support/gateway.js";
import { startGatewayProcess } from "./support/process.js";

const SIZE = 41_943_040;
const directory = mkdtempSync(join(tmpdir(), "lrg-upload-memory-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Writes a 40 MiB PDF-looking file without holding it in memory; answers its checksum. */
async function bigFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  const head = Buffer.from("%PDF-1.4\n");
  let written = 0;
  while (written < SIZE) {
    const chunk =
      written === 0
        ? Buffer.concat([head, randomBytes(1024 * 1024 - head.length)])
        : randomBytes(Math.min(1024 * 1024, SIZE - written));
    hash.update(chunk);
    written += chunk.length;
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return hash.digest("base64");
}

const kib = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);

describe("a 40 MiB upload", () => {
  it.skipIf(process.platform !== "linux")(
    "succeeds while the gateway's resident memory grows by less than 16 MiB",
    async () => {
      const file = join(directory, "big.pdf");
      const checksum = await bigFile(file);
      const gateway = await startGatewayProcess(join(directory, "data"));
      try {
        const upload = async (path: string, length: number, sha256: string): Promise<number> => {
          const created = await fetch(`${gateway.url}/v0/documents/url`, {
            method: "POST",
            headers: { authorization: basic(DEMO), "content-type": "application/json" },
            body: JSON.stringify({ data: { document_type: "TR1", file_length: length, file_sha256: sha256 } }),
          });
          const { upload_url: url } = ((await created.json()) as { data: { upload_url: string } }).data;
          return new Promise<number>((resolve, reject) => {
            const outgoing = request(
              url,
              { method: "PUT", headers: { "content-length": String(length), "x-provider-checksum-sha256": sha256 } },
              (response) => {
                response.resume();
                response.on("end", () => resolve(response.statusCode ?? 0));
              },
            );
            outgoing.on("error", reject);
            createReadStream(path).pipe(outgoing);
          });
        };
        // Warm the upload path (first-use compilation) with a small file, so the figure is what the size costs.
        const small = join(directory, "small.pdf");
        const smallBytes = Buffer.from("%PDF-1.4\nwarm-up\n");
        writeFileSync(small, smallBytes);
        expect(await upload(small, smallBytes.length, createHash("sha256").update(smallBytes).digest("base64"))).toBe(
          200,
        );
        await new Promise((resolve) => setTimeout(resolve, 500));

        const pid = String(gateway.child.pid);
        writeFileSync(`/proc/${pid}/clear_refs`, "5"); // reset the peak (VmHWM) to the current resident size
        const before = kib(readFileSync(`/proc/${pid}/status`, "utf8"), "VmRSS");
        const status = await upload(file, SIZE, checksum);
        await new Promise((resolve) => setTimeout(resolve, 1000)); // the asynchronous checks read the file too
        const peak = kib(readFileSync(`/proc/${pid}/status`, "utf8"), "VmHWM");
        expect(status).toBe(200);
        const growthMiB = (peak - before) / 1024;
        console.log(
          `40 MiB upload: gateway RSS ${Math.round(before / 1024)} MiB before, peak ${Math.round(peak / 1024)} MiB (growth ${growthMiB.toFixed(1)} MiB)`,
        );
        expect(growthMiB).toBeLessThan(16);
      } finally {
        await gateway.stop();
      }
    },
    120_000,
  );
});
