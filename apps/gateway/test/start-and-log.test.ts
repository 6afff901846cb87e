// What an operator sees: a start that cannot bind its ports stops at once with one line naming the variable to
// change, and the access log never holds a credential of a signed address.
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { basic, DEMO, idempotencyKey, SANDBOX_TOKEN, submission } from "./support/gateway.js";
import { runGatewayToExit, startGatewayProcess, type GatewayProcess } from "./support/process.js";
import { checksumOf } from "./support/upload.js";

let running: GatewayProcess | undefined;
let holder: Server | undefined;
const dataDirs: string[] = [];
afterEach(async () => {
  await running?.stop();
  await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)));
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  running = holder = undefined;
});

const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lrg-start-"));
  dataDirs.push(dir);
  return dir;
};

/** A port on 127.0.0.1 held by this test, as another program would hold it. */
async function heldPort(): Promise<number> {
  holder = createServer();
  await new Promise<void>((resolve) => holder!.listen(0, "127.0.0.1", resolve));
  return (holder.address() as { port: number }).port;
}

describe("a start that cannot bind a listener", () => {
  it.each([
    ["the mutual TLS port", "LRG_HTTPS_PORT", (port: number) => ({ LRG_HTTPS_PORT: String(port) })],
    ["the main port", "PORT", (port: number) => ({ PORT: String(port), LRG_HTTPS_PORT: "off" })],
  ])("stops on %s in use with one line naming %s, before anything answers", async (_name, variable, env) => {
    const port = await heldPort();
    const { code, stdout, stderr } = await runGatewayToExit(newDataDir(), env(port));
    expect(code).toBe(1);
    // No banner: it never said it was listening.
    expect(stdout).not.toContain("listening on");
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(the port is in use.*set ${variable} to`),
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe("the access log", () => {
  it("writes signed upload and download addresses without their signature", async () => {
    running = await startGatewayProcess(newDataDir(), { LRG_LOG: "on" });
    const url = running.url;
    const login = { authorization: basic(DEMO) };
    const bytes = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
    const asked = await fetch(`${url}/v0/documents/url`, {
      method: "POST",
      headers: { ...login, "content-type": "application/json" },
      body: JSON.stringify({
        data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksumOf(bytes) },
      }),
    });
    const { upload_url } = ((await asked.json()) as { data: { upload_url: string } }).data;
    const put = await fetch(upload_url, {
      method: "PUT",
      headers: { "content-length": String(bytes.length), "x-provider-checksum-sha256": checksumOf(bytes) },
      body: bytes,
    });
    expect(put.status).toBe(200);

    const control = { authorization: `Bearer ${SANDBOX_TOKEN}`, "content-type": "application/json" };
    const submitted = await fetch(`${url}/v0/applications`, {
      method: "POST",
      headers: { ...login, "content-type": "application/json", "idempotency-key": idempotencyKey() },
      body: JSON.stringify(submission()),
    });
    const id = ((await submitted.json()) as { data: { application_request_id: string } }).data.application_request_id;
    await fetch(`${url}/sandbox/v1/applications/${id}/transitions`, {
      method: "POST",
      headers: control,
      body: JSON.stringify({ to: "ACCEPTED_PRIORITY_PROTECTED" }),
    });
    const raised = await fetch(`${url}/sandbox/v1/applications/${id}/correspondence`, {
      method: "POST",
      headers: control,
      body: JSON.stringify({ documents: ["LTR"] }),
    });
    const downloadId = ((await raised.json()) as { documents: { download_id: string }[] }).documents[0]!.download_id;
    const redirect = await fetch(`${url}/v1/documents/${downloadId}`, { headers: login, redirect: "manual" });
    const location = redirect.headers.get("location")!;
    expect((await fetch(location)).status).toBe(200);

    const signatures = [upload_url, location].map((address) => new URL(address).searchParams.get("signature")!);
    // The log flushes asynchronously: wait until the download's line is there.
    for (let wait = 0; wait < 50 && !running.output().includes(`/v1/document-downloads/${downloadId}`); wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const log = running.output();
    expect(log).toContain(`/v1/document-downloads/${downloadId}?expires=`);
    expect(log).toContain("/v0/uploads/");
    expect(log).toContain("signature=[redacted]");
    for (const signature of signatures) {
      expect(signature.length).toBeGreaterThan(10);
      expect(log).not.toContain(signature);
    }
  });
});

describe("a client that sends its headers slowly", () => {
  it("has its connection closed at the header deadline (LRG_HEADERS_TIMEOUT_MS), checked every second", async () => {
    running = await startGatewayProcess(newDataDir(), { LRG_HEADERS_TIMEOUT_MS: "500" });
    const socket = connect(Number(new URL(running.url).port), "127.0.0.1");
    socket.on("error", () => undefined);
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    const started = Date.now();
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    await new Promise((resolve) => socket.once("close", resolve));
    // Node's default check runs every 30 s: the gateway checks every second.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe("the human log format (LRG_LOG=human, what npm start sets)", () => {
  it("writes one short line per answered request, signatures redacted, and no JSON", async () => {
    running = await startGatewayProcess(newDataDir(), { LRG_LOG: "human" });
    await fetch(`${running.url}/v1/notifications`, { headers: { authorization: basic(DEMO) } });
    await fetch(`${running.url}/v1/document-downloads/abc?expires=1&signature=secret-signature-value`);
    for (let wait = 0; wait < 50 && !running.output().includes("/v1/document-downloads/"); wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = running.output().split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d 200 GET \/v1\/notifications \d+\.\d ms$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d 40\d GET \/v1\/document-downloads\/abc\?expires=1&signature=\[redacted\]/),
    );
    expect(running.output()).not.toContain("secret-signature-value");
    expect(lines.filter((line) => line.startsWith("{"))).toEqual([]);
  });
});
