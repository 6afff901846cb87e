// The client's mutual TLS against a real gateway serving HTTPS with the operator's CA as its client CA
// (certificates from tooling/scripts/make-certs.sh): the title enquiries answer a client that presents the
// operator's client certificate, and refuse one without a certificate, or with one from another CA, with 403 (the registry's BG40005 in its envelope).
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient, ProblemError, unwrap, type GatewayClient, type Middleware } from "../../src/index.js";
import {
  fetchWithDispatcher,
  IN_SERVICE_HOURS,
  makeCertificates,
  searchOf,
  startGateway,
  type Certificates,
  type RunningGateway,
} from "./gateway-support.js";

let certificates: Certificates;
let gw: RunningGateway;
let withCertificate: GatewayClient;
let withUntrustedCertificate: GatewayClient;
const agents: Agent[] = [];

/** Asks for a new connection after each request (and so a TLS handshake, resumed from the last one, for each). */
const reconnecting: Middleware = {
  onRequest: ({ request }) => {
    request.headers.set("Connection", "close");
  },
};

/**
 * A client that trusts the gateway's CA but presents no client certificate, over an undici Agent of its own (so a
 * TLS session cache of its own: its first request makes a full handshake).
 */
function clientWithoutCertificate(options: { reconnect?: boolean } = {}): GatewayClient {
  const agent = new Agent({ connect: { ca: certificates.read("ca.crt") } });
  agents.push(agent);
  return createGatewayClient({
    baseUrl: gw.url,
    ...gw.demo,
    fetch: fetchWithDispatcher(agent),
    ...(options.reconnect === true && { middleware: [reconnecting] }),
  });
}

beforeAll(async () => {
  certificates = makeCertificates();
  gw = await startGateway({ tls: certificates });
  await gw.setClock(IN_SERVICE_HOURS);
  const ca = certificates.read("ca.crt");
  withCertificate = gw.client(gw.demo, {
    tls: { cert: certificates.read("client.crt"), key: certificates.read("client.key"), ca },
  });
  withUntrustedCertificate = gw.client(gw.demo, {
    tls: { cert: certificates.read("untrusted-client.crt"), key: certificates.read("untrusted-client.key"), ca },
    middleware: [reconnecting],
  });
}, 30_000);
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  await gw?.stop();
  certificates?.remove();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.unreachable(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

describe("mutual TLS against the gateway", () => {
  it("serves HTTPS", () => {
    expect(gw.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("with the operator's client certificate, the title enquiries answer (200, 201)", async () => {
    const names = await withCertificate.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", {
      params: { path: { title_number: "ZZ100001" } },
    });
    expect(names.response.status).toBe(200);
    expect(names.data?.data.title_number).toBe("ZZ100001");

    const availability = await withCertificate.GET("/s1/v1/titles/{title_number}/official-copies/availability", {
      params: { path: { title_number: "ZZ100001" } },
    });
    expect(availability.response.status).toBe(200);

    const search = await withCertificate.officialSearchOfWhole(searchOf("ZZ100001"));
    expect(search.deferred).toBeUndefined();
    expect(search.result.data.official_search_data.title_number).toBe("ZZ100001");
    expect((await withCertificate.pollOfficialSearch(search.message_id)).result).toEqual(search.result);
  });

  it("without a client certificate, a title enquiry is a ProblemError 403 (the registry's BG40005)", async () => {
    const names = await rejection(
      unwrap(
        clientWithoutCertificate().GET("/s2/v1/titles/{title_number}/registered-proprietor-names", {
          params: { path: { title_number: "ZZ100001" } },
        }),
      ),
    );
    expect(names).toBeInstanceOf(ProblemError);
    expect(names).toMatchObject({ status: 403, code: "BG40005" });

    const search = await rejection(clientWithoutCertificate().officialSearchOfWhole(searchOf("ZZ100001")));
    expect(search).toBeInstanceOf(ProblemError);
    expect(search).toMatchObject({ status: 403, code: "BG40005" });

    // The other services need no certificate: the connection itself is fine.
    expect((await unwrap(clientWithoutCertificate().GET("/v1/notifications"))).data).toEqual([]);
  });

  // A resumed TLS 1.3 session is reported `authorized` without a certificate being presented again: the gateway
  // must neither resume sessions nor trust `authorized` alone (found by this test; fixed in the gateway).
  it("without a client certificate, every title enquiry is refused, on resumed TLS sessions too", async () => {
    const client = clientWithoutCertificate({ reconnect: true });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const { response } = await client.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", {
        params: { path: { title_number: "ZZ100001" } },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([403, 403, 403, 403]);
  });

  it("with a certificate from another CA, a title enquiry is a ProblemError 403 (the registry's BG40005), on resumed TLS sessions too", async () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const search = await rejection(withUntrustedCertificate.officialSearchOfWhole(searchOf("ZZ100001")));
      expect(search).toBeInstanceOf(ProblemError);
      expect(search).toMatchObject({ status: 403, code: "BG40005" });
    }
  });

  it("uploads a document over HTTPS through the client-certificate transport", async () => {
    // Upload and download through the same client: the signed addresses are on the gateway's origin here.
    const unit = await gw.newBusinessUnit();
    const client = gw.client(unit, {
      tls: {
        cert: certificates.read("client.crt"),
        key: certificates.read("client.key"),
        ca: certificates.read("ca.crt"),
      },
    });
    const pdf = Buffer.from("%PDF-1.7\n% mutual TLS upload\n%%EOF\n", "latin1");
    const uploaded = await client.uploadDocument(pdf, { documentType: "TR1" });
    await expect
      .poll(async () => (await gw.gateway.storage.findDocument(uploaded.document_id))?.status)
      .toBe("ACCEPTED");
  });
});
