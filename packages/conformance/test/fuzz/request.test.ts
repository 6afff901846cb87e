// Request building: a plan becomes the bytes of one request, its references resolved against the fuzzer's records.
import { describe, expect, it } from "vitest";
import { FuzzContext, Ref } from "../../src/fuzz/context.js";
import type { Plan } from "../../src/fuzz/plans.js";
import {
  authorization,
  bodyBytes,
  headerSafe,
  jsonRequest,
  ownerOf,
  percentEncode,
  resolveRefs,
  shortLatency,
  wireOf,
  withRealIds,
} from "../../src/fuzz/request.js";

/** A context with two units and a few records of unit a. */
function context(): FuzzContext {
  const made = new FuzzContext("admin-token", ["ZZ100001"]);
  made.units = {
    a: { username: "ua", password: "pa", businessUnitId: "unit-a", sandboxToken: "lrgu_a" },
    b: { username: "ub", password: "pb", businessUnitId: "unit-b", sandboxToken: "lrgu_b" },
  };
  made.add("a", "application", "app-1");
  made.add("a", "document", "doc-1");
  made.add("a", "document", "doc-2");
  made.add("a", "notification", "n-1");
  return made;
}

const plan = (changes: Partial<Plan> = {}): Plan => ({
  operationId: "(test)",
  variant: "valid",
  method: "GET",
  prefix: "",
  path: "/v0/applications/{id}/information",
  pathParams: { id: new Ref("application", 0) },
  query: [],
  headers: {},
  auth: "unit",
  ...changes,
});

const basicOf = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

describe("request building", () => {
  it.each([
    ["unreserved characters stay", { given: "abc-._~09", want: "abc-._~09" }],
    ["a slash and a space are escaped", { given: "a/b c", want: "a%2Fb%20c" }],
    ["non-ASCII by its UTF-8 bytes", { given: "é", want: "%C3%A9" }],
    ["a percent sign is escaped", { given: "%zz", want: "%25zz" }],
  ])("percent-encodes: %s", (_name, { given, want }) => {
    expect(percentEncode(given)).toBe(want);
  });

  it("keeps what `keep` names, and makes header values visible ASCII", () => {
    expect(percentEncode("%zz", /[A-Za-z0-9%]/)).toBe("%zz");
    expect(headerSafe("naïve\n")).toBe("na?ve?");
  });

  it.each([
    ["unit", basicOf("ua", "pa")],
    ["other", basicOf("ub", "pb")],
    ["wrong-password", basicOf("ua", "pa-wrong")],
    ["bearer", "Bearer admin-token"],
    ["unit-token", "Bearer lrgu_a"],
    ["other-token", "Bearer lrgu_b"],
    ["bearer-wrong", "Bearer not-the-token"],
    ["none", undefined],
  ] as const)("answers the Authorization header of %s credentials", (auth, want) => {
    expect(authorization(context(), auth, 0)).toBe(want);
  });

  it("draws malformed credentials by the plan's pick, and says whose records an answer holds", () => {
    expect(authorization(context(), "malformed", 0)).toBe("Basic");
    expect(authorization(context(), "malformed", 3)).toBe("Digest username=x");
    expect([
      ownerOf("unit"),
      ownerOf("unit-token"),
      ownerOf("other"),
      ownerOf("other-token"),
      ownerOf("bearer"),
    ]).toEqual(["a", "a", "b", "b", "s"]);
  });

  it("names real records in a body, and acknowledges real notifications", () => {
    const given = { data: { document_id: "x", nested: [{ title_number: "y" }], other: "z" } };
    expect(withRealIds(context(), given, 1, false)).toEqual({
      data: { document_id: "doc-2", nested: [{ title_number: "ZZ100001" }], other: "z" },
    });
    expect(withRealIds(context(), { data: ["p", "q"] }, 0, true)).toEqual({ data: ["n-1", "n-1"] });
    expect(withRealIds(context(), { data: ["p"] }, 0, false)).toEqual({ data: ["p"] });
  });

  it("resolves references, and keeps a latency short", () => {
    expect(resolveRefs(context(), { a: [new Ref("document", 1)], b: 2 })).toEqual({ a: ["doc-2"], b: 2 });
    expect(shortLatency({ latency_ms: 250 })).toEqual({ latency_ms: 1 });
    expect(shortLatency({ latency_ms: 2 })).toEqual({ latency_ms: 2 });
    expect(shortLatency({ latency_ms: 60_001 })).toEqual({ latency_ms: 60_001 });
  });

  it("makes the bytes of each kind of body", () => {
    const json = bodyBytes(
      context(),
      { kind: "json", value: { id: new Ref("application", 0) }, contentType: "x/y" },
      undefined,
    );
    expect([json.bytes.toString(), json.contentType]).toEqual(['{"id":"app-1"}', "x/y"]);
    expect(bodyBytes(context(), { kind: "text", text: "{", contentType: undefined }, undefined).bytes.toString()).toBe(
      "{",
    );
    expect(bodyBytes(context(), { kind: "padded-json", bytes: 100 }, undefined).bytes.length).toBe(100);
  });

  it("builds the wire request of a plan and names the records in its path", () => {
    const { wire, named } = wireOf(
      context(),
      plan({
        query: [
          ["limit", "1"],
          ["a b", new Ref("document", 0)],
        ],
        headers: { "x-h": "é" },
      }),
    );
    expect(wire).toEqual({
      method: "GET",
      target: "/v0/applications/app-1/information?limit=1&a%20b=doc-1",
      headers: { "x-h": "?", authorization: basicOf("ua", "pa") },
    });
    expect(named).toEqual([{ pool: "application", value: "app-1" }]);
  });

  it("keeps an odd path's escapes as drawn, and sets a body's type and length", () => {
    const odd = wireOf(context(), plan({ variant: "odd-path", pathParams: { id: "%zz" }, auth: "none" }));
    expect(odd.wire.target).toBe("/v0/applications/%zz/information");
    expect(odd.named).toEqual([]);
    const posted = wireOf(
      context(),
      plan({ method: "POST", body: { kind: "json", value: [1], contentType: "application/json" } }),
    );
    expect(posted.wire.headers).toMatchObject({ "content-type": "application/json", "content-length": "3" });
    expect(jsonRequest("PUT", "/x", { a: 1 }, { authorization: "t" })).toEqual({
      method: "PUT",
      target: "/x",
      headers: { authorization: "t", "content-type": "application/json", "content-length": "7" },
      body: Buffer.from('{"a":1}'),
    });
  });
});
