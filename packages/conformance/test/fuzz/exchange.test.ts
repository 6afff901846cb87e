// One exchange: counted, put to the oracles (a known departure counted apart), its identifiers collected. The client is
// a stand-in that answers what each case gives.
import { describe, expect, it } from "vitest";
import { operationById } from "@lrg/spec";
import { FuzzContext } from "../../src/fuzz/context.js";
import { Exchanger } from "../../src/fuzz/exchange.js";
import { Tally } from "../../src/fuzz/summary.js";
import type { WireAnswer, WireRequest } from "../../src/http.js";

const problem = (status: number, code: string) => ({
  type: `https://land-registration-gateway.example/problems/${code}`,
  title: status === 503 ? "Service Unavailable" : "Not Found",
  status,
  detail: "d",
  instance: "/v0/applications/x/information",
  code,
});

/** An exchanger whose client answers `answer` to everything, and records what it was sent. */
function exchangerAnswering(answer: WireAnswer, target: "gateway" | "mock" = "gateway") {
  const sent: WireRequest[] = [];
  const tally = new Tally(1, [operationById("getApplicationInformation"), operationById("fetchDocumentContent")]);
  const context = new FuzzContext("admin", []);
  context.add("a", "application", "app-a");
  let exchanges = 0;
  const client = { send: (wire: WireRequest) => (sent.push(wire), Promise.resolve(answer)) };
  const exchanger = new Exchanger(client, tally, context, target, () => (exchanges += 1));
  return { exchanger, tally, context, sent, exchanges: () => exchanges };
}

const json = (status: number, body: unknown, type = "application/json"): WireAnswer => ({
  kind: "answer",
  status,
  headers: { "content-type": type, "x-request-id": "r" },
  body: Buffer.from(JSON.stringify(body)),
  ms: 1,
});
const information = (id: string): WireRequest => ({
  method: "GET",
  target: `/v0/applications/${id}/information`,
  headers: {},
});

describe("an exchange", () => {
  it("counts the request by the operation it addresses, and reports what went unanswered", async () => {
    const { exchanger, tally, exchanges } = exchangerAnswering({ kind: "no-answer", reason: "ECONNRESET", ms: 1 });
    await exchanger.send(information("x"), undefined, "a");
    expect(tally.summary.operations["getApplicationInformation"]?.requests).toBe(1);
    expect(tally.summary.violations.map((v) => [v.oracle, v.problems])).toEqual([
      ["no-answer", ["no answer: ECONNRESET"]],
    ]);
    expect(exchanges()).toBe(1);
  });

  it("counts an injected 503-01 only while faults may be on, and reports it otherwise", async () => {
    const answer = json(503, problem(503, "503-01"), "application/problem+json");
    const quiet = exchangerAnswering(answer);
    await quiet.exchanger.send(information("x"), undefined, "a");
    expect(quiet.tally.summary.violations.map((v) => v.oracle)).toEqual(["server-error"]);
    const faulty = exchangerAnswering(answer);
    faulty.exchanger.settingsFaults = true;
    await faulty.exchanger.send(information("x"), undefined, "a");
    expect([faulty.tally.summary.injected503, faulty.tally.summary.violationCount]).toEqual([1, 0]);
  });

  it("counts a departure already known apart from the violations", async () => {
    const pdf: WireAnswer = {
      kind: "answer",
      status: 200,
      headers: { "content-type": "application/pdf" },
      body: Buffer.from("string"),
      ms: 1,
    };
    const { exchanger, tally } = exchangerAnswering(pdf, "mock");
    await exchanger.send(
      { method: "GET", target: `/v1/document-downloads/${"a".repeat(64)}`, headers: {} },
      undefined,
      "a",
    );
    expect([tally.summary.known["mock-pdf-placeholder"]?.count, tally.summary.violationCount]).toEqual([1, 0]);
  });

  it("puts unit b's requests to the isolation oracle, and collects what an answer names", async () => {
    const found = json(200, { data: { application_request_id: "app-a", status: "VALIDATING" } });
    const { exchanger, tally, context } = exchangerAnswering(found);
    await exchanger.send(information("app-a"), undefined, "b", { named: [{ pool: "application", value: "app-a" }] });
    expect(tally.summary.violations.filter((v) => v.oracle === "isolation").map((v) => v.problems[0])).toEqual([
      "another business unit's record answered 200",
    ]);
    expect(tally.finish([operationById("getApplicationInformation")], 1).isolationChecked).toEqual([
      "getApplicationInformation",
    ]);
    expect(context.has("b", "application", "app-a")).toBe(true);
  });

  it("sends the control plane's requests with the token given, and a unit's with its user", async () => {
    const { exchanger, sent, context } = exchangerAnswering(json(404, problem(404, "404-01")));
    context.units = {
      a: { username: "ua", password: "pa", businessUnitId: "a", sandboxToken: "lrgu_a" },
      b: { username: "ub", password: "pb", businessUnitId: "b", sandboxToken: "lrgu_b" },
    };
    await exchanger.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
    await exchanger.sandbox("GET", "/sandbox/v1/clock", undefined, "lrgu_a");
    await exchanger.asUnit(context.units.b, "GET", "/v1/notifications");
    expect(sent.map((wire) => wire.headers["authorization"])).toEqual([
      "Bearer admin",
      "Bearer lrgu_a",
      `Basic ${Buffer.from("ub:pb").toString("base64")}`,
    ]);
    expect(sent[0]?.body?.toString()).toBe('{"open":true}');
  });
});
