// A real gateway (@lrg/gateway, built) for the client's integration tests: started in-process on 127.0.0.1 and a
// free port, over a temporary data directory that is removed when it stops; optionally HTTPS with mutual TLS.
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Gateway } from "@lrg/gateway";
import { startTestGateway } from "@lrg/gateway/testing";
import { Agent, fetch as undiciFetch } from "undici";
import {
  createGatewayClient,
  createSandboxClient,
  unwrap,
  type Fetch,
  type GatewayClient,
  type GatewayClientOptions,
  type OfficialSearchInput,
  type SandboxClient,
  type SandboxComponents,
  type components,
} from "../../src/index.js";

export const SANDBOX_TOKEN = "client-integration-sandbox-token";

/** HTTP Basic credentials of a business unit's user. */
export interface Credentials {
  readonly username: string;
  readonly password: string;
  /** The business unit the user belongs to (known for units the sandbox created). */
  readonly business_unit_id?: string;
}

/** The PEM files of `tooling/scripts/make-certs.sh`, in a temporary directory. */
export interface Certificates {
  readonly dir: string;
  /** The absolute path of one of the files (`ca.crt`, `server.key`, `client.crt`...). */
  path(name: string): string;
  read(name: string): Buffer;
  remove(): void;
}

const MAKE_CERTS = join(import.meta.dirname, "..", "..", "..", "..", "tooling", "scripts", "make-certs.sh");

/** Makes throw-away certificates (an operator CA, the gateway's, a client's, and an untrusted client's). */
export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), "lrg-client-certs-"));
  execFileSync("bash", [MAKE_CERTS, dir], { stdio: "pipe" });
  return {
    dir,
    path: (name) => join(dir, name),
    read: (name) => readFileSync(join(dir, name)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A fetch over undici's own fetch with a dispatcher of our choosing (for HTTPS with the operator's CA and no
 * client certificate: what a caller without a certificate sees). undici's fetch takes a URL and parts, not the
 * global `Request`.
 */
export function fetchWithDispatcher(dispatcher: Agent): Fetch {
  return async (request) => {
    const response = await undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      redirect: request.redirect,
      signal: request.signal,
      dispatcher,
      ...(request.body !== null && { body: request.body, duplex: "half" as const }),
    });
    return response;
  };
}

/** A transport that records every request it is given before passing it on (to the global fetch by default). */
export interface CountingFetch {
  readonly fetch: Fetch;
  readonly requests: { method: string; url: string; authorization: string | null }[];
}

export function countingFetch(base: Fetch = (request) => globalThis.fetch(request, { window: null })): CountingFetch {
  const requests: CountingFetch["requests"] = [];
  return {
    requests,
    fetch: (request) => {
      requests.push({ method: request.method, url: request.url, authorization: request.headers.get("authorization") });
      return base(request);
    },
  };
}

/** A gateway started for a test file. */
export interface RunningGateway {
  readonly url: string;
  readonly gateway: Gateway;
  readonly dataDir: string;
  /** The demo user, created at start. */
  readonly demo: Credentials;
  /** The control plane, with the bearer token. */
  readonly sandbox: SandboxClient;
  /** The transport for the tests' own requests (the operator's CA trusted, no client certificate, over HTTPS). */
  readonly fetch: Fetch;
  /** A client of the gateway as `credentials`; `options` replace the defaults. */
  client(
    credentials: Credentials,
    options?: Partial<Omit<GatewayClientOptions, "baseUrl" | "username" | "password">>,
  ): GatewayClient;
  /** A new business unit with its own user (and so empty lists of notifications). */
  newBusinessUnit(): Promise<Credentials>;
  /** Requests the gateway answered so far, by its /metrics, leaving out the requests for /metrics itself. */
  answeredRequests(): Promise<number>;
  /** Changes sandbox settings (answers every setting). */
  settings(
    update: SandboxComponents["schemas"]["SandboxSettingsUpdate"],
  ): Promise<SandboxComponents["schemas"]["SandboxSettings"]>;
  /** Sets the gateway's clock. */
  setClock(now: string): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Serve HTTPS with these certificates, with `ca.crt` as the client CA (mutual TLS for the title enquiries). */
  readonly tls?: Certificates;
  readonly decisionDelayMs?: number;
  /** A PostgreSQL database (`startPostgres` of `@lrg/gateway/testing`) instead of the embedded SQLite file. */
  readonly databaseUrl?: string;
  /** A data directory of the caller's (kept after stop): another instance on the same database shares its documents. */
  readonly dataDir?: string;
}

