// One readiness run with every check the gateway knows, passed by software written only with @lrg/client's own
// workflows: uploadDocument (renews an expired address, sends the base64 checksum and the byte length), the
// submission helper (retries a lost answer with the same Idempotency-Key), notifications.consume (pages, acknowledges
// every delivery at most 100 a call, gets through the run's 503s), downloadDocument (follows each 302 without
// credentials), a title look-up through the transport (waits the run's 429) and officialSearchOfWhole with
// pollOfficialSearch (never polls a deferred search early). The check-by-check tests beside this one show each
// workflow against its own checks; this one shows they hold together, as one integrator's software would run them,
// on SQLite and on PostgreSQL with two instances (the run started and read on one, the software talking to the other).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "@lrg/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createBusinessUnitSandbox,
  DeferredResultTimeoutError,
  unwrap,
  type BusinessUnitSandbox,
  type GatewayClient,
  type SandboxComponents,
} from "../../src/index.js";
import {
  IN_SERVICE_HOURS,
  SANDBOX_TOKEN,
  searchOf,
  smallPdf,
  startGateway,
  submission,
  type RunningGateway,
} from "./gateway-support.js";

type Run = SandboxComponents["schemas"]["ReadinessRun"];

/** Long enough for the deferred search's 15 minutes of manual processing. */
const TIME_LIMIT_SECONDS = 20 * 60;

/**
 * Where the run is started and read (`control`) and where the software talks (`software`): one SQLite instance, or
 * two instances on one PostgreSQL database, the run started on one and the software talking to the other.
 */
interface Stores {
  control: RunningGateway;
  software: RunningGateway;
  stop(): Promise<void>;
}

async function sqlite(): Promise<Stores> {
  const gw = await startGateway({ decisionDelayMs: 20 });
  return { control: gw, software: gw, stop: () => gw.stop() };
}

async function postgresTwoInstances(): Promise<Stores> {
  const server = await startPostgres();
  const databaseUrl = await server.createDatabase();
  const shared = mkdtempSync(join(tmpdir(), "lrg-client-readiness-"));
  const [control, software] = await Promise.all([
    startGateway({ decisionDelayMs: 20, databaseUrl, dataDir: shared }),
    startGateway({ decisionDelayMs: 20, databaseUrl, dataDir: shared }),
  ]);
  return {
    control,
    software,
    stop: async () => {
      await Promise.all([control.stop(), software.stop()]);
      await server.stop();
      rmSync(shared, { recursive: true, force: true });
    },
  };
}

/**
 * The integrator's software: submits through the client's helper, keeping each application's key, and handles its
 * notifications as a case-management system must (reads why an application failed validation, submits again one
 * that ended in SYSTEM_ERROR, downloads each despatched document).
 */
function software(client: GatewayClient, documentId: string) {
  const keys = new Map<string, string>();
  const handled = { validationErrors: 0, resubmitted: [] as string[], downloaded: [] as string[] };
  const submit = async (key?: string): Promise<string> => {
    const submitted = await client.applications.submit(
      submission(documentId, "CLIENT-IT-READY"),
      key === undefined ? {} : { idempotencyKey: key },
    );
    keys.set(submitted.application_request_id, submitted.idempotency_key);
    return submitted.application_request_id;
  };
  const consume = () =>
    client.notifications.consume(async ({ notification }) => {
      switch (notification.notification_type) {
        case "application.validation-failed":
          handled.validationErrors += (await client.applications.information(notification.subject)).errors.length;
          break;
        case "application.error":
          handled.resubmitted.push(await submit(keys.get(notification.subject)));
          break;
        case "application.correspondence-despatched":
          for (const document of notification.payload.data.documents) {
            const { body } = await client.downloadDocument(document.download_id);
            await new Response(body).arrayBuffer();
            handled.downloaded.push(document.download_id);
          }
          break;
        default:
      }
    });
  /** Consumes until a pass finds nothing new: what the software's scheduler does, a pass at a time. */
  const consumeAll = async () => {
    for (let pass = 0; pass < 5; pass += 1) if ((await consume()).notifications === 0) return;
    throw new Error("notifications kept arriving");
  };
  return { submit, consumeAll, handled };
}

