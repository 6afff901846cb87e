import type { Gateway } from "../../src/server.js";
import { startTestGateway, type TestGatewayOptions } from "../../src/testing.js";
import { expectConformant } from "./conformance.js";

export const SANDBOX_TOKEN = "test-sandbox-token";
export const DEMO = { username: "demo", password: "demo-password-for-tests" };

/** A gateway started for a test: real HTTP on a free port, its own temporary data directory. */
export interface TestGateway {
  url: string;
  gateway: Gateway;
  dataDir: string;
  /** Calls an operation with HTTP Basic; every answer is checked against the spec. */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Calls the sandbox control plane with the bearer token; answers are checked against sandbox.yaml. */
  sandbox(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Calls the sandbox control plane with another bearer token (a business unit's own); checked as `sandbox`. */
  control(token: string, method: string, path: string, body?: unknown): Promise<Answer>;
  /** A new business unit with its own credentials. */
  newBusinessUnit(): Promise<Credentials>;
  /** Submits `submission()` as `as` (a fresh Idempotency-Key); answers its application_request_id, throws unless 202. */
  submit(as: Credentials): Promise<string>;
  stop(): Promise<void>;
}

export interface Credentials {
  username: string;
  password: string;
  business_unit_id?: string;
  /** The unit's own token of the control plane (answered when the sandbox created the unit). */
  sandbox_token?: string;
}

export interface CallOptions {
  as?: Credentials | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Skip the conformance check (for answers that are deliberately outside the spec, e.g. 404-02 routes). */
  unchecked?: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export function basic(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}

/** Starts a gateway; `dataDir` reuses a directory (restart tests), `settings` are the sandbox's at start. */
export async function startGateway(
  options: Pick<
    TestGatewayOptions,
    "dataDir" | "decisionDelayMs" | "databaseUrl" | "blobUrl" | "s3" | "settings" | "composition"
  > = {},
): Promise<TestGateway> {
  const started = await startTestGateway({
    ...options,
    sandboxToken: SANDBOX_TOKEN,
    signingSecret: "test-signing-secret",
    demoUser: DEMO,
  });
  const { url, gateway, dataDir } = started;

  const send = async (
    method: string,
    path: string,
    authorization: string | undefined,
    options: CallOptions,
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...(authorization ? { authorization } : {}), ...options.headers };
    let payload: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
      redirect: "manual",
    });
    const text = await response.text();
    const contentType = response.headers.get("content-type");
    const body = text && contentType?.includes("json") ? (JSON.parse(text) as unknown) : text;
    if (!options.unchecked) expectConformant(method, path, response.status, text ? contentType : null, body);
    return { status: response.status, headers: response.headers, body };
  };

  const self: TestGateway = {
    url,
    gateway,
    dataDir,
    call: (method, path, callOptions = {}) => {
      const as = callOptions.as === undefined ? DEMO : callOptions.as;
      return send(method, path, as ? basic(as) : undefined, callOptions);
    },
    sandbox: (method, path, body) => send(method, path, `Bearer ${SANDBOX_TOKEN}`, body === undefined ? {} : { body }),
    control: (token, method, path, body) => send(method, path, `Bearer ${token}`, body === undefined ? {} : { body }),
    newBusinessUnit: async () => {
      const answer = await self.sandbox("POST", "/sandbox/v1/business-units", { name: "Test unit" });
      return answer.body as Credentials;
    },
    submit: async (as) => {
      const answer = await self.call("POST", "/v0/applications", {
        as,
        body: submission(),
        headers: { "idempotency-key": idempotencyKey() },
      });
      if (answer.status !== 202)
        throw new Error(`submission answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return (answer.body as { data: { application_request_id: string } }).data.application_request_id;
    },
    stop: () => started.stop(),
  };
  return self;
}

/** A minimal valid submission (one transfer for value with its TR1); `overrides` replace top-level members. */
export function submission(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "REGISTER_UPDATE",
    submission_warning_understood: true,
    customer_reference: "CASE-1",
    application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
    titles: { "title-1": { title_number: "AB12345" } },
    transactions: { transfer: { type: "T", priority: 1, title_keys: ["title-1"], document_keys: ["tr1"] } },
    documents: { tr1: { type: "TR1", document_id: "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b" } },
    ...overrides,
  };
}

let keyCounter = 0;
/** A fresh Idempotency-Key. */
export function idempotencyKey(): string {
  keyCounter += 1;
  return `test-key-${process.pid}-${keyCounter}-${Math.random().toString(36).slice(2)}`;
}
