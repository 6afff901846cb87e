import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { APPLICATION_STATUSES } from "@lrg/spec";
import type { SubmissionCheck, TakenSubmission } from "../../src/readiness/submissions.js";
import type { ReadinessObservationRow } from "../../src/readiness/store/port.js";
import { startPostgres } from "../../src/testing/postgres.js";
import { factsOf, observed, type HandMadeFacts } from "./observations.js";
import { uploadAddress, uploadHeaders } from "../support/documents.js";
import type { components, SandboxComponents } from "../../src/operation-types.js";
import { basic, startGateway, submission, type Credentials, type TestGateway } from "../support/gateway.js";

/** A business unit the sandbox created: its registry credentials and its own token of the control plane. */
export interface Unit extends Credentials {
  business_unit_id: string;
  sandbox_token: string;
}

// The spec's own shapes, never written again here.
export type Notification = components["schemas"]["NotificationV1"];
export type CheckResult = SandboxComponents["schemas"]["ReadinessCheckResult"];
export type Run = SandboxComponents["schemas"]["ReadinessRun"];

let current: TestGateway | undefined;
let stopAll: (() => Promise<void>) | undefined;

/**
 * The store the readiness tests run on: SQLite (one instance) by default; with `LRG_READINESS_STORE=postgres` (the
 * `readiness-postgres` project of vitest.config.ts), two instances on one PostgreSQL database, where the control plane
 * (starting, reading, cancelling runs) talks to one and the unit's software (the registry interface) to the other.
 */
const onPostgres = process.env["LRG_READINESS_STORE"] === "postgres";

/** Two instances seen as one: the control plane answered by `control`, the registry interface by `software`. */
function splitGateway(control: TestGateway, software: TestGateway): TestGateway {
  return {
    ...software,
    sandbox: control.sandbox,
    control: control.control,
    newBusinessUnit: control.newBusinessUnit,
    stop: async () => {
      await Promise.all([control.stop(), software.stop()]);
    },
  };
}

/** Starts the gateway of a test file before its tests (stopped after them); the helpers below talk to it. */
export function useTestGateway(): () => TestGateway {
  beforeAll(async () => {
    if (!onPostgres) {
      current = await startGateway();
      stopAll = () => current!.stop();
      return;
    }
    const server = await startPostgres();
    const databaseUrl = await server.createDatabase();
    const shared = mkdtempSync(join(tmpdir(), "lrg-readiness-"));
    const [control, software] = await Promise.all([
      startGateway({ databaseUrl, dataDir: shared }),
      startGateway({ databaseUrl, dataDir: shared }),
    ]);
    current = splitGateway(control, software);
    stopAll = async () => {
      await current!.stop();
      await server.stop();
      rmSync(shared, { recursive: true, force: true });
    };
  });
  afterAll(async () => {
    await stopAll?.();
  });
  return gateway;
}
/** The gateway of the test file (started by useTestGateway). */
export const gateway = (): TestGateway => {
  if (!current) throw new Error("no gateway: call useTestGateway() in the test file");
  return current;
};

/** A new business unit whose own notifications arrive once (the runs raise the duplicates they need). */
export async function newUnit(): Promise<Unit> {
  const unit = (await gateway().newBusinessUnit()) as Unit;
  expect(
    (await gateway().control(unit.sandbox_token, "PUT", "/sandbox/v1/settings", { duplicate_rate: 0 })).status,
  ).toBe(200);
  return unit;
}

