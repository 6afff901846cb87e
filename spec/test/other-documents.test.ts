// Reading another version of the registry interface than the built one (`lrg drift --spec`): the bundle with its
// references is read into the same operations as the dereferenced bundle, and the matcher finds them by path.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bundled } from "../src/artifacts.js";
import { dereference, operationMatcher, operationsOf, readOperations, type SpecNode } from "../src/index.js";

const bundle = JSON.parse(readFileSync(bundled("openapi.json"), "utf8")) as SpecNode;

describe("reading another document", () => {
  it("reads the bundle with its $refs into the operations of the dereferenced one", () => {
    const read = readOperations(dereference(bundle), "registry");
    const built = operationsOf("registry");
    expect(read.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual(
      built.map((o) => `${o.method} ${o.path} ${o.operationId}`),
    );
    expect(read.map((o) => [...o.responses.keys()])).toEqual(built.map((o) => [...o.responses.keys()]));
    const schemas = (operations: typeof read) =>
      JSON.stringify(
        operations.map((o) => [
          o.parameters.map((p) => p.schema),
          [...(o.requestBody?.content ?? [])],
          [...o.responses].map(([status, response]) => [status, [...response.content], [...response.headers]]),
        ]),
      );
    expect(schemas(read)).toEqual(schemas(built));
  });

  it("finds an operation by method and path, aliases included, and nothing elsewhere", () => {
    const match = operationMatcher(readOperations(dereference(bundle), "registry"));
    expect(match("GET", "/v1/notifications?limit=5")?.path).toBe("/v1/notifications");
    expect(match("GET", "/api/v1/notifications")?.path).toBe("/v1/notifications");
    expect(match("HEAD", "/v0/applications/abc/information")?.path).toBe("/v0/applications/{id}/information");
    expect(match("DELETE", "/v1/notifications")).toBeUndefined();
    expect(match("GET", "/v1/notification-feeds")).toBeUndefined();
  });

  it("refuses a reference that points nowhere, or to itself", () => {
    expect(() => dereference({ a: { $ref: "#/components/schemas/Nope" } })).toThrow(/points nowhere/);
    expect(() => dereference({ components: { schemas: { A: { $ref: "#/components/schemas/A" } } } })).toThrow(
      /refers to itself/,
    );
    const shared = dereference({ x: { $ref: "#/c" }, y: { $ref: "#/c" }, c: { type: "string" } });
    expect(shared["x"]).toBe(shared["y"]);
  });
});
