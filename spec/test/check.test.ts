// The response checker (the fuzzer's and the conformance suite's oracle) must catch answers outside the spec.
import { describe, expect, it } from "vitest";
import { violationsOf, type Answer } from "../src/check.js";

const problem = (status: number, code: string, instance = "/v1/notifications") =>
  Buffer.from(
    JSON.stringify({
      type: `https://land-registration-gateway.example/problems/${code}`,
      title: "Bad Request",
      status,
      detail: "x",
      instance,
      code,
    }),
  );
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const answer = (
  status: number,
  contentType: string | undefined,
  body: Buffer,
  headers: Record<string, string> = {},
): Answer => ({
  status,
  headers: { ...(contentType ? { "content-type": contentType } : {}), ...headers },
  body,
});

describe("violationsOf", () => {
  const cases: [string, { method: string; path: string; answer: Answer; pathMayMiss?: boolean }, boolean][] = [
    [
      "a documented problem",
      {
        method: "GET",
        path: "/v1/notifications",
        answer: answer(400, "application/problem+json", problem(400, "400-02")),
      },
      true,
    ],
    [
      "an empty list",
      {
        method: "GET",
        path: "/v1/notifications",
        answer: answer(200, "application/json; charset=utf-8", json({ data: [] })),
      },
      true,
    ],
    [
      "the /api alias of a notification operation",
      { method: "GET", path: "/api/v1/notifications", answer: answer(200, "application/json", json({ data: [] })) },
      true,
    ],
    [
      "an undocumented status",
      {
        method: "GET",
        path: "/v1/notifications",
        answer: answer(404, "application/problem+json", problem(404, "404-01")),
      },
      false,
    ],
    [
      "a 5xx",
      {
        method: "GET",
        path: "/v1/notifications",
        answer: answer(500, "application/problem+json", problem(500, "500-01")),
      },
      false,
    ],
    [
      "the wrong content type",
      { method: "GET", path: "/v1/notifications", answer: answer(400, "application/json", problem(400, "400-02")) },
      false,
    ],
    [
      "a body that breaks the schema",
      { method: "GET", path: "/v1/notifications", answer: answer(200, "application/json", json({ items: [] })) },
      false,
    ],
    [
      "a body that is not JSON",
      { method: "GET", path: "/v1/notifications", answer: answer(200, "application/json", Buffer.from("{")) },
      false,
    ],
    [
      "a problem whose status disagrees",
      {
        method: "GET",
        path: "/v1/notifications",
        answer: answer(400, "application/problem+json", problem(401, "401-01")),
      },
      false,
    ],
    [
      "a problem code outside the catalogue",
      {
        method: "GET",
        path: "/v1/notifications",
        answer: answer(400, "application/problem+json", problem(400, "400-99")),
      },
      false,
    ],
    [
      "a redirect without its Location",
      { method: "GET", path: `/v1/documents/${"a".repeat(64)}`, answer: answer(302, undefined, Buffer.alloc(0)) },
      false,
    ],
    [
      "a redirect with its Location",
      {
        method: "GET",
        path: `/v1/documents/${"a".repeat(64)}`,
        answer: answer(302, undefined, Buffer.alloc(0), { location: "/x" }),
      },
      true,
    ],
    [
      "a body where none is documented",
      { method: "POST", path: "/sandbox/v1/reset", answer: answer(204, "application/json", json({})) },
      false,
    ],
    [
      "an unmatched route answered 404-02",
      {
        method: "GET",
        path: "/v2/nothing",
        answer: answer(404, "application/problem+json", problem(404, "404-02", "/v2/nothing")),
      },
      true,
    ],
    [
      "an unmatched route answered 404 with another code",
      {
        method: "GET",
        path: "/v2/nothing",
        answer: answer(404, "application/problem+json", problem(404, "404-01", "/v2/nothing")),
      },
      false,
    ],
    [
      "an unmatched route answered 200",
      { method: "GET", path: "/v2/nothing", answer: answer(200, "application/json", json({})) },
      false,
    ],
    [
      "a HEAD of an unmatched route, no body",
      { method: "HEAD", path: "/v2/nothing", answer: answer(404, "application/problem+json", Buffer.alloc(0)) },
      true,
    ],
    [
      "404-02 where a path parameter may miss the router",
      {
        method: "PUT",
        path: "/v0/uploads/x",
        pathMayMiss: true,
        answer: answer(404, "application/problem+json", problem(404, "404-02", "/v0/uploads/x")),
      },
      true,
    ],
    [
      "404-02 where it may not",
      {
        method: "PUT",
        path: "/v0/uploads/x",
        answer: answer(404, "application/problem+json", problem(404, "404-02", "/v0/uploads/x")),
      },
      false,
    ],
  ];

  it.each(cases)("%s", (_name, { method, path, answer: given, pathMayMiss }, conforms) => {
    const found = violationsOf({ method, pathname: path, pathMayMiss: pathMayMiss ?? false }, given);
    if (conforms) expect(found).toEqual([]);
    else expect(found.length).toBeGreaterThan(0);
  });
});