export async function start(unit: Unit, body: Record<string, unknown>): Promise<Run> {
  const answer = await gateway().control(unit.sandbox_token, "POST", "/sandbox/v1/readiness-runs", body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Run;
}

export async function read(unit: Unit, runId: string): Promise<Run> {
  const answer = await gateway().control(unit.sandbox_token, "GET", `/sandbox/v1/readiness-runs/${runId}`);
  expect(answer.status).toBe(200);
  return answer.body as Run;
}

/** Moves the unit's own clock on by `seconds`: past the run's deadline, the run finishes. */
export async function advance(unit: Unit, seconds: number): Promise<void> {
  expect((await gateway().control(unit.sandbox_token, "POST", "/sandbox/v1/clock/advance", { seconds })).status).toBe(
    200,
  );
}

export const check = (run: Run, name: string): CheckResult => {
  const found = run.checks.find((each) => each.name === name);
  if (!found) throw new Error(`no check ${name} in ${JSON.stringify(run)}`);
  return found;
};

export async function list(unit: Unit, query = ""): Promise<Notification[]> {
  const answer = await gateway().call("GET", `/v1/notifications${query}`, { as: unit });
  expect(answer.status).toBe(200);
  return (answer.body as { data: Notification[] }).data;
}

export async function acknowledge(unit: Unit, ids: string[]): Promise<number> {
  return (await gateway().call("POST", "/v1/notifications/acknowledge", { as: unit, body: { data: ids } })).status;
}

/** Submits an application as the unit's software does (a fresh Idempotency-Key); answers its id. */
export async function submit(unit: Unit): Promise<string> {
  return gateway().submit(unit);
}

/** Reads an application's information; answers its status and errors. */
export async function information(unit: Unit, id: string): Promise<{ status: string; errors: { type: string }[] }> {
  const answer = await gateway().call("GET", `/v0/applications/${id}/information`, { as: unit });
  expect(answer.status).toBe(200);
  return (answer.body as { data: { status: string; errors: { type: string }[] } }).data;
}

/** Asks for a document with the unit's credentials, not following the redirect: answers the 302's Location. */
export async function askForDocument(unit: Unit, downloadId: string): Promise<string> {
  const answer = await fetch(`${gateway().url}/v1/documents/${downloadId}`, {
    headers: { authorization: basic(unit) },
    redirect: "manual",
  });
  await answer.arrayBuffer();
  expect(answer.status).toBe(302);
  return answer.headers.get("location")!;
}

/** Requests a download address with `headers`; answers its status and the document's first five bytes. */
export async function fetchDownloadAddress(
  location: string,
  headers: Record<string, string> = {},
): Promise<[number, string]> {
  const answer = await fetch(location, { headers });
  return [
    answer.status,
    Buffer.from(await answer.arrayBuffer())
      .subarray(0, 5)
      .toString("latin1"),
  ];
}

/** Downloads a document as a correct client does: the 302 followed by a fresh request, without the Authorization header. */
export async function correctDownload(unit: Unit, downloadId: string): Promise<void> {
  expect(await fetchDownloadAddress(await askForDocument(unit, downloadId))).toEqual([200, "%PDF-"]);
}

/**
 * Lists as correct software does: after a 503 or a 429, waits its Retry-After, moving the unit's clock on rather than
 * sleeping (the run judges waits on that clock), then lists again.
 */
export async function listPatiently(unit: Unit, query = ""): Promise<Notification[]> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await gateway().call("GET", `/v1/notifications${query}`, { as: unit });
    if (answer.status === 200) return (answer.body as { data: Notification[] }).data;
    expect([429, 503]).toContain(answer.status);
    expect(attempt).toBeLessThan(5);
    await advance(unit, Number(answer.headers.get("retry-after")));
  }
}

/**
 * A correct consumer: pages oldest first with created_after, waits each Retry-After, reads the information of an
 * application that failed validation, downloads each document of despatched correspondence, acknowledges every id,
 * at most 100 a call.
 */
export async function correctConsumer(unit: Unit): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const page = await listPatiently(unit, after === undefined ? "" : `?created_after=${encodeURIComponent(after)}`);
    for (const n of page)
      if (n.notification_type === "application.validation-failed")
        expect((await information(unit, n.subject)).errors.length).toBeGreaterThan(0);
      else if (n.notification_type === "application.correspondence-despatched")
        for (const document of n.payload.data.documents) await correctDownload(unit, document.download_id);
    for (let index = 0; index < page.length; index += 100)
      expect(
        await acknowledge(
          unit,
          page.slice(index, index + 100).map((n) => n.notification_id),
        ),
      ).toBe(200);
    if (page.length < 100) return;
    after = page.at(-1)!.created_datetime;
  }
}

/** Reads the first page only and acknowledges it: never pages past 100, never reads an
 * application's information. */
