import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentSchema, errorEnvelopeOf, operations, type Operation } from "@lrg/spec";
import { admittedRequest } from "./support/admitted-values.js";
import { errorCodeOf } from "./support/conformance.js";
import { startGateway, type Answer, type TestGateway } from "./support/gateway.js";

// The check an outside contract tool makes (Specmatic generates requests from the published schemas): whatever a
// parameter's schema admits, the gateway must not refuse as "request does not match the schema". A refusal for a
// rule the spec states beside the schema (created_after later than created_before, 400-01) stays allowed.

/** Every read of both documents that takes path or query parameters, as the spec lists them. */
const reads = operations.filter(
  (operation) => operation.method === "GET" && operation.parameters.some((p) => p.in === "path" || p.in === "query"),
);

/** The code the operation's error shape carries for a schema refusal (400-02, or the registry's code for it). */
function schemaRefusalCode(operation: Operation): string {
  return errorEnvelopeOf(operation)?.codes["400-02"] ?? "400-02";
}

let gw: TestGateway;

beforeAll(async () => {
  // Title enquiries over plain HTTP, so that their parameters reach validation rather than the mutual TLS check.
  gw = await startGateway({ settings: { require_client_certificate: false } });
});
afterAll(async () => {
  await gw.stop();
});

describe("a request whose parameters the spec admits is not refused for its shape", () => {
  it("reads every date-time filter of the spec", () => {
    const pattern = componentSchema("QueryDateTime")["pattern"];
    const filters = (among: readonly Operation[]) =>
      among.flatMap((operation) => operation.parameters.filter((p) => p.schema["pattern"] === pattern));
    expect(filters(operations).length).toBeGreaterThan(0);
    expect(filters(reads)).toEqual(filters(operations));
  });

  it.each(reads.map((operation) => [operation.operationId, operation] as const))("%s", async (_, operation) => {
    const send = (url: string): Promise<Answer> =>
      operation.security === "bearer"
        ? gw.sandbox("GET", url)
        : gw.call("GET", url, operation.security === "none" ? { as: null } : {});
    const refusal = schemaRefusalCode(operation);
    await fc.assert(
      fc.asyncProperty(admittedRequest(operation.path, operation.parameters), async (url) => {
        const answer = await send(url);
        const refused = answer.status === 400 && errorCodeOf(answer.body).code === refusal;
        expect(refused, `GET ${url} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
