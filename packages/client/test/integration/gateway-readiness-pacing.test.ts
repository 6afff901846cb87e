// @lrg/client's own workflows pass the pacing checks of a readiness run against a real gateway: the transport's
// retries of a 429 and of the 503s honour each Retry-After (in real time: the run judges waits on the unit's clock,
// which runs with it), notifications.consume gets through the run's faults, and an official search deferred by the
// run is fetched with pollOfficialSearch once expected_response_at has passed, never before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createBusinessUnitSandbox,
  DeferredResultTimeoutError,
  unwrap,
  type BusinessUnitSandbox,
  type GatewayClient,
  type RetryEvent,
  type SandboxComponents,
} from "../../src/index.js";
import { IN_SERVICE_HOURS, SANDBOX_TOKEN, searchOf, startGateway, type RunningGateway } from "./gateway-support.js";

type Run = SandboxComponents["schemas"]["ReadinessRun"];

const CHECKS = ["rate-limits", "faults-and-cadence", "deferred-official-search"] as const;
/** Long enough for the deferred search's 15 minutes of manual processing. */
const TIME_LIMIT_SECONDS = 20 * 60;

let gw: RunningGateway;
let unit: BusinessUnitSandbox;
let client: GatewayClient;
const retries: RetryEvent[] = [];

beforeAll(async () => {
  gw = await startGateway();
  unit = await createBusinessUnitSandbox({ baseUrl: gw.url, adminToken: SANDBOX_TOKEN });
  // Title enquiries over plain HTTP, on the unit's own clock inside the service hours.
  await unwrap(unit.sandbox.PUT("/sandbox/v1/settings", { body: { require_client_certificate: false } }));
  await unwrap(unit.sandbox.PUT("/sandbox/v1/clock", { body: { now: IN_SERVICE_HOURS } }));
  client = gw.client(unit, { onRetry: (event) => retries.push(event) });
});
afterAll(async () => {
  await gw?.stop();
});

const readRun = (runId: string): Promise<Run> =>
  unwrap(unit.sandbox.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: runId } } }));
const advance = (seconds: number) => unwrap(unit.sandbox.POST("/sandbox/v1/clock/advance", { body: { seconds } }));

describe("@lrg/client under a readiness run's pacing checks", () => {
  it("passes rate-limits, faults-and-cadence and deferred-official-search with its own workflows", async () => {
    const run = await unwrap(
      unit.sandbox.POST("/sandbox/v1/readiness-runs", {
        body: { checks: [...CHECKS], time_limit_seconds: TIME_LIMIT_SECONDS },
      }),
    );

    // The software's notification consumer and a title look-up, at once, as a case-management system would.
    const [consumed, names] = await Promise.all([
      client.notifications.consume(() => undefined),
      unwrap(
        client.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", {
          params: { path: { title_number: "ZZ100001" } },
        }),
      ),
    ]);
    expect(consumed.notifications).toBe(0);
    expect(names.data.title_number).toBe("ZZ100001");
    // The transport waited each Retry-After: the run's 429 (2 s) and its two 503s (1 s, then 2 s).
    expect(retries.map(({ status, delayMs }) => [status, delayMs]).sort()).toEqual([
      [429, 2000],
      [503, 1000],
      [503, 2000],
    ]);

    // The run defers the search for 15 minutes: the client gives up waiting at once (past its timeoutMs) rather than
    // poll early, and the software fetches the result once expected_response_at has passed.
    const deferred = await client.officialSearchOfWhole(searchOf("ZZ100001")).then(
      (outcome) => expect.unreachable(`expected the run to defer the search, got ${JSON.stringify(outcome)}`),
      (error: unknown) => error,
    );
    expect(deferred).toBeInstanceOf(DeferredResultTimeoutError);
    const { messageId, deferred: acknowledgement } = deferred as DeferredResultTimeoutError;
    expect(acknowledgement.data.acknowledgement_code).toBe("BG20001");
    await advance(15 * 60);
    const ready = await client.pollOfficialSearch(messageId);
    expect(ready.result.data.message_id).toBe(messageId);

    const during = await readRun(run.run_id);
    expect(Object.fromEntries(during.checks.map((check) => [check.name, check.verdict]))).toEqual({
      "rate-limits": "passed",
      "faults-and-cadence": "running",
      "deferred-official-search": "passed",
    });
    await advance(TIME_LIMIT_SECONDS);
    const finished = await readRun(run.run_id);
    expect(finished.checks.map((check) => [check.name, check.verdict, check.evidence.found])).toEqual(
      CHECKS.map((name) => [name, "passed", expect.any(String)]),
    );
    expect(finished.verdict).toBe("passed");
  });
});
