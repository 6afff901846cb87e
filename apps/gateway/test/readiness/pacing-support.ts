// What the unit's software does in the tests of the pacing checks (rate-limits, faults-and-cadence,
// deferred-official-search): title look-ups, official searches and polls, and waiting a Retry-After the way the run
// judges it, by moving the unit's own clock on rather than sleeping. Title enquiries go over plain HTTP (the unit's
// setting require_client_certificate off), or over mutual TLS with the demo client certificate (`withClientCertificate`).
import { readFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { expect } from "vitest";
import type { DemoCertificates } from "../../src/tls/demo-certificates.js";
import { expectConformant } from "../support/conformance.js";
import { basic, type Answer } from "../support/gateway.js";
import { IN_SERVICE_HOURS, searchRequest } from "../title-enquiries/support.js";
import { advance, gateway, type Unit } from "./support.js";

/**
 * Lets the unit's software make title enquiries over plain HTTP (the registry's need a client certificate), with the
 * unit's own clock in the service hours, so that a search is not deferred to the next morning by the hour alone.
 * Call it before starting the run: the run's deadline is on that clock.
 */
export async function allowTitleEnquiries(unit: Unit): Promise<void> {
  await setTitleSettings(unit, { require_client_certificate: false });
  await setClock(unit, IN_SERVICE_HOURS);
}

/** Changes the unit's own sandbox settings. */
export async function setTitleSettings(unit: Unit, settings: Record<string, unknown>): Promise<void> {
  expect((await gateway().control(unit.sandbox_token, "PUT", "/sandbox/v1/settings", settings)).status).toBe(200);
}

/** Sets the unit's own clock to an instant (ISO 8601). */
export async function setClock(unit: Unit, now: string): Promise<void> {
  expect((await gateway().control(unit.sandbox_token, "PUT", "/sandbox/v1/clock", { now })).status).toBe(200);
}

/** How the unit's software reaches the registry interface: one request, as the unit's user. */
export type Transport = (unit: Unit, method: string, path: string, body?: unknown) => Promise<Answer>;

/** Plain HTTP: no client certificate. */
export const overHttp: Transport = (unit, method, path, body) =>
  gateway().call(method, path, { as: unit, ...(body === undefined ? {} : { body }) });

/** A mutual TLS listener's address, and the PEM bytes a client presents to it: the CA it trusts, its certificate, its key. */
interface MutualTlsListener {
  address: string;
  pems: Record<"ca" | "cert" | "key", Buffer>;
}

/** The gateway's mutual TLS listener, started on first use (one a gateway). */
const listeners = new WeakMap<object, Promise<MutualTlsListener>>();

function mutualTlsListener(): Promise<MutualTlsListener> {
  const { gateway: server } = gateway();
  let listener = listeners.get(server);
  if (!listener) {
    const pemsOf = ({ caCert, clientCert, clientKey }: DemoCertificates) => ({
      ca: readFileSync(caCert),
      cert: readFileSync(clientCert),
      key: readFileSync(clientKey),
    });
    listener = server
      .listenMutualTls({ port: 0, host: "127.0.0.1" })
      .then(({ address, certificates }) => ({ address, pems: pemsOf(certificates) }));
    listeners.set(server, listener);
  }
  return listener;
}

/**
 * HTTPS on the gateway's mutual TLS listener, presenting the demo client certificate (signed by the gateway's client
 * CA), as software that follows the registry's mutual TLS does; every answer is checked against the spec.
 */
export const withClientCertificate: Transport = async (unit, method, path, body) => {
  const { address, pems } = await mutualTlsListener();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      new URL(path, address),
      {
        method,
        agent: false,
        ...pems,
        headers: {
          authorization: basic(unit),
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const contentType = response.headers["content-type"] ?? null;
          const answered = text && contentType?.includes("json") ? (JSON.parse(text) as unknown) : text;
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === "string") headers.set(name, value);
          const status = response.statusCode ?? 0;
          expectConformant(method, path, status, text ? contentType : null, answered);
          resolve({ status, headers, body: answered });
        });
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
};

/** The rate-limited look-ups of a title, by what they ask. */
export const LOOK_UPS = {
  names: "/s2/v1/titles/ZZ100001/registered-proprietor-names",
  availability: "/s1/v1/titles/ZZ100001/official-copies/availability",
} as const;

/** Looks a title up as the unit's software. */
export function lookUp(
  unit: Unit,
  what: keyof typeof LOOK_UPS = "names",
  transport: Transport = overHttp,
): Promise<Answer> {
  return transport(unit, "GET", LOOK_UPS[what]);
}

/** The seconds of an answer's Retry-After (which it must have). */
export function retryAfter(answer: Answer): number {
  const value = answer.headers.get("retry-after");
  expect(value, `status ${answer.status} without Retry-After`).toMatch(/^\d+$/);
  return Number(value);
}

/** Waits an answer's Retry-After as correct software does, on the unit's clock. */
export async function waitRetryAfter(unit: Unit, answer: Answer): Promise<void> {
  await advance(unit, retryAfter(answer));
}

/** Makes an official search of ZZ100001 as the unit's software; answers the answer and its message_id. */
export async function search(
  unit: Unit,
  transport: Transport = overHttp,
): Promise<{ answer: Answer; messageId: string }> {
  const body = searchRequest();
  const answer = await transport(unit, "POST", "/api/v1/official-searches-of-whole", body);
  return { answer, messageId: String(body["message_id"]) };
}

/** Polls the result of a search as the unit's software. */
export function poll(unit: Unit, messageId: string, transport: Transport = overHttp): Promise<Answer> {
  return transport(unit, "GET", `/api/v1/poll-requests/${messageId}`);
}

/**
 * Correct software's title enquiries: a look-up that waits out a 429 and looks up again, and an official search whose
 * deferred result is fetched once due (after the 202's Retry-After) and read.
 */
export async function correctTitleEnquiries(unit: Unit): Promise<void> {
  const looked = await lookUp(unit);
  if (looked.status === 429) {
    await waitRetryAfter(unit, looked);
    expect((await lookUp(unit)).status).toBe(200);
  } else expect(looked.status).toBe(200);
  const { answer, messageId } = await search(unit);
  if (answer.status === 202) {
    await waitRetryAfter(unit, answer);
    expect((await poll(unit, messageId)).status).toBe(200);
  } else expect(answer.status).toBe(201);
}