/** Starts a gateway on 127.0.0.1 and a free port, over a new temporary data directory. */
export async function startGateway(options: StartOptions = {}): Promise<RunningGateway> {
  const demo: Credentials = { username: "demo", password: `demo-${randomUUID()}` };
  const started = await startTestGateway({
    sandboxToken: SANDBOX_TOKEN,
    demoUser: demo,
    ...(options.decisionDelayMs !== undefined && { decisionDelayMs: options.decisionDelayMs }),
    ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl }),
    ...(options.dataDir !== undefined && { dataDir: options.dataDir }),
    ...(options.tls !== undefined && {
      tls: {
        cert: options.tls.path("server.crt"),
        key: options.tls.path("server.key"),
        clientCa: options.tls.path("ca.crt"),
      },
    }),
  });
  const { url, gateway, dataDir } = started;

  const agent = options.tls === undefined ? undefined : new Agent({ connect: { ca: options.tls.read("ca.crt") } });
  const fetch: Fetch = agent === undefined ? (request) => globalThis.fetch(request) : fetchWithDispatcher(agent);
  const sandbox = createSandboxClient({ baseUrl: url, token: SANDBOX_TOKEN, fetch });
  const clients: GatewayClient[] = [];

  return {
    url,
    gateway,
    dataDir,
    demo,
    sandbox,
    fetch,
    client: (credentials, clientOptions = {}) => {
      const client = createGatewayClient({
        baseUrl: url,
        username: credentials.username,
        password: credentials.password,
        ...clientOptions,
      });
      clients.push(client);
      return client;
    },
    newBusinessUnit: async () => {
      const unit = await unwrap(
        sandbox.POST("/sandbox/v1/business-units", { body: { name: "Client integration test" } }),
      );
      return { username: unit.username, password: unit.password, business_unit_id: unit.business_unit_id };
    },
    answeredRequests: async () => {
      const response = await fetch(new Request(`${url}/metrics`));
      const text = await response.text();
      let total = 0;
      for (const line of text.split("\n")) {
        const match = /^lrg_http_requests_total\{([^}]*)\} (\d+)$/.exec(line);
        if (match?.[1] === undefined || match[1].includes('route="/metrics"')) continue;
        total += Number(match[2]);
      }
      return total;
    },
    settings: (update) => unwrap(sandbox.PUT("/sandbox/v1/settings", { body: update })),
    setClock: async (now) => {
      await unwrap(sandbox.PUT("/sandbox/v1/clock", { body: { now } }));
    },
    stop: async () => {
      try {
        await Promise.all(clients.map((client) => client.close()));
        await agent?.close();
      } finally {
        await started.stop();
      }
    },
  };
}

/** A small, valid, unencrypted PDF (the gateway's document checks sniff `%PDF-` and refuse `/Encrypt`). */
export function smallPdf(label = "client integration test"): Buffer {
  return Buffer.from(
    [
      "%PDF-1.7",
      "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
      "2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj",
      `% ${label}`,
      "trailer << /Root 1 0 R >>",
      "%%EOF",
      "",
    ].join("\n"),
    "latin1",
  );
}

export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
export const sha256Base64 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("base64");

/** A valid application naming one uploaded document. */
export function submission(
  documentId: string,
  reference = "CLIENT-IT-1",
): components["schemas"]["ApplicationSubmission"] {
  return {
    type: "REGISTER_UPDATE",
    submission_warning_understood: true,
    customer_reference: reference,
    application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
    titles: { main: { title_number: "ZZ100001", whole_of_title: true } },
    transactions: { transfer: { type: "T", priority: 1, title_keys: ["main"], document_keys: ["transfer"] } },
    documents: { transfer: { type: "TR1", document_id: documentId } },
  };
}

/** Submits an application through the client with a fresh Idempotency-Key; answers its id. */
export async function submit(client: GatewayClient, documentId: string, reference?: string): Promise<string> {
  const { data } = await unwrap(
    client.POST("/v0/applications", {
      params: { header: { "Idempotency-Key": `client-it-${randomUUID()}` } },
      body: submission(documentId, reference),
    }),
  );
  return data.application_request_id;
}

/** An official search of whole with priority of `title_number` by the proprietors of the clean title. */
export function searchOf(titleNumber: string): OfficialSearchInput {
  return {
    title_number: titleNumber,
    external_reference: { reference: "CLIENT-IT-SEARCH" },
    official_search_of_whole_with_priority: {
      priority_type: "Purchase",
      property_description: "1 Sample Row, Exampleton",
      search_from_date: "2025-03-14",
      registered_proprietors_details_or_applicants_for_first_registration: "Alex Example and Sam Example",
      applicant_party: "Robin Sample",
    },
  };
}

/** Inside the service hours of the title enquiries (06:30 to 23:00 London time), on a working day. */
export const IN_SERVICE_HOURS = "2025-04-01T09:15:00.000Z";
