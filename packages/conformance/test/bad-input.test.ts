// The shared generator of bad input (src/bad-input/), taken at its word: what it draws breaks the spec, and a
// gateway refuses every kind of it, for every operation, with a documented 4xx in that operation's error shape
// and never a 5xx. The negative properties draw from it at random; here each operation gets each kind, by seed.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "@lrg/spec";
import { schemaViolations } from "@lrg/spec/check";
import { badBody, badParameterText, isValidParameter, malformedJson } from "../src/bad-input/index.js";
import { expectRefused, negativeRequests } from "../src/properties/negative/index.js";
import type { Session } from "../src/session.js";
import { openGateway } from "../src/targets.js";

const SEED = Number(process.env["LRG_CONFORMANCE_SEED"] ?? 20261122);
const EACH = 4;

describe("what the shared generator draws breaks the spec", () => {
  const bodies = operations.flatMap((operation) => {
    const body = operation.requestBody;
    const schema = body?.content.get("application/json");
    return schema === undefined || body === undefined
      ? []
      : [{ operation: operation.operationId, schema, example: body.examples[0], required: body.required }];
  });

  it.each(bodies)(
    "bodies of $operation fail the suite's response checker's validation of the same schema",
    ({ schema, example, required }) => {
      for (const bad of fc.sample(badBody(schema, example, required), { seed: SEED, numRuns: 20 })) {
        expect(
          schemaViolations(schema, bad.value).length,
          `${bad.change}: ${JSON.stringify(bad.value)?.slice(0, 200)}`,
        ).toBeGreaterThan(0);
        expect(bad.value).not.toBeUndefined();
      }
    },
  );

  it("parameter texts fail their parameter's schema, and routable ones stay one path segment", () => {
    const constrained = operations
      .flatMap((o) => o.parameters)
      .filter((p) => p.in === "path" && p.schema["pattern"] !== undefined);
    expect(constrained.length).toBeGreaterThan(0);
    for (const parameter of constrained) {
      for (const text of fc.sample(badParameterText(parameter.schema, { routable: true }), {
        seed: SEED,
        numRuns: 20,
      })) {
        expect(isValidParameter(parameter.schema, text), `${parameter.name}=${text}`).toBe(false);
        expect(text).toMatch(/^[^/?#%\s]+$/);
      }
    }
  });

  it("malformed JSON never parses", () => {
    for (const text of fc.sample(malformedJson, { seed: SEED, numRuns: 200 }))
      expect(() => JSON.parse(text), text).toThrow();
  });
});

describe("a gateway refuses every kind of bad input for every operation with a documented 4xx, never a 5xx", () => {
  let session: Session;
  beforeAll(async () => {
    session = await openGateway();
    await session.beforeEachProperty?.();
  });
  afterAll(async () => {
    await session?.close();
  });

  const cases = (["registry", "sandbox"] as const).flatMap((document) => negativeRequests(document, true));

  it("covers every operation the negative properties address, and every kind of bad input", () => {
    expect(new Set(cases.map((c) => c.operationId)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(cases.map((c) => c.kind))).toEqual(
      new Set(["path", "query", "unknown-query", "missing-header", "malformed-json", "content-type", "body"]),
    );
  });

  it.each(cases.map((c) => [`${c.operationId}: ${c.kind}`, c] as const))("%s", async (_name, { requests }) => {
    for (const request of fc.sample(requests, { seed: SEED, numRuns: EACH })) await expectRefused(session, request);
  });
});
