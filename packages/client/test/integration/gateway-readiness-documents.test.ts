// The client's document workflows examined by the gateway's readiness checks: downloadDocument fetches each despatched
// document through the 302 without sending credentials to the download address, and uploadDocument asks for a new
// address when the first one has expired, so that the same bytes land (and their first valid PUT is right).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createBusinessUnitSandbox,
  unwrap,
  type BusinessUnitSandbox,
  type SandboxComponents,
} from "../../src/index.js";
import { countingFetch, SANDBOX_TOKEN, smallPdf, startGateway, type RunningGateway } from "./gateway-support.js";

type CheckName = SandboxComponents["schemas"]["ReadinessCheckName"];

let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.stop();
});

/** A business unit of its own (duplicates off: only the run's stimulus is delivered) under a run of `checks`. */
async function unitUnderRun(checks: CheckName[]): Promise<{ unit: BusinessUnitSandbox; runId: string }> {
  const unit = await createBusinessUnitSandbox({ baseUrl: gw.url, adminToken: SANDBOX_TOKEN });
  await unwrap(unit.sandbox.PUT("/sandbox/v1/settings", { body: { duplicate_rate: 0 } }));
  const run = await unwrap(
    unit.sandbox.POST("/sandbox/v1/readiness-runs", { body: { checks, time_limit_seconds: 60 } }),
  );
  return { unit, runId: run.run_id };
}

/** The verdict of each check once the unit's clock has passed the run's deadline. */
async function finalVerdicts(unit: BusinessUnitSandbox, runId: string) {
  await unwrap(unit.sandbox.POST("/sandbox/v1/clock/advance", { body: { seconds: 60 } }));
  const run = await unwrap(
    unit.sandbox.GET("/sandbox/v1/readiness-runs/{run_id}", { params: { path: { run_id: runId } } }),
  );
  expect(run.status).toBe("finished");
  return run;
}

describe("the client's document workflows under a readiness run", () => {
  it("passes downloads: consume hands over the correspondence, downloadDocument follows each 302 without credentials", async () => {
    const { unit, runId } = await unitUnderRun(["downloads", "nothing-left-behind"]);
    const transport = countingFetch();
    const client = gw.client(unit, { fetch: transport.fetch });
    const downloaded: string[] = [];
    await client.notifications.consume(async ({ notification }) => {
      if (notification.notification_type !== "application.correspondence-despatched") return;
      for (const document of notification.payload.data.documents) {
        const { body, contentType } = await client.downloadDocument(document.download_id);
        expect(contentType).toBe("application/pdf");
        const bytes = Buffer.from(await new Response(body).arrayBuffer());
        expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
        downloaded.push(document.download_id);
      }
    });
    expect(downloaded).toHaveLength(2);
    // What the client sent: credentials to the API, none to the download addresses.
    const addresses = transport.requests.filter((request) => request.url.includes("/v1/document-downloads/"));
    expect(addresses).toHaveLength(2);
    expect(addresses.every((request) => request.authorization === null)).toBe(true);

    const run = await finalVerdicts(unit, runId);
    expect(run.checks.map((check) => [check.name, check.verdict])).toEqual([
      ["nothing-left-behind", "passed"],
      ["downloads", "passed"],
    ]);
    const evidence = run.checks.find((check) => check.name === "downloads")!.evidence.requests;
    expect(evidence.map((request) => [request.operation_id, request.status, request.credentials_sent])).toEqual([
      ["downloadDocument", 302, true],
      ["fetchDocumentContent", 200, false],
      ["downloadDocument", 302, true],
      ["fetchDocumentContent", 200, false],
    ]);
  });

  it("passes expired-upload and checksum-and-length: uploadDocument asks for a new address after an expired one", async () => {
    const { unit, runId } = await unitUnderRun(["checksum-and-length", "expired-upload"]);
    const transport = countingFetch();
    const client = gw.client(unit, { fetch: transport.fetch });
    const bytes = smallPdf("readiness expired upload");
    const uploaded = await client.uploadDocument(bytes, { documentType: "TR1" });
    expect(uploaded.file_length).toBe(bytes.length);
    // Two addresses asked for; the first refused as expired, the second took the bytes.
    expect(transport.requests.map((request) => request.method)).toEqual(["POST", "PUT", "POST", "PUT"]);
    expect(transport.requests[3]?.url).toContain(`/v0/uploads/${uploaded.document_id}?`);

    const run = await finalVerdicts(unit, runId);
    expect(run.checks.map((check) => [check.name, check.verdict])).toEqual([
      ["checksum-and-length", "passed"],
      ["expired-upload", "passed"],
    ]);
    expect(run.checks.find((check) => check.name === "expired-upload")!.evidence.found).toContain(
      `uploaded the same bytes to a new address (document ${uploaded.document_id}, 200)`,
    );
  });
});
