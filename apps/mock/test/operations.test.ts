// The helpers that build requests from the spec: a wrong helper would make the example tests pass vacuously.
import { describe, expect, it } from "vitest";
import { componentSchema, operationsOf } from "@lrg/spec";
import { sampleFromPattern, validRequest, type JsonObject } from "./operations.js";

describe("sampleFromPattern", () => {
  it.each([
    ["hex id", { given: "^[0-9a-f]{64}$", want: "0".repeat(64) }],
    ["registry reference", { given: "^[A-Z0-9]{7}$", want: "AAAAAAA" }],
    ["literals and classes", { given: "^ZZ[1-9][0-9]{5}$", want: "ZZ100000" }],
    ["digits", { given: "^\\d{3}-[a-z]+$", want: "000-a" }],
    ["alternation is not simple", { given: "^(a|b)$", want: undefined }],
    ["negated classes are not simple", { given: "^[^x]{2}$", want: undefined }],
  ])("%s", (_, { given, want }) => {
    const sample = sampleFromPattern(given);
    expect(sample).toBe(want);
    if (sample !== undefined) expect(sample).toMatch(new RegExp(given));
  });
});

describe("validRequest", () => {
  const ops = new Map(operationsOf("registry").map((op) => [op.operationId, op]));

  it("fills every path parameter and sends Basic credentials", () => {
    const op = ops.get("downloadDocument");
    if (op === undefined) throw new Error("downloadDocument missing");
    const { url, init } = validRequest(op, "http://mock");
    expect(url).toMatch(/^http:\/\/mock\/v1\/documents\/[0-9a-f]{64}$/);
    expect(init.headers["authorization"]).toMatch(/^Basic /);
  });

  it("sends the upload without credentials, with its checksum header and raw bytes", () => {
    const op = ops.get("uploadDocument");
    if (op === undefined) throw new Error("uploadDocument missing");
    const { init } = validRequest(op, "http://mock");
    expect(init.headers["authorization"]).toBeUndefined();
    expect(init.headers["x-provider-checksum-sha256"]).toHaveLength(44);
    expect(init.headers["content-type"]).toBe("application/octet-stream");
    expect(Buffer.isBuffer(init.body)).toBe(true);
  });

  it("sends the required Idempotency-Key and the submission example", () => {
    const op = ops.get("submitApplication");
    if (op === undefined) throw new Error("submitApplication missing");
    const { init } = validRequest(op, "http://mock");
    expect(init.headers["idempotency-key"]).toBeTruthy();
    const example = (
      op.operation["requestBody"] as { content: { "application/json": { examples: { transferWithCharge: unknown } } } }
    ).content["application/json"].examples.transferWithCharge;
    expect(JSON.parse(String(init.body))).toEqual((example as JsonObject)["value"]);
  });

  it("reads the schemas of the bundle with every reference resolved", () => {
    const schema = componentSchema("DownloadId");
    expect(schema["pattern"]).toBe("^[0-9a-f]{64}$");
  });
});