export async function onePageConsumer(unit: Unit): Promise<void> {
  const page = await list(unit);
  expect(
    await acknowledge(
      unit,
      page.map((n) => n.notification_id),
    ),
  ).toBe(200);
}

/** Asks for an upload address for `bytes` as a correct client does (file_sha256 the base64 digest, 44 characters). */
export async function uploadAddressFor(unit: Unit, bytes: Buffer): Promise<string> {
  return (await uploadAddress(gateway(), unit, bytes)).upload_url;
}

/** PUTs exactly `bytes` to an upload address with their length and base64 checksum; answers the status and the code. */
export async function putUpload(address: string, bytes: Buffer): Promise<[number, string | undefined]> {
  const put = await fetch(address, { method: "PUT", headers: uploadHeaders(bytes), body: bytes });
  const text = await put.text();
  return [put.status, text ? (JSON.parse(text) as { code?: string }).code : undefined];
}

/**
 * A correct uploader: asks for an address, then PUTs exactly those bytes with their length and base64 checksum; when
 * the PUT is refused because the address expired (403-02), asks for a new address and PUTs again.
 */
export async function correctUpload(unit: Unit, bytes: Buffer): Promise<number> {
  const [status, code] = await putUpload(await uploadAddressFor(unit, bytes), bytes);
  if (status !== 403 || code !== "403-02") return status;
  return (await putUpload(await uploadAddressFor(unit, bytes), bytes))[0];
}

/** What one submission's request came to: the status and, for a 202, the application's id; or its answer lost. */
export type Submitted = { status: number; id: string | undefined } | "lost";

/**
 * Sends one submission (by default `submission()` of the gateway's test support) with this Idempotency-Key, as a plain HTTP
 * client: answers the status (and the application's id of a 202), or "lost" when the connection closed unanswered.
 */
export async function submitWith(unit: Unit, key: string, sent = submission()): Promise<Submitted> {
  let response: Response;
  try {
    response = await fetch(`${gateway().url}/v0/applications`, {
      method: "POST",
      headers: { authorization: basic(unit), "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify(sent),
    });
  } catch (error) {
    if (error instanceof TypeError) return "lost"; // fetch's "fetch failed": the connection closed unanswered
    throw error;
  }
  const body = (await response.json()) as { data?: { application_request_id?: string } };
  return { status: response.status, id: body.data?.application_request_id };
}

/** A correct submitter: sends the submission, and while its answer is lost sends it again with the same key. */
export async function submitRetrying(unit: Unit, key: string): Promise<string> {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const answer = await submitWith(unit, key);
    if (answer === "lost") continue;
    expect(answer.status).toBe(202);
    return answer.id!;
  }
  throw new Error(`the answer to the submission with key ${key} was lost three times`);
}

/** How many applications the unit has, whatever their status (read from the store). */
export async function applicationCount(unit: Unit): Promise<number> {
  const { storage } = gateway().gateway;
  const counts = await Promise.all(
    APPLICATION_STATUSES.map((status) => storage.countApplications(status, unit.business_unit_id)),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Reads an application's information until the registry decided it (it left VALIDATING); answers its status. */
export async function untilDecided(unit: Unit, id: string): Promise<string> {
  for (let read = 0; read < 100; read += 1) {
    const { status } = await information(unit, id);
    if (status !== "VALIDATING") return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`application ${id} was not decided in 5 seconds`);
}

/**
 * Hand-made observations of submissions, numbered in the order made, and the facts of a run in which `check` took the
 * submission `taken` (for the verdicts of the checks that take one, judged without a gateway).
 */
export function handMadeSubmissions(check: SubmissionCheck, taken: TakenSubmission) {
  let sequence = 0;
  return {
    submission: (key: string, status: number, clockMs = 2000): ReadinessObservationRow =>
      observed("submitApplication", {
        sequence: (sequence += 1),
        clockMs,
        method: "POST",
        status,
        idempotencyKey: key,
      }),
    facts: (observations: ReadinessObservationRow[], ended: boolean): HandMadeFacts =>
      factsOf(observations, ended, { submissions: { [check]: taken } }),
  };
}
