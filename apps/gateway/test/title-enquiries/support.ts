import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { expectDocumentedHeaders } from "../support/conformance.js";
import { startGateway, type Answer, type CallOptions, type Credentials, type TestGateway } from "../support/gateway.js";

export { expectDocumentedHeaders };

/** A gateway for title enquiry tests: every answer checked against the spec, body and headers. */
export interface TitleGateway extends TestGateway {
  /** Sets the sandbox clock to an instant (ISO 8601). */
  setClock(iso: string): Promise<void>;
  /** Moves the sandbox clock on. */
  advanceClock(seconds: number): Promise<void>;
  /** Files in the blob store (certificates are stored there). */
  blobCount(): number;
}

/**
 * Starts a gateway for title enquiry tests over plain HTTP: the sandbox setting `require_client_certificate` is
 * turned off (mutual-tls.test.ts and the start-up test cover the certificates).
 */
export async function startTitleGateway(): Promise<TitleGateway> {
  const gw = await startGateway();
  expect((await gw.sandbox("PUT", "/sandbox/v1/settings", { require_client_certificate: false })).status).toBe(200);
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<Answer> => {
    const answer = await gw.call(method, path, options);
    if (!options.unchecked) expectDocumentedHeaders(method, path, answer.status, answer.headers);
    return answer;
  };
  const blobsDir = join(gw.dataDir, "blobs");
  const countFiles = (dir: string): number =>
    readdirSync(dir).reduce((count, name) => {
      const path = join(dir, name);
      return count + (statSync(path).isDirectory() ? countFiles(path) : 1);
    }, 0);
  return {
    ...gw,
    call,
    async setClock(iso) {
      const answer = await gw.sandbox("PUT", "/sandbox/v1/clock", { now: iso });
      expect(answer.status).toBe(200);
    },
    async advanceClock(seconds) {
      const answer = await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds });
      expect(answer.status).toBe(200);
    },
    blobCount: () => countFiles(blobsDir),
  };
}

let messageCounter = 0;
/** A fresh, valid `message_id`. */
export function messageId(): string {
  messageCounter += 1;
  return `t-${process.pid}-${messageCounter}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A valid search of ZZ100001; `overrides` replace top-level members, `details` members of the search itself. */
export function searchRequest(
  overrides: Record<string, unknown> = {},
  details: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    message_id: messageId(),
    title_number: "ZZ100001",
    external_reference: { reference: "CONV-TEST-1" },
    official_search_of_whole_with_priority: {
      priority_type: "Purchase",
      search_from_date: "2025-03-14",
      registered_proprietors_details_or_applicants_for_first_registration: "Alex Example and Sam Example",
      applicant_party: "Robin Sample",
      ...details,
    },
    ...overrides,
  };
}

/** Inside the service hours (06:30 to 23:00 London time), on a working day. */
export const IN_SERVICE_HOURS = "2025-04-01T09:15:00.000Z";

/** The official search path. */
export const SEARCH = "/api/v1/official-searches-of-whole";
export const poll = (id: string) => `/api/v1/poll-requests/${id}`;

/** Searches as `as` (the demo user by default). */
export function search(gw: TitleGateway, body: unknown, as?: Credentials): Promise<Answer> {
  return gw.call("POST", SEARCH, { body, ...(as ? { as } : {}) });
}

/** The `data` member of a JSON body. */
export function dataOf<T = Record<string, unknown>>(answer: Answer): T {
  return (answer.body as { data: T }).data;
}
