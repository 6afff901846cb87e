// lrg record through the built lrg: the client's workflows recorded in front of a started gateway hold none of the
// credentials, tokens, signatures, passwords and raw idempotency keys they carried; personal data is masked; a
// secret the upstream echoes makes lrg refuse to write; Idempotency-Key hashes match for the same key only; a
// 40 MiB upload goes through with the proxy's resident memory flat.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import { platform } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createGatewayClient, createSandboxClient, unwrap } from "@lrg/client";
import { builtSpec, drift, readHar } from "@lrg/conformance/drift";
import { PERSONAL_DATA_PATHS } from "@lrg/spec/constants";
import { IN_SERVICE_HOURS, makeCertificates } from "../../client/test/integration/gateway-support.js";
import {
  connectionEnv,
  follow,
  interrupted,
  keepingAddresses,
  listening,
  lrg,
  makeHome,
  SANDBOX_TOKEN,
  smallPdf,
  startGateway,
  submission,
  useSuite,
  type Follower,
} from "./support.js";

const suite = useSuite();

/** Starts `lrg record` in front of `upstream`; answers it once it printed its address. */
async function record(
  upstream: string,
  out: string,
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = suite.home.env,
): Promise<{ proxy: string; recorder: Follower }> {
  const { address, process } = await listening(["record", "--upstream", upstream, "--out", out, ...extra], env);
  return { proxy: address, recorder: process };
}

/** Stops a recording with SIGINT; answers its exit code and stderr. */
async function stop(recorder: Follower): Promise<{ code: number | null; stderr: string }> {
  const code = await interrupted(recorder);
  return { code, stderr: recorder.stderr.join("\n") };
}

interface HarShape {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: {
      startedDateTime: string;
      time: number;
      request: {
        method: string;
        url: string;
        headers: { name: string; value: string }[];
        queryString: unknown[];
        cookies: unknown[];
        postData?: { mimeType: string; text?: string; _lrg: { size: number; sha256: string; stored: string } };
        headersSize: number;
        bodySize: number;
      };
      response: {
        status: number;
        headers: { name: string; value: string }[];
        content: { size: number; mimeType: string; text?: string; encoding?: string };
        redirectURL: string;
      };
      cache: object;
      timings: { send: number; wait: number; receive: number };
    }[];
  };
}

