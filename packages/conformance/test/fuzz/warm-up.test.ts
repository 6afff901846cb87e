// The warm-up's plans and order, read from the spec: each operation after those whose answers carry the records it
// names, those that change the gateway for everyone last; each operation with something to try.
import { describe, expect, it } from "vitest";
import { changesRegistry, operationById, operations } from "@lrg/spec";
import { Ref } from "../../src/fuzz/context.js";
import { isExclusive, operationsIn } from "../../src/fuzz/plans.js";
import { asOther } from "../../src/fuzz/runner.js";
import { poolsAnsweredBy, poolsNamedBy, warmUpFilter, warmUpOrder, warmUpPlans } from "../../src/fuzz/warm-up.js";

describe("the warm-up", () => {
  it("reads which records an operation names and which its answers carry", () => {
    expect([...poolsNamedBy(operationById("getApplicationInformation"))]).toEqual(["application"]);
    expect([...poolsNamedBy(operationById("submitApplication"))]).toContain("document");
    expect([...poolsAnsweredBy(operationById("submitApplication"))]).toEqual(["application"]);
    expect([...poolsAnsweredBy(operationById("createUploadUrl"))]).toContain("document");
  });

  it("sends every operation, each after those that answer the records it names, those that change everyone's state last", () => {
    const order = warmUpOrder(operations, isExclusive);
    expect(new Set(order)).toEqual(new Set(operations));
    const at = (id: string) => order.findIndex((o) => o.operationId === id);
    expect(at("createUploadUrl")).toBeLessThan(at("submitApplication"));
    expect(at("submitApplication")).toBeLessThan(at("getApplicationInformation"));
    expect(at("startReadinessRun")).toBeLessThan(at("getReadinessRun"));
    const firstExclusive = order.findIndex((o) => changesRegistry(o));
    expect(order.slice(firstExclusive).every((o) => changesRegistry(o))).toBe(true);
  });

  it("has something to try for every operation in each scope, the signed flows correct, path records the set-up's", () => {
    for (const scope of ["full", "stateless", "observe"] as const) {
      const allowed = warmUpFilter(scope);
      const empty = operationsIn(scope).filter(
        (o) => o.security !== "none" && warmUpPlans(o).filter(allowed).length === 0,
      );
      expect(
        empty.map((o) => o.operationId),
        scope,
      ).toEqual([]);
    }
    expect(warmUpPlans(operationById("uploadDocument"))[0]?.flow).toMatchObject({ kind: "upload", mutation: "none" });
    expect(warmUpPlans(operationById("fetchDocumentContent"))[0]?.flow).toMatchObject({
      kind: "download",
      mutation: "none",
    });
    const [information] = warmUpPlans(operationById("getApplicationInformation"));
    expect(information?.pathParams["id"]).toEqual(new Ref("application", 0));
    expect(information?.auth).toBe("unit");
  });

  it("tries each example body, with the admin token and then a unit's, for the control plane", () => {
    const transitions = warmUpPlans(operationById("transitionApplication"));
    const examples = operationById("transitionApplication").requestBody?.examples.length ?? 0;
    expect(transitions.length).toBe(2 * examples);
    expect(transitions.map((p) => p.auth)).toEqual([
      ...Array<string>(examples).fill("bearer"),
      ...Array<string>(examples).fill("unit-token"),
    ]);
    const [submit] = warmUpPlans(operationById("submitApplication"));
    expect(submit?.headers["idempotency-key"]).toMatch(/^fuzz-warm-up-/);
  });

  it("asks again as the other unit: its user, or its token", () => {
    const [information] = warmUpPlans(operationById("getApplicationInformation"));
    const [download] = warmUpPlans(operationById("fetchDocumentContent"));
    const [upload] = warmUpPlans(operationById("uploadDocument"));
    expect(information && asOther(information)?.auth).toBe("other");
    expect(download && asOther(download)?.flow).toMatchObject({ other: true });
    expect(upload && asOther(upload)).toBeUndefined();
    expect(asOther({ ...information!, auth: "bearer" })?.auth).toBe("other-token");
  });
});
