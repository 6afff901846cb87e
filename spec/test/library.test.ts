// The library every consumer reads the spec through: the reader finds operations as the documents hold them,
// the constants are the spec's bounds, and the checker accepts documented answers and names departures.
import { describe, expect, it } from "vitest";
import { violationsOf } from "../src/check.js";
import {
  changesRegistry,
  componentSchema,
  echoesRequests,
  erasesRecords,
  fuzzWeightOf,
  MAX_DOCUMENT_BYTES,
  MAX_MESSAGE_LENGTH,
  operationById,
  operationFor,
  operations,
  problemCatalogue,
  READINESS_BOUNDS,
  scopeOf,
  signedAddressOf,
  transitions,
} from "../src/index.js";

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("the reader", () => {
  it("maps each operation's security to basic, bearer or none", () => {
    expect(operationById("listNotificationsV1").security).toBe("basic");
    expect(
      operations.filter((o) => o.document === "sandbox").every((o) => o.security === "bearer" || o.security === "none"),
    ).toBe(true);
    expect(operations.some((o) => o.security === "none")).toBe(true);
  });

  it("finds an operation by method and path, under its /api alias too, and HEAD as GET", () => {
    expect(operationFor("GET", "/v1/notifications")?.operationId).toBe("listNotificationsV1");
    expect(operationFor("get", "/api/v1/notifications?limit=1")?.operationId).toBe("listNotificationsV1");
    expect(operationFor("HEAD", "/v1/notifications")?.operationId).toBe("listNotificationsV1");
    expect(operationFor("GET", "/api/v0/applications")).toBeUndefined();
  });

  it("reads each operation's scope, and whether it changes the gateway for everyone or erases records", () => {
    expect(scopeOf(operationById("getApplicationInformation"))).toBe("business-unit");
    expect(scopeOf(operationById("getDayList"))).toBe("registry");
    expect(changesRegistry(operationById("setDayList"))).toBe(true);
    expect(changesRegistry(operationById("getDayList"))).toBe(false);
    expect(changesRegistry(operationById("transitionApplication"))).toBe(false);
    expect(operations.filter(erasesRecords).map((o) => o.operationId)).toEqual(["resetSandbox"]);
    expect(() => scopeOf({ ...operationById("getDayList"), operation: {} })).toThrow(/x-lrg-scope/);
  });

  it("finds the operations whose answers repeat the caller's own requests (a readiness run's observations)", () => {
    expect(operations.filter(echoesRequests).map((o) => o.operationId)).toEqual([
      "startReadinessRun",
      "getReadinessRun",
      "cancelReadinessRun",
      "getReadinessRunEvidence",
    ]);
  });

  it("follows a signed address to the operation that issues it, and reads fuzz weights (10 when absent)", () => {
    expect(signedAddressOf(operationById("uploadDocument"))).toEqual({
      issuedBy: operationById("createUploadUrl"),
      address: "$response.body#/data/upload_url",
    });
    expect(signedAddressOf(operationById("fetchDocumentContent"))?.issuedBy.operationId).toBe("downloadDocument");
    expect(signedAddressOf(operationById("downloadDocument"))).toBeUndefined();
    expect(fuzzWeightOf(operationById("resetSandbox"))).toBe(1);
    expect(fuzzWeightOf(operationById("getDayList"))).toBe(10);
  });

  it("generates the limits from the schemas' bounds", () => {
    expect(MAX_DOCUMENT_BYTES).toBe(
      (componentSchema("UploadUrlRequest")["properties"] as never)["data"]["properties"]["file_length"]["maximum"],
    );
    expect(MAX_MESSAGE_LENGTH).toBe(
      (componentSchema("AttachMessageRequest")["properties"] as never)["data"]["properties"]["message_text"][
        "maxLength"
      ],
    );
    expect(transitions.length).toBeGreaterThan(0);
    expect(problemCatalogue["404-02"].status).toBe(404);
  });

  it("generates the readiness bounds from the sandbox's schemas, a nullable member's from the branch that has it", () => {
    const observation = componentSchema("ReadinessObservation", "sandbox")["properties"] as never;
    const request = componentSchema("ReadinessRunRequest", "sandbox")["properties"] as never;
    const list = componentSchema("ReadinessRunList", "sandbox")["properties"] as never;
    expect(READINESS_BOUNDS).toEqual({
      runsListed: list["data"]["maxItems"],
      defaultTimeLimitSeconds: request["time_limit_seconds"]["default"],
      observationsKept: observation["sequence"]["maximum"],
      parametersKept: observation["query"]["maxProperties"],
      valueLength: observation["query"]["additionalProperties"]["maxLength"],
      acknowledgedIdsKept: observation["acknowledged_ids"]["oneOf"][0]["maxItems"],
      idempotencyKeyLength: observation["idempotency_key"]["oneOf"][0]["maxLength"],
      titleNumbersKept: observation["submission_case"]["oneOf"][0]["properties"]["title_numbers"]["maxItems"],
    });
    expect(Object.values(READINESS_BOUNDS).every((bound) => Number.isInteger(bound) && bound > 0)).toBe(true);
  });
});

describe("the response checker", () => {
  const list = { method: "GET", pathname: "/v1/notifications" };
  const ok = { status: 200, headers: { "content-type": "application/json" }, body: json({ data: [] }) };

  it("accepts a documented answer", () => {
    expect(violationsOf(list, ok)).toEqual([]);
  });

  it("names an undocumented status, an undocumented content type and an invalid body", () => {
    expect(violationsOf(list, { ...ok, status: 418 })[0]).toMatch(/status 418 is not documented/);
    expect(violationsOf(list, { ...ok, headers: { "content-type": "text/plain" } })[0]).toMatch(
      /answered as text\/plain/,
    );
    expect(violationsOf(list, { ...ok, body: json({ data: "none" }) }).join()).toMatch(/body\/data must be array/);
  });

  it("wants an unmatched route to answer a 404-02 problem", () => {
    const problem = {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      code: "404-02",
      detail: "no such route",
      instance: "/nowhere",
    };
    const answer = { status: 404, headers: { "content-type": "application/problem+json" }, body: json(problem) };
    expect(
      violationsOf(
        { method: "GET", pathname: "/nowhere" },
        { ...answer, body: json({ ...problem, code: "404-01" }) },
      ).join(),
    ).toMatch(/expected problem code 404-02/);
    expect(violationsOf({ method: "GET", pathname: "/nowhere" }, { ...ok })[0]).toMatch(/unmatched route answered 200/);
  });
});
