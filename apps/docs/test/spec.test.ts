// What the docs read from the bundled spec.
import { describe, expect, it } from "vitest";
import { loadSpecJson, operationsOf, referenceAnchor, scenarioTitlesTable, stateMachineOf, type JsonObject } from "../src/spec.js";

const openapi = loadSpecJson("openapi.json");

describe("stateMachineOf", () => {
  it("reads the statuses and transitions of ApplicationStatus", () => {
    const machine = stateMachineOf(openapi);
    expect(machine.statuses).toContain("VALIDATING");
    expect(machine.transitions.length).toBeGreaterThan(0);
    expect(machine.transitions).toContainEqual(
      expect.objectContaining({ from: "ACCEPTED_AWAITING_PRIORITY", to: "ACCEPTED_PRIORITY_PROTECTED", source: "seed" }),
    );
  });

  it("refuses a transition to a status the enum does not have", () => {
    const broken = structuredClone(openapi) as JsonObject;
    const status = ((broken["components"] as JsonObject)["schemas"] as JsonObject)["ApplicationStatus"] as JsonObject;
    status["x-lrg-transitions"] = [{ from: "VALIDATING", to: "ARCHIVED", trigger: "t", source: "design", notifications: { v1: "x" } }];
    expect(() => stateMachineOf(broken)).toThrow(/ARCHIVED/);
  });
});

describe("scenarioTitlesTable", () => {
  it("is the Markdown table of the official search's description", () => {
    const table = scenarioTitlesTable(openapi).split("\n");
    expect(table[0]).toMatch(/^\| Title \|/);
    expect(table[1]).toMatch(/^\|-/);
    expect(table.some((row) => row.startsWith("| ZZ100001 |"))).toBe(true);
    expect(table.every((row) => row.startsWith("|"))).toBe(true);
  });
});

describe("operationsOf and referenceAnchor", () => {
  it("lists every operation with a tag, and links to Redoc's hash route", () => {
    const operations = operationsOf(openapi);
    expect(operations.length).toBeGreaterThanOrEqual(14);
    const upload = operations.find((operation) => operation.operationId === "createUploadUrl");
    expect(upload && referenceAnchor(upload)).toBe("#/documents/createuploadurl");
  });
});
