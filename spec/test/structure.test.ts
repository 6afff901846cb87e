// The shape every operation and schema must have: ids, summaries, provenance, documented problem answers,
// and documented extensions.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import {
  documents as specDocuments,
  operations as specOperations,
  PERSONAL_DATA_PATHS,
  type Json,
  type JsonObject,
} from "../src/index.js";

// Named by their files (openapi.yaml, sandbox.yaml), as the tests' names have them.
const documents = { openapi: specDocuments.registry as JsonObject, sandbox: specDocuments.sandbox as JsonObject };
const operations = specOperations.map(({ document, path, method, operation }) => ({
  document: document === "registry" ? "openapi" : document,
  path,
  method,
  operation: operation as JsonObject,
}));

/** Walks a JSON value depth first, calling `visit` with each object. */
function walk(value: Json, visit: (node: JsonObject) => void): void {
  if (Array.isArray(value)) value.forEach((item) => walk(item, visit));
  else if (value !== null && typeof value === "object") {
    visit(value);
    Object.values(value).forEach((child) => walk(child, visit));
  }
}
const SOURCES = ["seed", "public-reference", "design"];

/** The registry's error envelope an operation answers in (`x-lrg-error-envelope`), if any. */
function errorEnvelopeOf(operation: JsonObject): { schema: string; codes?: Record<string, string> } | undefined {
  return operation["x-lrg-error-envelope"] as { schema: string; codes?: Record<string, string> } | undefined;
}

describe("operations", () => {
  it("are all there: every path of the requirement plus submit and poll", () => {
    const paths = Object.keys(documents.openapi["paths"] as object);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/api/v1/official-searches-of-whole",
        "/s1/v1/titles/{title_number}/official-copies/availability",
        "/s2/v1/titles/{title_number}/registered-proprietor-names",
        "/v0/applications",
        "/v0/applications/{id}/information",
        "/v1/applications/{id}/attachments",
        "/v1/applications/{id}/messages",
        "/v0/documents/url",
        "/v1/documents/{download_id}",
        "/v0/notifications",
        "/v0/notifications/acknowledge",
        "/v1/notifications",
        "/v1/notifications/acknowledge",
      ]),
    );
    expect(paths.some((path) => path.startsWith("/api/v1/poll-requests/"))).toBe(true);
  });

  it("of the sandbox are the contract routes of the design", () => {
    const routes = operations.filter((o) => o.document === "sandbox").map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        "POST /sandbox/v1/business-units",
        "GET /sandbox/v1/clock",
        "PUT /sandbox/v1/clock",
        "POST /sandbox/v1/clock/advance",
        "PUT /sandbox/v1/day-list",
        "POST /sandbox/v1/applications/{id}/transitions",
        "POST /sandbox/v1/applications/{id}/correspondence",
        "GET /sandbox/v1/settings",
        "PUT /sandbox/v1/settings",
        "POST /sandbox/v1/reset",
      ]),
    );
  });

  it.each(operations.map((o) => [`${o.document} ${o.method.toUpperCase()} ${o.path}`, o.operation] as const))(
    "%s has an operationId, a summary, x-lrg-source and a documented 4xx error answer in its shape",
    (_name, operation) => {
      expect(operation["operationId"]).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(String(operation["summary"]).length).toBeGreaterThan(5);
      expect(SOURCES).toContain(operation["x-lrg-source"]);
      const responses = operation["responses"] as Record<string, JsonObject>;
      const mediaType = errorEnvelopeOf(operation) ? "application/json" : "application/problem+json";
      const problems = Object.entries(responses).filter(([status, response]) => {
        const content = (response["content"] ?? {}) as JsonObject;
        return /^4\d\d$/.test(status) && content[mediaType] !== undefined;
      });
      expect(problems.length).toBeGreaterThan(0);
    },
  );

  it("have unique operationIds across both documents", () => {
    const ids = operations.map((o) => o.operation["operationId"]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answer every error as application/problem+json, or only in the registry's envelope that x-lrg-error-envelope names", () => {
    const schemas = (documents.openapi["components"] as { schemas: Record<string, JsonObject> }).schemas;
    const offenders = operations.flatMap(({ document, path, method, operation }) => {
      const envelope = errorEnvelopeOf(operation);
      const expected = envelope ? { "application/json": { schema: schemas[envelope.schema] } } : undefined;
      return Object.entries(operation["responses"] as Record<string, JsonObject>)
        .filter(([status]) => /^[45]\d\d$/.test(status))
        .filter(([, response]) => {
          const content = (response["content"] ?? {}) as Record<string, JsonObject>;
          if (!expected) return content["application/problem+json"] === undefined;
          return (
            Object.keys(content).join() !== "application/json" ||
            !isDeepStrictEqual(content["application/json"]?.["schema"], expected["application/json"].schema)
          );
        })
        .map(([status]) => `${document} ${method} ${path} ${status}`);
    });
    expect(offenders).toEqual([]);
  });

  it("with an error envelope name one of the registry's envelope schemas and map problem codes of the catalogue", () => {
    const catalogue = documents.openapi["x-lrg-problem-codes"] as JsonObject;
    const enveloped = operations.flatMap(({ operation }) => {
      const envelope = errorEnvelopeOf(operation);
      return envelope ? [envelope] : [];
    });
    expect(enveloped.length).toBe(6);
    for (const envelope of enveloped) {
      expect(["RegistryErrors", "RegistryErrorCodes", "AttachErrors"]).toContain(envelope.schema);
      for (const code of Object.keys(envelope.codes ?? {})) expect(catalogue[code], code).toBeDefined();
    }
  });
});

