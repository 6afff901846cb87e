import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openapi, operationsOf, problemCatalogue, sandbox, type SpecNode } from "@lrg/spec";
import { Problem } from "../src/problems.js";

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every problem code that appears in a problem+json example of either document. */
function documentedCodes(): Set<string> {
  const codes = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node && typeof node === "object") {
      const record = node as SpecNode;
      const problem = (record["content"] as SpecNode | undefined)?.["application/problem+json"] as SpecNode | undefined;
      for (const example of Object.values((problem?.["examples"] ?? {}) as Record<string, SpecNode>)) {
        codes.add(String((example["value"] as SpecNode)["code"]));
      }
      Object.values(record).forEach(visit);
    }
  };
  visit(openapi["paths"]);
  visit(sandbox["paths"]);
  for (const code of envelopeDocumentedCodes()) codes.add(code);
  return codes;
}

/**
 * The problem codes documented through the registry's envelopes: an operation with `x-lrg-error-envelope` shows a
 * code in an example either as it is, or as the registry's code it maps to; a registry rule code (`bg.…`) shows a
 * problem that carries its rule (422-01).
 */
function envelopeDocumentedCodes(): Set<string> {
  const codes = new Set<string>();
  for (const { operation } of operationsOf("registry")) {
    const envelope = operation["x-lrg-error-envelope"] as { codes?: Record<string, string> } | undefined;
    if (!envelope) continue;
    const shown = new Set<string>();
    for (const response of Object.values(operation["responses"] as Record<string, SpecNode>)) {
      const media = (response["content"] as Record<string, SpecNode> | undefined)?.["application/json"];
      for (const example of Object.values((media?.["examples"] ?? {}) as Record<string, SpecNode>)) {
        for (const item of ((example["value"] as SpecNode)["errors"] ?? []) as SpecNode[])
          shown.add(String(item["code"] ?? item["error_code"] ?? item["type"]));
      }
    }
    for (const code of shown) codes.add(code);
    for (const [code, registryCode] of Object.entries(envelope.codes ?? {}))
      if (shown.has(registryCode)) codes.add(code);
    if ([...shown].some((code) => code.startsWith("bg."))) codes.add("422-01");
  }
  return codes;
}

describe("the error registry", () => {
  const used = new Set(
    sources(join(import.meta.dirname, "..", "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/new Problem\("(\d{3}-\d{2})"/g)].map((m) => String(m[1])),
    ),
  );

  it("uses codes at all", () => {
    expect(used.size).toBeGreaterThan(8);
  });

  it.each([...used].sort())(
    "code %s used by the gateway is in the spec's catalogue and shown in a documented example",
    (code) => {
      expect((problemCatalogue as Record<string, unknown>)[code], `${code} in x-lrg-problem-codes`).toBeDefined();
      if (code !== "500-01" && code !== "404-02")
        expect(documentedCodes().has(code), `${code} has a problem example in the spec`).toBe(true);
    },
  );

  it("takes status and title from the catalogue", () => {
    const problem = new Problem("409-01", "reused");
    expect(problem.body("/v0/applications")).toEqual({
      type: "https://land-registration-gateway.example/problems/409-01",
      title: problemCatalogue["409-01"]?.title,
      status: 409,
      detail: "reused",
      instance: "/v0/applications",
      code: "409-01",
    });
    // A code outside the catalogue is a type error (the generated union); at run time it still fails loudly.
    // @ts-expect-error 499-99 is not in the catalogue
    expect(() => new Problem("499-99", "not catalogued")).toThrow(/catalogue/);
  });
});
