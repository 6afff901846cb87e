// Every example of both documents validates against its schema (JSON Schema 2020-12), and every problem
// example agrees with the response it illustrates and with the catalogue of problem codes.
import { describe, expect, it } from "vitest";
import { createValidator } from "../src/check.js";
import { documents, operationsOf, problemCatalogue, type Json, type JsonObject } from "../src/index.js";

interface ExampleCase {
  where: string;
  schema: Json;
  value: Json;
  status?: string;
  mediaType: string;
}

/** The examples of one document, named by its file (openapi, sandbox). */
function examplesOf(document: "openapi" | "sandbox"): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const fromMedia = (where: string, content: JsonObject | undefined, status?: string) => {
    for (const [mediaType, media] of Object.entries(content ?? {}) as [string, JsonObject][]) {
      const examples = (media["examples"] ?? {}) as Record<string, JsonObject>;
      for (const [name, example] of Object.entries(examples)) {
        cases.push({
          where: `${where} ${mediaType} ${name}`,
          schema: media["schema"] ?? {},
          value: example["value"] ?? null,
          mediaType,
          ...(status ? { status } : {}),
        });
      }
      if (media["example"] !== undefined) {
        cases.push({
          where: `${where} ${mediaType} example`,
          schema: media["schema"] ?? {},
          value: media["example"],
          mediaType,
          ...(status ? { status } : {}),
        });
      }
    }
  };
  for (const { path, method, operation: spec } of operationsOf(document === "openapi" ? "registry" : document)) {
    const operation = spec as JsonObject;
    const at = `${document} ${method.toUpperCase()} ${path}`;
    for (const parameter of (operation["parameters"] ?? []) as JsonObject[]) {
      const where = `${at} parameter ${String(parameter["name"])}`;
      if (parameter["example"] !== undefined)
        cases.push({ where, schema: parameter["schema"] ?? {}, value: parameter["example"], mediaType: "parameter" });
      for (const [name, example] of Object.entries((parameter["examples"] ?? {}) as Record<string, JsonObject>)) {
        cases.push({
          where: `${where} ${name}`,
          schema: parameter["schema"] ?? {},
          value: example["value"] ?? null,
          mediaType: "parameter",
        });
      }
    }
    fromMedia(
      `${at} request`,
      (operation["requestBody"] as JsonObject | undefined)?.["content"] as JsonObject | undefined,
    );
    for (const [status, response] of Object.entries(operation["responses"] as Record<string, JsonObject>)) {
      fromMedia(`${at} ${status}`, response["content"] as JsonObject | undefined, status);
      for (const [name, header] of Object.entries((response["headers"] ?? {}) as Record<string, JsonObject>)) {
        if (header["example"] !== undefined) {
          cases.push({
            where: `${at} ${status} header ${name}`,
            schema: header["schema"] ?? {},
            value: header["example"],
            mediaType: "header",
          });
        }
      }
    }
  }
  return cases;
}

const problemCodes: Record<string, { status: number }> = problemCatalogue;

describe.each(["openapi", "sandbox"] as const)("examples of %s", (document) => {
  const cases = examplesOf(document);
  const ajv = createValidator();

  it("has examples at all", () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it.each(cases.map((c) => [c.where, c] as const))("%s validates against its schema", (_where, c) => {
    const validate = ajv.compile(c.schema as object);
    const valid = validate(c.value);
    expect(validate.errors ?? [], JSON.stringify(c.value)).toEqual([]);
    expect(valid).toBe(true);
  });

  const problems = cases.filter((c) => c.mediaType === "application/problem+json");
  it.each(problems.map((c) => [c.where, c] as const))(
    "%s agrees with its status and the code catalogue",
    (_where, c) => {
      const value = c.value as JsonObject;
      expect(String(value["status"])).toBe(c.status);
      const entry = problemCodes[String(value["code"])];
      expect(entry, `code ${String(value["code"])} is in x-lrg-problem-codes`).toBeDefined();
      expect(String(entry?.status)).toBe(c.status);
    },
  );
});

describe("component schema examples", () => {
  const ajv = createValidator();
  const spec = documents.registry as JsonObject;
  const schemas = (spec["components"] as JsonObject)["schemas"] as Record<string, JsonObject>;
  const withExample = Object.entries(schemas).filter(([, schema]) => schema["example"] !== undefined);
  it.each(withExample)("%s example validates", (_name, schema) => {
    const validate = ajv.compile(schema);
    expect(validate(schema["example"]), JSON.stringify(validate.errors)).toBe(true);
  });
});