describe("component schemas", () => {
  it.each(Object.entries(documents))("of %s all carry x-lrg-source", (_name, spec) => {
    const schemas = ((spec["components"] as JsonObject)["schemas"] ?? {}) as Record<string, JsonObject>;
    const missing = Object.entries(schemas)
      .filter(([, schema]) => !SOURCES.includes(String(schema["x-lrg-source"])))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });
});

describe("extensions", () => {
  it("every operation carries x-lrg-scope", () => {
    const missing = operations
      .filter((o) => !["business-unit", "registry"].includes(String(o.operation["x-lrg-scope"])))
      .map((o) => `${o.method} ${o.path}`);
    expect(missing).toEqual([]);
  });

  it("every signed address names an operation that issues it, with a runtime expression", () => {
    const ids = new Set(specOperations.map((o) => o.operationId));
    for (const { operation } of operations) {
      const signed = operation["x-lrg-signed-address"] as JsonObject | undefined;
      if (signed === undefined) continue;
      expect(ids.has(String(signed["issued-by"]))).toBe(true);
      expect(String(signed["address"])).toMatch(/^\$response\.(body#\/|header\.)/);
      expect(operation["security"]).toEqual([]);
    }
  });

  it("every member marked x-lrg-personal-data (with true) is reached by PERSONAL_DATA_PATHS", () => {
    // Member names of the component schemas' marked properties, at any depth.
    const marked = new Set<string>();
    const walk = (node: Json | undefined, name: string | undefined): void => {
      if (node === null || typeof node !== "object") return;
      if (Array.isArray(node)) return node.forEach((item) => walk(item, name));
      if ("x-lrg-personal-data" in node) {
        expect(node["x-lrg-personal-data"], `${name}: x-lrg-personal-data`).toBe(true);
        if (name !== undefined) marked.add(name);
      }
      for (const [key, value] of Object.entries(node)) {
        if (key === "properties" && value !== null && typeof value === "object" && !Array.isArray(value))
          for (const [member, schema] of Object.entries(value)) walk(schema, member);
        else if (key === "additionalProperties") walk(value, name === undefined ? undefined : `${name}.*`);
        else walk(value, name);
      }
    };
    for (const document of Object.values(documents)) walk((document["components"] as JsonObject)["schemas"], undefined);
    const reached = new Set(PERSONAL_DATA_PATHS.map((path) => path.at(-1)));
    expect(marked.size).toBeGreaterThan(0);
    expect([...marked].map((name) => name.replace(/^.*\.\*$/, "*")).filter((name) => !reached.has(name))).toEqual([]);
  });

  const documented = readFileSync(join(import.meta.dirname, "..", "extensions.md"), "utf8");
  it("every x- extension used in either document is documented in extensions.md", () => {
    const used = new Set<string>();
    for (const spec of Object.values(documents)) {
      walk(spec, (node) =>
        Object.keys(node)
          .filter((key) => key.startsWith("x-"))
          .forEach((key) => used.add(key)),
      );
    }
    // Members of the problem code catalogue are codes, not extensions.
    const undocumented = [...used].filter((key) => !documented.includes(`\`${key}\``));
    expect(used.size).toBeGreaterThan(0);
    expect(undocumented).toEqual([]);
  });
});

describe("problem code catalogue", () => {
  const catalogue = documents.openapi["x-lrg-problem-codes"] as Record<string, JsonObject>;
  it.each(Object.entries(catalogue))("%s is well formed", (code, entry) => {
    expect(code).toMatch(/^\d{3}-\d{2}$/);
    expect(String(entry["status"])).toBe(code.slice(0, 3));
    expect(String(entry["title"]).length).toBeGreaterThan(2);
    expect(String(entry["when"]).length).toBeGreaterThan(10);
    expect(SOURCES).toContain(entry["x-lrg-source"]);
  });

  it("is the same in the sandbox document", () => {
    expect(documents.sandbox["x-lrg-problem-codes"]).toEqual(catalogue);
  });

  it("holds the requirement's own code for the date-ordering error", () => {
    expect(catalogue["400-01"]?.["status"]).toBe(400);
  });
});
