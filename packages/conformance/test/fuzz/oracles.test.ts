// The fuzzer's oracles, one exchange at a time: the spec's answers, 5xx, business-unit isolation, the signed flows.
import { describe, expect, it } from "vitest";
import { operationById, type SpecNode } from "@lrg/spec";
import { FuzzContext, Ref } from "../../src/fuzz/context.js";
import {
  downloadProblems,
  isolationFindings,
  jsonOf,
  replayProblems,
  serverErrorOf,
  specProblems,
  uploadProblems,
  valuesSentIn,
  type Answered,
} from "../../src/fuzz/oracles.js";
import type { WireRequest } from "../../src/http.js";

const answered = (status: number, body: unknown = undefined, headers: Record<string, string> = {}): Answered => ({
  kind: "answer",
  status,
  headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
  body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
  ms: 1,
});
const get = (target: string): WireRequest => ({ method: "GET", target, headers: {} });
const post = (target: string, body: unknown): WireRequest => ({
  method: "POST",
  target,
  headers: {},
  body: Buffer.from(JSON.stringify(body)),
});

/** Unit a owns an application, a download and two notifications; unit b owns one notification of its own. */
function context(): FuzzContext {
  const made = new FuzzContext("admin", ["ZZ100001"]);
  made.add("a", "application", "app-a");
  made.add("a", "download", "d".repeat(64));
  made.add("a", "notification", "n-a1");
  made.add("a", "notification", "n-a2");
  made.add("b", "notification", "n-b");
  // Seen by the admin token only: nobody's own.
  made.add("a", "application", "app-admin", false);
  return made;
}

