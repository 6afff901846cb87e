// A disk that turns read-only under the embedded store, as the kernel does after an I/O error (ext4's
// errors=remount-ro): one condition, one code. Every write, whether SQLite or the blob directory meets the refusal,
// is answered 503-03 with the same Retry-After, /readyz says the store cannot write, and reads go on.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadAddress, uploadHeaders } from "./support/documents.js";
import { idempotencyKey, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";
import { rawPut } from "./support/upload.js";

/**
 * A small ext4 file system of its own on a loop device, mounted errors=remount-ro, and how to make the kernel turn it
 * read-only while files on it are open for writing (a remount would be refused as busy): ext4's trigger_fs_error.
 * Only root may mount, and the machine needs loop devices and mkfs.ext4; otherwise, the reason it cannot be made.
 */
function mountFailingDisk(): { dir: string; turnReadOnly: () => void; remove: () => void } | string {
  if (process.getuid?.() !== 0) return "not root (only root may mount a file system)";
  const dir = mkdtempSync(join(tmpdir(), "lrg-read-only-disk-"));
  const image = `${dir}.img`;
  const remove = () => {
    try {
      execFileSync("umount", [dir], { stdio: "ignore" });
    } catch {
      // not mounted (the mount failed)
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(image, { force: true });
  };
  try {
    writeFileSync(image, "");
    execFileSync("truncate", ["-s", "48M", image]);
    execFileSync("mkfs.ext4", ["-q", "-F", image], { stdio: "pipe" });
    execFileSync("mount", ["-o", "loop,errors=remount-ro", image, dir], { stdio: "pipe" });
    const device = execFileSync("findmnt", ["-n", "-o", "SOURCE", dir])
      .toString()
      .trim()
      .replace(/^\/dev\//, "");
    const trigger = `/sys/fs/ext4/${device}/trigger_fs_error`;
    if (!existsSync(trigger)) {
      remove();
      return `the kernel has no ${trigger}`;
    }
    return { dir, turnReadOnly: () => writeFileSync(trigger, "lrg read-only-disk test"), remove };
  } catch (error) {
    remove();
    return `no loop-mounted ext4 here (${String((error as Error).message).split("\n")[0]})`;
  }
}

const disk = mountFailingDisk();
if (typeof disk === "string") console.warn(`read-only-disk.test.ts: ${disk}: the read-only disk tests do not run here`);

describe.runIf(typeof disk !== "string")("a disk that turns read-only under the embedded store", () => {
  const { dir, turnReadOnly, remove } =
    typeof disk === "string" ? { dir: "", turnReadOnly: () => {}, remove: () => {} } : disk;
  let gw: TestGateway;
  let unit: Credentials;
  const bytes = Buffer.from("%PDF-1.4\n" + "x".repeat(64 * 1024) + "\n%%EOF\n");
  let address = "";
  let notificationId = "";

  beforeAll(async () => {
    gw = await startGateway({ dataDir: join(dir, "data"), settings: { processing: "manual", duplicate_rate: 0 } });
    unit = await gw.newBusinessUnit();
    // Before the disk fails: an upload address, and a notification to acknowledge (an application on the day list).
    address = (await uploadAddress(gw, unit, bytes)).upload_url;
    const id = await gw.submit(unit);
    await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    const listed = await gw.call("GET", "/v1/notifications", { as: unit });
    notificationId = (listed.body as { data: { notification_id: string }[] }).data[0]?.notification_id ?? "";
    expect(notificationId).not.toBe("");
    turnReadOnly();
  });
  afterAll(async () => {
    await gw?.stop();
    remove();
  });

  it("answers every write 503-03 with one Retry-After: SQLite's, the upload's, the control plane's", async () => {
    const answers = {
      submit: await gw.call("POST", "/v0/applications", {
        as: unit,
        body: submission(),
        headers: { "idempotency-key": idempotencyKey() },
      }),
      acknowledge: await gw.call("POST", "/v1/notifications/acknowledge", {
        as: unit,
        body: { data: [notificationId] },
      }),
      "upload address": await gw.call("POST", "/v0/documents/url", {
        as: unit,
        body: {
          data: { document_type: "TR1", file_length: 10, file_sha256: "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=" },
        },
      }),
      "new business unit": await gw.sandbox("POST", "/sandbox/v1/business-units", { name: "Made on a read-only disk" }),
    };
    const upload = await rawPut(address, uploadHeaders(bytes), bytes);
    const seen = Object.entries(answers).map(([name, answer]) => ({
      name,
      status: answer.status,
      code: (answer.body as { code?: unknown }).code,
      retryAfter: answer.headers.get("retry-after"),
    }));
    seen.push({
      name: "upload",
      status: upload.status,
      code: (JSON.parse(upload.body) as { code?: unknown }).code,
      retryAfter: typeof upload.headers["retry-after"] === "string" ? upload.headers["retry-after"] : null,
    });
    const retryAfter = seen[0]?.retryAfter;
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(seen).toEqual(seen.map(({ name }) => ({ name, status: 503, code: "503-03", retryAfter })));
  });

  it("says on /readyz that neither the database nor the documents' directory can write, and reads go on", async () => {
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: "not ready",
      database: { reachable: true, writable: false },
      blobs: { writable: false },
    });
    expect((await gw.call("GET", "/v1/notifications", { as: unit })).status).toBe(200);
  });
});