/** Waits until an application is decided (the gateway decides a moment after the submission). */
async function untilDecided(client: GatewayClient, id: string): Promise<void> {
  for (let read = 0; read < 100; read += 1) {
    if ((await client.applications.information(id)).status !== "VALIDATING") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`application ${id} was not decided`);
}

describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL, the run started on one instance and the software on another", postgresTwoInstances],
])("@lrg/client's workflows under a readiness run of every check, on %s", (_store, start) => {
  let stores: Stores;
  let unit: BusinessUnitSandbox;
  beforeAll(async () => {
    stores = await start();
    unit = await createBusinessUnitSandbox({ baseUrl: stores.control.url, adminToken: SANDBOX_TOKEN });
    // Title enquiries over plain HTTP, on the unit's own clock inside the service hours; each event delivered once
    // (the run raises the duplicate it checks).
    await unwrap(
      unit.sandbox.PUT("/sandbox/v1/settings", { body: { require_client_certificate: false, duplicate_rate: 0 } }),
    );
    await unwrap(unit.sandbox.PUT("/sandbox/v1/clock", { body: { now: IN_SERVICE_HOURS } }));
  });
  afterAll(async () => {
    await stores?.stop();
  });
  const readRun = (runId: string): Promise<Run> =>
    unwrap(unit.sandbox.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: runId } } }));
  const advance = (seconds: number) => unwrap(unit.sandbox.POST("/sandbox/v1/clock/advance", { body: { seconds } }));

  it("pass every check the gateway knows", async () => {
    const run = await unwrap(
      unit.sandbox.POST("/sandbox/v1/readiness-runs", { body: { time_limit_seconds: TIME_LIMIT_SECONDS } }),
    );
    // Every check of the spec's ReadinessCheckName, none written here.
    expect(run.checks.length).toBeGreaterThanOrEqual(12);
    const client = stores.software.client(unit);

    const { document_id: documentId } = await client.uploadDocument(smallPdf("readiness, every check"), {
      documentType: "TR1",
    });
    const app = software(client, documentId);
    // The run's first submission fails validation, its second ends in SYSTEM_ERROR (the consumer submits it again:
    // that third submission's answer is lost, and the client retries it with the same key).
    await app.submit();
    await untilDecided(client, await app.submit());
    // A title look-up beside the consumer, as a case-management system runs them.
    await Promise.all([
      app.consumeAll(),
      unwrap(
        client.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", {
          params: { path: { title_number: "ZZ100001" } },
        }),
      ),
    ]);
    const [resubmitted] = app.handled.resubmitted;
    expect(resubmitted).toBeDefined();
    await untilDecided(client, resubmitted!);

    // The run defers the search for 15 minutes: the software keeps its message_id and fetches it once it is due.
    const deferred = await client.officialSearchOfWhole(searchOf("ZZ100001")).then(
      (outcome) => expect.unreachable(`expected the run to defer the search, got ${JSON.stringify(outcome)}`),
      (error: unknown) => error,
    );
    expect(deferred).toBeInstanceOf(DeferredResultTimeoutError);
    await advance(15 * 60);
    await client.pollOfficialSearch((deferred as DeferredResultTimeoutError).messageId);
    await app.consumeAll();
    expect(app.handled.validationErrors).toBeGreaterThan(0);
    expect(app.handled.downloaded.length).toBeGreaterThan(0);

    await advance(TIME_LIMIT_SECONDS);
    const finished = await readRun(run.run_id);
    expect(finished.checks.map((check) => [check.name, check.verdict, check.evidence.found])).toEqual(
      run.checks.map((check) => [check.name, "passed", expect.any(String)]),
    );
    expect(finished).toMatchObject({ status: "finished", verdict: "passed" });
  });
});
