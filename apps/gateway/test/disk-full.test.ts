// A full disk under the embedded store: every write is answered 503 with Retry-After (never 500, never blamed on the
// client), /readyz says not ready, an upload that cannot be stored leaves nothing behind and its address stays
// usable, and once room is made the same process writes again, with the file intact.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStorage } from "../src/storage/sqlite/sqlite-storage.js";
import { startTestGateway, type TestGateway } from "../src/testing.js";
import { basic } from "./support/gateway.js";
import { checksumOf } from "./support/upload.js";

/** A small file system of its own: tmpfs, which only root may mount (CI runs as root on these machines). */
function mountSmallDisk(megabytes: number): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "lrg-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir]);
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const disk = mountSmallDisk(24);
if (!disk) console.warn("disk-full.test.ts: not root or tmpfs not available: the full-disk tests do not run here");

describe.runIf(disk !== undefined)("a full disk under the embedded store", () => {
  const dataDir = join(disk ?? "", "data");
  const filler = join(disk ?? "", "filler");
  let gw: TestGateway;
  let login: string;
  beforeAll(async () => {
    gw = await startTestGateway({ dataDir });
    login = basic(gw.demo!);
  });
  afterAll(async () => {
    await gw?.stop();
    if (disk) {
      execFileSync("umount", [disk]);
      rmSync(disk, { recursive: true, force: true });
    }
  });

  /** Writes one file as large as the disk allows: nothing is left for anyone. */
  function fillTheDisk(): void {
    const block = Buffer.alloc(1024 * 1024, 7);
    let size = 0;
    for (;;) {
      try {
        writeFileSync(filler, block, { flag: size === 0 ? "w" : "a" });
        size += block.length;
      } catch {
        break;
      }
    }
    // The last few kilobytes too, so that not even a page is left.
    for (let kib = 512; kib >= 1; kib /= 2) {
      try {
        for (;;) writeFileSync(filler, Buffer.alloc(kib * 1024, 7), { flag: "a" });
      } catch {
        // this size no longer fits: try a smaller one
      }
    }
  }

  const bytes = Buffer.from("%PDF-1.4\n" + "x".repeat(256 * 1024) + "\n%%EOF\n");
  const askForAddress = () =>
    fetch(`${gw.url}/v0/documents/url`, {
      method: "POST",
      headers: { authorization: login, "content-type": "application/json" },
      body: JSON.stringify({
        data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksumOf(bytes) },
      }),
    });
  const upload = (address: string) =>
    fetch(address, {
      method: "PUT",
      headers: { "content-length": String(bytes.length), "x-provider-checksum-sha256": checksumOf(bytes) },
      body: bytes,
    });

  let address = "";
  it("answers every write 503 with Retry-After (503-03) and /readyz 503 while the disk is full", async () => {
    const before = await askForAddress();
    expect(before.status).toBe(200);
    address = ((await before.json()) as { data: { upload_url: string } }).data.upload_url;

    fillTheDisk();
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "not ready", database: { reachable: true, writable: false } });

    // In WAL mode a few small writes may still fit in the log's free space; the first that needs room is refused.
    const statuses: number[] = [];
    let refusal: Response | undefined;
    for (let attempt = 0; attempt < 200 && !refusal; attempt += 1) {
      const answer = await askForAddress();
      statuses.push(answer.status);
      if (answer.status !== 200) refusal = answer;
      else await answer.arrayBuffer();
    }
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(refusal?.status).toBe(503);
    expect(refusal?.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await refusal?.json()).toMatchObject({ code: expect.stringMatching(/^503-0[23]$/) });
    // The control plane's writes too, in its own shape (problem+json).
    const control = await fetch(`${gw.url}/sandbox/v1/business-units`, {
      method: "POST",
      headers: { authorization: `Bearer ${gw.sandboxToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Made while the disk is full" }),
    });
    expect(control.status).toBe(503);
    expect(control.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await control.json()).toMatchObject({ code: expect.stringMatching(/^503-0[23]$/) });
    // Reads go on.
    expect((await fetch(`${gw.url}/v1/notifications`, { headers: { authorization: login } })).status).toBe(200);
  });

  it("answers an upload it cannot store 503, not the client's 400-05, and keeps no part of it", async () => {
    const answer = await upload(address);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await answer.json()).toMatchObject({ code: "503-03" });
    const incoming = join(dataDir, "blobs", "incoming");
    expect(readdirSync(incoming)).toEqual([]);
  });

  it("recovers without a restart once room is made: ready, writes, the same upload address, an intact file", async () => {
    rmSync(filler);
    let ready = 0;
    for (let attempt = 0; attempt < 50 && ready !== 200; attempt += 1) {
      ready = (await fetch(`${gw.url}/readyz`)).status;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready).toBe(200);
    expect((await askForAddress()).status).toBe(200);
    expect((await upload(address)).status).toBe(200);
    await gw.stop();
    const store = openSqliteStorage(dataDir);
    try {
      expect(store.integrityCheck()).toBe("ok");
    } finally {
      await store.close();
    }
  });
});
