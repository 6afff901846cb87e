import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../src/testing.js";
import { errorCodeOf, expectConformant } from "../support/conformance.js";
import { basic, DEMO, SANDBOX_TOKEN } from "../support/gateway.js";
import { expectDocumentedHeaders, searchRequest, SEARCH } from "./support.js";

const makeCerts = join(import.meta.dirname, "..", "..", "..", "..", "tooling", "scripts", "make-certs.sh");
const certDir = mkdtempSync(join(tmpdir(), "lrg-certs-"));
const pem = (name: string) => readFileSync(join(certDir, name));

interface TlsGateway extends TestGateway {
  port: number;
}

/** A client's TLS identity: the CA it trusts, and the certificate it presents (if any). */
interface Identity {
  cert?: Buffer;
  key?: Buffer;
}

interface HttpsAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One HTTPS request on its own connection; every answer is checked against the spec, body and headers. */
function send(
  target: TlsGateway,
  identity: Identity,
  method: string,
  path: string,
  options: { body?: unknown; authorization?: string | null } = {},
): Promise<HttpsAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const authorization = options.authorization === undefined ? basic(DEMO) : options.authorization;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: "127.0.0.1",
        port: target.port,
        method,
        path,
        agent: false,
        ca: pem("ca.crt"),
        ...(identity.cert && identity.key ? { cert: identity.cert, key: identity.key } : {}),
        headers: {
          ...(authorization ? { authorization } : {}),
          ...(payload !== undefined
            ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const contentType = res.headers["content-type"] ?? null;
          const body = text && contentType?.includes("json") ? (JSON.parse(text) as unknown) : text;
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === "string") headers.set(name, value);
          const status = res.statusCode ?? 0;
          if (!path.startsWith("/sandbox")) {
            expectConformant(method, path, status, text ? contentType : null, body);
            expectDocumentedHeaders(method, path, status, headers);
          }
          resolve({ status, headers, body });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function start(requireClientCertificate: boolean): Promise<TlsGateway> {
  const started = await startTestGateway({
    sandboxToken: SANDBOX_TOKEN,
    demoUser: DEMO,
    tls: {
      cert: join(certDir, "server.crt"),
      key: join(certDir, "server.key"),
      clientCa: join(certDir, "ca.crt"),
      requireClientCertificate,
    },
  });
  return { ...started, port: Number(new URL(started.url).port) };
}

async function stop(target: TlsGateway | undefined): Promise<void> {
  if (!target) return;
  await target.stop();
}

let optional: TlsGateway | undefined;
let required: TlsGateway | undefined;
let trusted: Identity;
let untrusted: Identity;

beforeAll(async () => {
  execFileSync("bash", [makeCerts, certDir], { stdio: "pipe" });
  trusted = { cert: pem("client.crt"), key: pem("client.key") };
  untrusted = { cert: pem("untrusted-client.crt"), key: pem("untrusted-client.key") };
  optional = await start(false);
  required = await start(true);
  // Both inside the service hours, whatever the hour of the run: a search is answered at once, and the
  // proprietor names (served 06:30 to 23:00 London time) do not answer 423.
  for (const gateway of [optional, required]) {
    const clock = await send(gateway, trusted, "PUT", "/sandbox/v1/clock", {
      body: { now: "2025-04-01T09:15:00.000Z" },
      authorization: `Bearer ${SANDBOX_TOKEN}`,
    });
    expect(clock.status).toBe(200);
  }
});
afterAll(async () => {
  await stop(optional);
  await stop(required);
  rmSync(certDir, { recursive: true, force: true });
});

const titleRoutes: [string, string, unknown][] = [
  ["GET", "/s1/v1/titles/ZZ100001/official-copies/availability", undefined],
  ["GET", "/s2/v1/titles/ZZ100001/registered-proprietor-names", undefined],
  ["GET", "/api/v1/poll-requests/never-used-0001", undefined],
  ["POST", SEARCH, searchRequest()],
];

describe("HTTPS with a client CA: certificates checked by the title enquiry routes", () => {
  it.each(titleRoutes)(
    "%s %s without a client certificate answers 403 (the registry's BG40005)",
    async (method, path, body) => {
      const answer = await send(optional!, {}, method, path, { body });
      expect(answer.status).toBe(403);
      expect(errorCodeOf(answer.body)).toEqual({ code: "BG40005", status: 403 });
    },
  );

  it.each(titleRoutes)(
    "%s %s with a certificate from another CA answers 403 (the registry's BG40005)",
    async (method, path, body) => {
      const answer = await send(optional!, untrusted, method, path, { body });
      expect(errorCodeOf(answer.body)).toEqual({ code: "BG40005", status: 403 });
    },
  );

  it("other services need no client certificate", async () => {
    const answer = await send(optional!, {}, "GET", "/v1/notifications");
    expect(answer.status).toBe(200);
  });

  it("with the operator's client certificate, the title enquiries answer", async () => {
    const names = await send(optional!, trusted, "GET", "/s2/v1/titles/ZZ100001/registered-proprietor-names");
    expect(names.status).toBe(200);
    const availability = await send(optional!, trusted, "GET", "/s1/v1/titles/ZZ100001/official-copies/availability");
    expect(availability.status).toBe(200);

    const body = searchRequest();
    const made = await send(optional!, trusted, "POST", SEARCH, { body });
    expect(made.status).toBe(201);
    const certificate = (made.body as { data: { certificate: { link: string } } }).data.certificate;
    expect(certificate.link).toMatch(
      new RegExp(`^https://127\\.0\\.0\\.1:${optional!.port}/v1/documents/[0-9a-f]{64}$`),
    );
    const polled = await send(optional!, trusted, "GET", `/api/v1/poll-requests/${String(body["message_id"])}`);
    expect(polled).toMatchObject({ status: 200, body: made.body });
  });

  it("a client certificate does not replace the Basic credentials", async () => {
    const answer = await send(optional!, trusted, "GET", "/s2/v1/titles/ZZ100001/registered-proprietor-names", {
      authorization: null,
    });
    expect(errorCodeOf(answer.body)).toEqual({ code: "BG40004", status: 401 });
  });
});

describe("HTTPS requiring a client certificate: the handshake refuses", () => {
  it("a client without a certificate", async () => {
    await expect(send(required!, {}, "GET", "/s2/v1/titles/ZZ100001/registered-proprietor-names")).rejects.toThrow(
      /alert certificate required/,
    );
  });

  it("a client with a certificate from another CA", async () => {
    // The server ends the handshake with an "unknown CA" alert; the client sees it as an alert or a reset socket.
    await expect(
      send(required!, untrusted, "GET", "/s2/v1/titles/ZZ100001/registered-proprietor-names"),
    ).rejects.toThrow(/unknown ca|socket hang up|ECONNRESET/i);
  });

  it("but serves a client with the operator's certificate", async () => {
    const answer = await send(required!, trusted, "GET", "/s2/v1/titles/ZZ100001/registered-proprietor-names");
    expect(answer.status).toBe(200);
  });
});