/** The HAR 1.2 members every entry must have (the shape of the format's required fields). */
function expectHar12(text: string): HarShape {
  const har = JSON.parse(text) as HarShape;
  expect(har.log.version).toBe("1.2");
  expect(har.log.creator).toEqual({ name: "lrg record", version: expect.any(String) });
  for (const entry of har.log.entries) {
    expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
    expect(entry.time).toBeGreaterThanOrEqual(0);
    expect(entry.request).toMatchObject({
      method: expect.any(String),
      url: expect.stringMatching(/^https?:\/\//),
      httpVersion: expect.stringMatching(/^HTTP\//),
      cookies: expect.any(Array),
      headers: expect.any(Array),
      queryString: expect.any(Array),
      headersSize: -1,
      bodySize: expect.any(Number),
    });
    expect(entry.response).toMatchObject({
      status: expect.any(Number),
      statusText: expect.any(String),
      httpVersion: expect.any(String),
      cookies: expect.any(Array),
      headers: expect.any(Array),
      content: { size: expect.any(Number), mimeType: expect.any(String) },
      redirectURL: expect.any(String),
      headersSize: -1,
      bodySize: expect.any(Number),
    });
    expect(entry.cache).toEqual({});
    for (const timing of Object.values(entry.timings)) expect(timing).toBeGreaterThanOrEqual(0);
  }
  return har;
}

/** The secret values of a signed address (its `signature`). */
const signatureOf = (address: string): string => new URL(address).searchParams.get("signature") ?? "";

describe("lrg record in front of the gateway", () => {
  it("records upload, submit, download by redirect, notifications and the control plane, with no secret and no personal data in the file", async () => {
    const out = join(suite.home.dir, "workflows.har");
    const { proxy, recorder } = await record(suite.gateway.url, out);
    const seen = keepingAddresses();
    const client = createGatewayClient({
      baseUrl: proxy,
      username: suite.user.username,
      password: suite.user.password,
      fetch: seen.fetch,
    });
    const sandbox = createSandboxClient({ baseUrl: proxy, token: SANDBOX_TOKEN });
    const idempotencyKey = `record-test-${randomUUID()}`;
    try {
      // The control plane through the proxy: a new unit's password and token come back in the answer.
      const unit = await unwrap(sandbox.POST("/sandbox/v1/business-units", { body: { name: "Recorded unit" } }));
      const uploaded = await client.uploadDocument(smallPdf("RECORDED"), { documentType: "TR1" });
      const uploadAddress = seen.addresses.find((address) => address.includes("/v0/uploads/"));
      expect(uploadAddress?.startsWith(proxy)).toBe(true); // the upload address was moved to the proxy's
      const submitted = await client.applications.submit(submission(uploaded.document_id, "RECORDED"), {
        idempotencyKey,
      });
      const id = submitted.application_request_id;
      await expect
        .poll(async () => (await client.applications.information(id)).status, { timeout: 60_000, interval: 200 })
        .toBe("ACCEPTED_PRIORITY_PROTECTED");
      const despatched = await unwrap(
        sandbox.POST("/sandbox/v1/applications/{id}/correspondence", {
          params: { path: { id } },
          body: { documents: ["RCS"] },
        }),
      );
      const downloaded = await client.downloadDocument(despatched.documents[0]!.download_id);
      expect(
        Buffer.from(await new Response(downloaded.body).arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
      const downloadAddress = seen.addresses.find((address) => address.includes("/v1/document-downloads/"));
      expect(downloadAddress?.startsWith(proxy)).toBe(true); // the redirect was moved to the proxy's too
      const summary = await client.notifications.consume(async () => undefined);
      expect(summary.acknowledged).toBeGreaterThan(0);

      const stopped = await stop(recorder);
      expect(stopped.stderr).toMatch(/lrg: wrote \d+ exchanges to /);
      expect(stopped.code).toBe(0);
      const text = readFileSync(out, "utf8");
      const har = expectHar12(text);
      const paths = har.log.entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname}`);
      expect(paths).toEqual(
        expect.arrayContaining([
          "POST /sandbox/v1/business-units",
          "POST /v0/documents/url",
          `PUT /v0/uploads/${uploaded.document_id}`,
          "POST /v0/applications",
          `GET /v1/documents/${despatched.documents[0]!.download_id}`,
          `GET /v1/document-downloads/${despatched.documents[0]!.download_id}`,
          "POST /v1/notifications/acknowledge",
        ]),
      );
      // The exchanges are recorded as the upstream saw them.
      for (const entry of har.log.entries) expect(entry.request.url.startsWith(suite.gateway.url)).toBe(true);

      const basic = Buffer.from(`${suite.user.username}:${suite.user.password}`).toString("base64");
      const secrets = {
        password: suite.user.password,
        basic,
        "admin token": SANDBOX_TOKEN,
        "new unit's password": unit.password,
        "new unit's token": unit.sandbox_token,
        "upload signature": signatureOf(uploadAddress!),
        "download signature": signatureOf(downloadAddress!),
        "idempotency key": idempotencyKey,
      };
      for (const [what, value] of Object.entries(secrets)) {
        expect(value.length, what).toBeGreaterThanOrEqual(16);
        expect(text.includes(value), `${what} is in the file`).toBe(false);
        expect(text.includes(encodeURIComponent(value)), `${what} (URL-encoded) is in the file`).toBe(false);
      }
      const submit = har.log.entries.find((entry) => entry.request.url.endsWith("/v0/applications"))!;
      expect(submit.request.headers.find((h) => h.name.toLowerCase() === "idempotency-key")?.value).toMatch(
        /^hmac-sha256:[0-9a-f]{64}$/,
      );
      expect(submit.request.headers.find((h) => h.name.toLowerCase() === "authorization")?.value).toBe("[redacted]");

      // Personal data: the lodger's email is masked, the rest of the submission kept.
      expect(text).not.toContain("lodger@example.test");
      const body = JSON.parse(submit.request.postData!.text!) as {
        application_lodger: { email: string; type: string };
      };
      expect(body.application_lodger).toEqual({ email: "[personal data]", type: "CONVEYANCER" });

      // lrg drift judges the bodies recorded whole, but for the members masked or redacted: the recording of this
      // correct traffic holds no finding, and an answer member of another type in it is found.
      const exchanges = readHar(text);
      const submitExchange = exchanges.find((exchange) => exchange.pathname === "/v0/applications")!;
      expect(submitExchange.requestBody?.known).toBe(true);
      expect(submitExchange.requestMasked).toContain("/application_lodger/email");
      expect(drift(builtSpec, exchanges).findings).toEqual([]);
      const changed = JSON.parse(text) as { log: { entries: { response: { content: { text?: string } } }[] } };
      const answer = changed.log.entries[exchanges.indexOf(submitExchange)]!.response.content;
      answer.text = answer.text!.replace(/"application_request_id":"[^"]+"/, '"application_request_id":1');
      expect(drift(builtSpec, readHar(JSON.stringify(changed))).findings).toEqual([
        expect.objectContaining({ side: "registry", rule: "answer-schema" }),
      ]);

      // The PDFs are never stored whole: a bounded prefix, with the size and SHA-256 of the whole.
      const put = har.log.entries.find((entry) => entry.request.method === "PUT")!;
      expect(put.request.postData?._lrg).toMatchObject({ size: smallPdf("RECORDED").length, stored: "prefix" });
      expect(Buffer.from(put.request.postData!.text!, "base64").length).toBeLessThan(smallPdf("RECORDED").length);
    } finally {
      await client.close();
      if (recorder.child.exitCode === null) recorder.child.kill("SIGKILL");
    }
  });

  it("the spec's personal-data paths are exported and reach the proprietors' names", () => {
    const paths = PERSONAL_DATA_PATHS.map((path) => path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining(["application_lodger.email", "data.proprietors.surname", "contact.telephone_number"]),
    );
  });
});

describe("lrg record to an upstream that asks for mutual TLS", () => {
  it("presents --cert and --key, trusts --ca, and masks the proprietors and the applicant named", async () => {
    const certificates = makeCertificates();
    const gateway = await startGateway({ tls: certificates });
    const home = makeHome();
    try {
      await gateway.setClock(IN_SERVICE_HOURS);
      const user = await gateway.newBusinessUnit();
      const out = join(home.dir, "titles.har");
      const tls = ["--cert", "client.crt", "--key", "client.key", "--ca", "ca.crt"].map((flag) =>
        flag.startsWith("--") ? flag : certificates.path(flag),
      );
      const { proxy, recorder } = await record(gateway.url, out, [...tls, "--count", "2"], home.env);
      const env = { ...home.env, ...connectionEnv(gateway, user), LRG_BASE_URL: proxy };
      // The title enquiries need the client certificate: the proxy presents it, so they answer.
      const names = await lrg(["titles", "names", "ZZ100001", "--json"], { env });
      expect(names.stderr).toBe("");
      expect(names.stdout).toContain("ALEX EXAMPLE");
      const search = await lrg(
        ["search", "ZZ100001", "--proprietors", "Alex Example and Sam Example", "--applicant", "Robin Sample"].concat([
          "--property",
          "1 Sample Row, Exampleton",
          "--from",
          "2025-03-14",
        ]),
        { env },
      );
      expect(search.code).toBe(0);
      expect(await recorder.exited).toBe(0);
      const text = readFileSync(out, "utf8");
      const har = expectHar12(text);
      expect(har.log.entries.map((entry) => entry.response.status)).toEqual([200, 201]);
      for (const personal of ["ALEX EXAMPLE", "EXAMPLE", "Robin Sample", "Alex Example and Sam Example"])
        expect(text, personal).not.toContain(personal);
      expect(text).toContain("[personal data]");
      expect(text).toContain("ZZ100001"); // the title number is not personal data
    } finally {
      home.remove();
      await gateway.stop();
      certificates.remove();
    }
  });
});

/** An upstream stub: answers every request with what `answer` makes of it. */
async function stub(answer: (headers: NodeJS.Dict<string | string[]>, url: string) => unknown): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const body = JSON.stringify(answer(request.headers, request.url ?? "/"));
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const urlOf = (server: Server): string => {
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
};

describe("lrg record fails closed", () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it("refuses to write a file that would hold a secret it saw, with one line that names its kind and exchange, never its value", async () => {
    // An upstream that echoes the Authorization value inside a member whose name says nothing of a secret.
    const echo = await stub((headers) => ({ data: { note: `you sent ${String(headers["authorization"])}` } }));
    servers.push(echo);
    const out = join(suite.home.dir, "planted.har");
    const { proxy, recorder } = await record(urlOf(echo), out, ["--count", "2"]);
    const credential = `Basic ${Buffer.from(`vendor:planted-${randomUUID()}`).toString("base64")}`;
    expect((await fetch(`${proxy}/v1/notifications`)).status).toBe(200);
    expect((await fetch(`${proxy}/v1/echo`, { headers: { authorization: credential } })).status).toBe(200);
    const code = await recorder.exited;
    const stderr = recorder.stderr.join("\n");
    expect(code).toBe(1);
    expect(recorder.stderr.filter((line) => !line.startsWith("lrg: Recording at"))).toEqual([
      `lrg: refused to write ${out}: exchange 2 (GET /v1/echo) holds an Authorization credential seen in exchange 2 (GET /v1/echo); nothing was written`,
    ]);
    expect(stderr).not.toContain(credential.slice("Basic ".length));
    expect(stderr).not.toContain("planted-");
    expect(existsSync(out)).toBe(false);
  });

  it("hashes the same Idempotency-Key to the same value, and different keys to different values; --hash-key-env makes two recordings match", async () => {
    const upstream = await stub(() => ({ data: { ok: true } }));
    servers.push(upstream);
    const home = makeHome({ LRG_RECORD_KEY: `hash-key-${randomUUID()}` });
    const hashes = async (out: string, keys: readonly string[]): Promise<string[]> => {
      const { recorder, proxy } = await record(
        urlOf(upstream),
        out,
        ["--count", String(keys.length), "--hash-key-env", "LRG_RECORD_KEY"],
        home.env,
      );
      for (const key of keys)
        await fetch(`${proxy}/v0/applications`, { method: "POST", headers: { "idempotency-key": key }, body: "{}" });
      expect(await recorder.exited).toBe(0);
      const text = readFileSync(out, "utf8");
      for (const key of keys) expect(text).not.toContain(key);
      return expectHar12(text).log.entries.map(
        (entry) => entry.request.headers.find((h) => h.name.toLowerCase() === "idempotency-key")!.value,
      );
    };
    try {
      const [first, again, other] = await hashes(join(home.dir, "one.har"), [
        "submission-key-0001",
        "submission-key-0001",
        "submission-key-0002",
      ]);
      expect(first).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
      expect(again).toBe(first);
      expect(other).not.toBe(first);
      const [later] = await hashes(join(home.dir, "two.har"), ["submission-key-0001"]);
      expect(later).toBe(first);
      // Without --hash-key-env the key is random per recording: the same Idempotency-Key hashes differently.
      const { recorder, proxy } = await record(
        urlOf(upstream),
        join(home.dir, "three.har"),
        ["--count", "1"],
        home.env,
      );
      await fetch(`${proxy}/v0/applications`, {
        method: "POST",
        headers: { "idempotency-key": "submission-key-0001" },
      });
      expect(await recorder.exited).toBe(0);
      const random = expectHar12(
        readFileSync(join(home.dir, "three.har"), "utf8"),
      ).log.entries[0]!.request.headers.find((h) => h.name.toLowerCase() === "idempotency-key")!.value;
      expect(random).not.toBe(first);
    } finally {
      home.remove();
    }
  });

  it("closes the software's connection unanswered when the upstream does, and records no answer, which drift and replay pass over", async () => {
    // An upstream that stores a submission and closes the connection before answering it (the lost-answer check's).
    const dropping = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        if (request.url === "/v0/applications") return void request.socket.destroy();
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: [] }));
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
    servers.push(dropping);
    const out = join(suite.home.dir, "unanswered.har");
    const { proxy, recorder } = await record(urlOf(dropping), out, ["--count", "2"]);
    const submitted = fetch(`${proxy}/v0/applications`, {
      method: "POST",
      headers: { "idempotency-key": `lost-${randomUUID()}`, "content-type": "application/json" },
      body: "{}",
    });
    // The software meets what the upstream did: its connection closed without an answer (not a 502 of the proxy's).
    await expect(submitted).rejects.toThrow(TypeError);
    expect((await fetch(`${proxy}/v1/notifications`)).status).toBe(200);
    expect(await recorder.exited).toBe(0);

    const text = readFileSync(out, "utf8");
    const [lost, listed] = expectHar12(text).log.entries;
    expect([lost?.response.status, listed?.response.status]).toEqual([0, 200]);
    expect(JSON.parse(text).log.entries[0]._lrg).toEqual({
      error: "the upstream closed the connection without an answer",
    });
    // Its request is the software's to answer for ("{}" is no submission); of the answer it never got, nothing.
    const findings = drift(builtSpec, readHar(text)).findings.filter((finding) => finding.exchange === 0);
    expect(findings.length).toBeGreaterThan(0);
    expect(
      findings.filter((finding) => finding.side !== "software" || finding.pointer.startsWith("/response")),
    ).toEqual([]);
    const replay = await listening(["replay", out], suite.home.env);
    try {
      expect((await fetch(`${replay.address}/v1/notifications`)).status).toBe(200);
    } finally {
      expect(await interrupted(replay.process)).toBe(0);
    }
  });

  it("closes the software's connection after an answer sent before its request body was read, so its next request is not taken for the rest of that body", async () => {
    // An upstream that refuses an upload by its headers, before reading its body, and closes its connection (as the
    // gateway does for a Content-Length that differs from the signed length).
    const refusing = createServer((request, response) => {
      if (request.method === "PUT")
        return void response.writeHead(403, { "content-type": "application/json", connection: "close" }).end("{}");
      request.resume();
      request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end('{"data":[]}'));
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    servers.push(refusing);
    const out = join(suite.home.dir, "refused-before-reading.har");
    const { proxy, recorder } = await record(urlOf(refusing), out, ["--count", "2"]);
    // One kept-alive connection: a body declared longer than sent, then another request.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) =>
      new Promise<number>((resolve, reject) => {
        const sent = httpRequest(`${proxy}${path}`, { method, headers, agent }, (answer) => {
          answer.resume();
          answer.on("end", () => resolve(answer.statusCode ?? 0));
        });
        sent.on("error", reject);
        sent.end(body);
      });
    try {
      const declared = { "content-type": "application/octet-stream", "content-length": "41943041" };
      expect(await send("PUT", "/v0/uploads/a", declared, Buffer.from("x"))).toBe(403);
      expect(await send("GET", "/v1/notifications")).toBe(200);
    } catch (error) {
      // Not left listening for the exchanges it will not get.
      recorder.child.kill();
      throw error;
    } finally {
      agent.destroy();
    }
    expect(await recorder.exited, recorder.stderr.join("\n")).toBe(0);
    const entries = expectHar12(readFileSync(out, "utf8")).log.entries;
    expect(entries.map((entry) => entry.response.status)).toEqual([403, 200]);
  });

  it("a usage error names what is wrong before anything listens", async () => {
    const out = join(suite.home.dir, "never.har");
    const unset = follow(
      ["record", "--upstream", "http://127.0.0.1:9", "--out", out, "--hash-key-env", "LRG_NOT_SET"],
      suite.home.env,
    );
    expect(await unset.exited).toBe(2);
    expect(unset.stderr).toEqual(["lrg: usage: --hash-key-env LRG_NOT_SET: the variable is not set"]);
    const half = follow(["record", "--upstream", "https://127.0.0.1:9", "--out", out, "--cert", out], suite.home.env);
    expect(await half.exited).toBe(2);
    expect(half.stderr).toEqual(["lrg: usage: a client certificate needs both --cert and --key"]);
  });
});

/** VmRSS and VmHWM (bytes) of a process, from /proc (Linux). */
function resident(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

const MiB = 1024 * 1024;

describe.skipIf(platform() !== "linux")("lrg record streams (Linux: /proc gives the proxy's peak memory)", () => {
  it("a 40 MiB upload passes through with the proxy's peak resident memory growing by far less than the body", async () => {
    const out = join(suite.home.dir, "large.har");
    const { proxy, recorder } = await record(suite.gateway.url, out);
    const client = createGatewayClient({
      baseUrl: proxy,
      username: suite.user.username,
      password: suite.user.password,
    });
    const pid = recorder.child.pid!;
    const large = join(suite.home.dir, "large.pdf");
    const bytes = Buffer.alloc(40 * MiB, 0x20);
    smallPdf("LARGE").copy(bytes);
    writeFileSync(large, bytes);
    try {
      // Warm up (the proxy's code paths, its buffers), then reset the peak to the resident memory now.
      await client.uploadDocument(smallPdf("WARM-UP"), { documentType: "TR1" });
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
      const before = resident(pid);
      const uploaded = await client.uploadDocument(large, { documentType: "TR1" });
      const after = resident(pid);
      expect(uploaded.file_length).toBe(40 * MiB);
      const growth = after.peak - before.rss;
      // Flat: a quarter of the body would already mean the proxy held part of it.
      expect(growth, `peak grew by ${(growth / MiB).toFixed(1)} MiB`).toBeLessThan(10 * MiB);
      expect((await stop(recorder)).code).toBe(0);
      const puts = expectHar12(readFileSync(out, "utf8")).log.entries.filter((entry) => entry.request.method === "PUT");
      const put = puts.at(-1)!; // after the warm-up's
      expect(put.request.bodySize).toBe(40 * MiB);
      expect(put.request.postData?._lrg).toMatchObject({ size: 40 * MiB, stored: "prefix" });
      expect(Buffer.from(put.request.postData!.text!, "base64").length).toBeLessThanOrEqual(256);
    } finally {
      await client.close();
      if (recorder.child.exitCode === null) recorder.child.kill("SIGKILL");
    }
  });
});