describe("the spec's oracle", () => {
  it("accepts the spec's own example answer, and names an undocumented status or a wrong unmatched-route answer", () => {
    const media = (operationById("getClock").responses.get(200)?.spec["content"] as Record<string, SpecNode>)[
      "application/json"
    ];
    const example = Object.values(media?.["examples"] as Record<string, { value: unknown }>)[0]?.value;
    const headers = { "x-request-id": "r-1" };
    expect(specProblems(get("/sandbox/v1/clock"), answered(200, example, headers), false)).toEqual([]);
    expect(specProblems(get("/sandbox/v1/clock"), answered(418, example, headers), false).join()).toMatch(/418/);
    expect(specProblems(get("/nowhere"), answered(404, {}), false).length).toBeGreaterThan(0);
  });

  it("reads the JSON of a body, or nothing", () => {
    expect(jsonOf(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
    expect(jsonOf(Buffer.from("%PDF"))).toBeUndefined();
    expect(jsonOf(undefined)).toBeUndefined();
  });
});

describe("the 5xx oracle", () => {
  const injected = { code: "503-01", status: 503 };
  it.each([
    ["a 4xx is no server error", { status: 404, body: {}, method: "GET", faults: false, want: undefined }],
    [
      "an injected 503-01 while faults may be on",
      { status: 503, body: injected, method: "GET", faults: true, want: "injected" },
    ],
    [
      "a 503 to a HEAD while faults may be on",
      { status: 503, body: undefined, method: "HEAD", faults: true, want: "injected" },
    ],
    [
      "a 503-01 when no fault was asked for",
      { status: 503, body: injected, method: "GET", faults: false, want: "server error 503 (503-01)" },
    ],
    ["a 500", { status: 500, body: {}, method: "GET", faults: true, want: "server error 500" }],
  ])("%s", (_name, { status, body, method, faults, want }) => {
    const answer = answered(status, body);
    expect(serverErrorOf({ method, target: "/x", headers: {} }, answer, jsonOf(answer.body), faults)).toBe(want);
  });
});

describe("the isolation oracle (unit b asking)", () => {
  const information = operationById("getApplicationInformation");
  const listing = operationById("listNotificationsV1");
  const acknowledging = operationById("acknowledgeNotificationsV1");

  it("wants one of unit a's records named in the path not found", () => {
    const named = [{ pool: "application" as const, value: "app-a" }];
    const wire = get("/v0/applications/app-a/information");
    expect(isolationFindings(context(), information, wire, named, answered(404, {}), {})).toEqual({
      checked: true,
      problems: [],
    });
    expect(isolationFindings(context(), information, wire, named, answered(200, {}), {}).problems).toEqual([
      "another business unit's record answered 200",
    ]);
  });

  it("does not count a record of a that b named itself in an earlier request that succeeded", () => {
    // Seed 305048041's false breach: b's submission named a document id (answered 202), and b's own
    // attachment notification then echoed it.
    const document = { pool: "document" as const, value: "doc-a" };
    const made = context();
    made.add("a", document.pool, document.value);
    const body = { data: [{ notification_id: "n-b", payload: { data: { document_id: "doc-a" } } }] };
    const wire = get("/v1/notifications");
    expect(isolationFindings(made, listing, wire, [], answered(200, body), body).problems).toEqual([
      "an answer to another business unit carries unit a's document doc-a",
    ]);
    made.named("b", [document]);
    expect(isolationFindings(made, listing, wire, [], answered(200, body), body).problems).toEqual([]);
    // Named, not made: b's requests are not given it as one of b's own documents.
    expect(made.resolve(new Ref("document", 0, "b"))).not.toBe("doc-a");
  });

  it("does not count a record the admin token was answered, nor a title of the register", () => {
    const named = [
      { pool: "application" as const, value: "app-admin" },
      { pool: "title" as const, value: "ZZ100001" },
    ];
    expect(isolationFindings(context(), information, get("/x"), named, answered(404, {}), {}).checked).toBe(false);
  });

  it("finds unit a's records in an answer to b, unless b named them itself", () => {
    const body = { data: [{ notification_id: "n-b" }, { notification_id: "n-a1" }] };
    expect(isolationFindings(context(), listing, get("/v1/notifications"), [], answered(200, body), body)).toEqual({
      checked: true,
      problems: ["an answer to another business unit carries unit a's notification n-a1"],
    });
    const echoed = { data: { not_found: ["n-a1"] } };
    const wire = post("/v1/notifications/acknowledge", { data: ["n-a1"] });
    expect(isolationFindings(context(), acknowledging, wire, [], answered(200, echoed), echoed).problems).toEqual([]);
  });

  it("lets a readiness run's observations show b a value of a's that b sent itself, refused, and no other", () => {
    // The run beside two `yes` processes: b's probe of a's download id (answered 404) came back in b's own evidence.
    const evidence = operationById("getReadinessRunEvidence");
    const download = "d".repeat(64);
    const body = { observations: [{ operation_id: "downloadDocument", path_parameters: { download_id: download } }] };
    const wire = get("/sandbox/v1/readiness-runs/r-1/evidence");
    const made = context();
    const problem = `an answer to another business unit carries unit a's download ${download}`;
    expect(isolationFindings(made, evidence, wire, [], answered(200, body), body).problems).toEqual([problem]);
    made.sent("b", valuesSentIn(get(`/v1/documents/downloads/${download}?limit=1`)));
    expect(isolationFindings(made, evidence, wire, [], answered(200, body), body).problems).toEqual([]);
    // An answer that repeats no request of b's still may not show it.
    const listed = { data: [{ notification_id: "n-b", payload: { download_id: download } }] };
    const listing = get("/v1/notifications");
    expect(
      isolationFindings(made, operationById("listNotificationsV1"), listing, [], answered(200, listed), listed)
        .problems,
    ).toEqual([problem]);
  });

  it("reads the values a request sends: path segments, query values and body strings, decoded", () => {
    expect(valuesSentIn(post("/v1/x/a%20b?limit=2&q=c+d&flag", { data: ["e", { f: "g" }] }))).toEqual([
      "v1",
      "x",
      "a b",
      "2",
      "c d",
      "e",
      "g",
    ]);
  });

  it("wants none of unit a's notifications acknowledged by b", () => {
    const wire = post("/v1/notifications/acknowledge", { data: ["n-a1", "n-b"] });
    const body = { data: { acknowledged: ["n-a1", "n-b"] } };
    expect(isolationFindings(context(), acknowledging, wire, [], answered(200, body), body)).toEqual({
      checked: true,
      problems: ["another business unit acknowledged 1 of unit a's notifications"],
    });
  });
});

describe("the flows' oracles", () => {
  it.each([
    ["a correct upload accepted", { mutation: "none", status: 200, faults: false, want: 0 }],
    ["a correct upload refused", { mutation: "none", status: 403, faults: false, want: 1 }],
    [
      "a correct upload refused for another reason, faults on",
      { mutation: "none", status: 403, faults: true, code: "403-01", want: 1 },
    ],
    ["a correct upload met by an injected fault", { mutation: "none", status: 503, faults: true, want: 0 }],
    ["a correct upload to an address issued expired", { mutation: "none", status: 403, faults: true, want: 0 }],
    ["a changed checksum refused", { mutation: "checksum", status: 403, faults: false, want: 0 }],
    ["a changed checksum accepted", { mutation: "checksum", status: 200, faults: false, want: 1 }],
    ["a junk query either way", { mutation: "junk-query", status: 200, faults: false, want: 0 }],
  ] as const)("upload: %s", (_name, { mutation, status, faults, want, ...rest }) => {
    const code = "code" in rest ? rest.code : status === 403 ? "403-02" : undefined;
    expect(uploadProblems(mutation, { status, code }, faults)).toHaveLength(want);
  });

  it.each([
    ["a fresh address answered", { mutation: "none", status: 200, faults: false, want: 0 }],
    ["a fresh address refused", { mutation: "none", status: 403, faults: false, want: 1 }],
    ["a changed signature answered", { mutation: "signature", status: 200, faults: false, want: 1 }],
    ["another id refused", { mutation: "other-id", status: 403, faults: false, want: 0 }],
    ["a HEAD either way", { mutation: "head", status: 200, faults: false, want: 0 }],
  ] as const)("download: %s", (_name, { mutation, status, faults, want }) => {
    expect(downloadProblems(mutation, status, faults)).toHaveLength(want);
  });

  it("wants a second upload to one address refused", () => {
    expect(replayProblems(409)).toEqual([]);
    expect(replayProblems(200)).toEqual(["an upload address accepted a second upload"]);
  });
});
