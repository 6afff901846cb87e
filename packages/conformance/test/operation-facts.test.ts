// What the suite knows about an operation, read from the spec or derived from its answers.
import { describe, expect, it } from "vitest";
import { operations } from "@lrg/spec";
import {
  acknowledges,
  answersDocument,
  isolationApplies,
  memberAt,
  operationOfFlow,
  signedFlowOf,
  valueAt,
} from "../src/operation-facts.js";

const ids = (test: (o: (typeof operations)[number]) => boolean) => operations.filter(test).map((o) => o.operationId);

describe("operation facts", () => {
  it("finds the operations reached through a signed address, and the flow of each", () => {
    expect(ids((o) => signedFlowOf(o) !== undefined).sort()).toEqual(["fetchDocumentContent", "uploadDocument"]);
    expect(operationOfFlow("upload").operationId).toBe("uploadDocument");
    expect(operationOfFlow("download").operationId).toBe("fetchDocumentContent");
  });

  it("applies isolation to the operations on one unit's records that have a caller", () => {
    const applies = ids(isolationApplies);
    expect(applies).toEqual(
      expect.arrayContaining(["getApplicationInformation", "listNotificationsV0", "getReadinessRun"]),
    );
    expect(applies).not.toEqual(expect.arrayContaining(["getDayList"]));
    expect(applies).not.toContain("fetchDocumentContent");
  });

  it("derives which operations acknowledge, and which answer a PDF, from their answers", () => {
    expect(ids(acknowledges)).toEqual(["acknowledgeNotificationsV0", "acknowledgeNotificationsV1"]);
    expect(ids(answersDocument)).toEqual(["downloadDocument", "fetchDocumentContent"]);
    const schema = { allOf: [{ properties: { data: { oneOf: [{ properties: { x: { type: "string" } } }] } } }] };
    expect(memberAt(schema, ["data", "x"])).toEqual({ type: "string" });
    expect(memberAt(schema, ["data", "y"])).toBeUndefined();
  });

  it.each([
    ["a header", { expression: "$response.header.Location", want: "/there" }],
    ["a member of the body", { expression: "$response.body#/data/upload_url", want: "/up" }],
    ["an escaped pointer", { expression: "$response.body#/a~1b", want: "slash" }],
    ["a member that is not a string", { expression: "$response.body#/data", want: undefined }],
    ["no expression the spec uses", { expression: "$request.path.id", want: undefined }],
  ])("reads %s of an answer", (_name, { expression, want }) => {
    const answer = { headers: { location: "/there" }, json: { data: { upload_url: "/up" }, "a/b": "slash" } };
    expect(valueAt(expression, answer)).toBe(want);
  });
});
