// The start banner and the admin token: shown when the gateway made it up (nobody else knows it), never when the
// operator gave it (it would end up in shared logs), and the generated one really is the admin token.
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_TOKEN } from "./support/gateway.js";
import { startTestBucket } from "./support/s3.js";
import { startGatewayProcess, type GatewayProcess } from "./support/process.js";

let running: GatewayProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await running?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  running = dataDir = undefined;
});

describe("the start banner", () => {
  it("never shows an admin token the operator set", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "lrg-banner-"));
    running = await startGatewayProcess(dataDir);
    expect(running.output()).toContain("Sandbox token: the admin token of LRG_SANDBOX_TOKEN (not shown)");
    expect(running.output()).not.toContain(SANDBOX_TOKEN);
  });

  it("says where the data is as an absolute path, a relative LRG_DATA_DIR read from where it started", async () => {
    // `npm start` runs it in apps/gateway with the default ./.data: the banner names apps/gateway/.data in full.
    dataDir = realpathSync(mkdtempSync(join(tmpdir(), "lrg-banner-")));
    running = await startGatewayProcess("./.data", {}, dataDir);
    expect(running.output()).toContain(`(data in ${join(dataDir, ".data")})\n`);
  });

  it("says where the documents are when they are in a bucket", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "lrg-banner-"));
    // The bucket is written once at start (a wrong one stops it): a real S3 service, as an operator's.
    const bucket = await startTestBucket("lrg-documents");
    try {
      running = await startGatewayProcess(dataDir, {
        LRG_BLOB_URL: "s3://lrg-documents/sandbox",
        AWS_ENDPOINT_URL: bucket.s3.endpoint!,
        AWS_ACCESS_KEY_ID: bucket.s3.credentials!.accessKeyId,
        AWS_SECRET_ACCESS_KEY: bucket.s3.credentials!.secretAccessKey,
      });
      expect(running.output()).toContain(`(data in ${dataDir}, documents in s3://lrg-documents/sandbox)`);
    } finally {
      await running?.stop();
      running = undefined;
      await bucket.stop();
    }
  });

  it("shows the admin token it generated, and that token drives the control plane", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "lrg-banner-"));
    running = await startGatewayProcess(dataDir, { LRG_SANDBOX_TOKEN: "" });
    const token = /Sandbox token: (\S+) {3}\(admin; generated/.exec(running.output())?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const answer = await fetch(`${running.url}/sandbox/v1/clock`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
  });

  it("keeps the generated admin token in the data directory: a restart on it shows and accepts the same one", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "lrg-banner-"));
    const tokenOf = (output: string) => /Sandbox token: (\S+) {3}\(admin; generated/.exec(output)?.[1];
    running = await startGatewayProcess(dataDir, { LRG_SANDBOX_TOKEN: "" });
    const first = tokenOf(running.output());
    expect(running.output()).toContain(`kept for the next starts in ${join(dataDir, "secrets.json")}`);
    await running.stop();
    running = await startGatewayProcess(dataDir, { LRG_SANDBOX_TOKEN: "" });
    expect(tokenOf(running.output())).toBe(first);
    expect(running.output()).toContain("at the first start, the same at every start on");
    const answer = await fetch(`${running.url}/sandbox/v1/clock`, { headers: { authorization: `Bearer ${first}` } });
    expect(answer.status).toBe(200);
    // Only the owner may read the kept secrets.
    expect(statSync(join(dataDir, "secrets.json")).mode & 0o077).toBe(0);
  });
});
