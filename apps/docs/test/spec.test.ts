// What the docs read from the bundled spec, through @lrg/spec.
import { describe, expect, it } from "vitest";
import { APPLICATION_STATUSES, operationsOf, SCENARIO_TITLES_TABLE } from "@lrg/spec";
import { referenceAnchor } from "../src/build.js";
import { specStateMachine } from "../src/state-machine.js";

describe("the spec's state machine", () => {
  it("reads the statuses and transitions of ApplicationStatus", () => {
    const machine = specStateMachine;
    expect(machine.statuses).toContain("VALIDATING");
    expect(machine.transitions.length).toBeGreaterThan(0);
    expect(machine.transitions).toContainEqual(
      expect.objectContaining({
        from: "ACCEPTED_AWAITING_PRIORITY",
        to: "ACCEPTED_PRIORITY_PROTECTED",
        source: "seed",
      }),
    );
  });

  it("moves only between statuses the enum has", () => {
    for (const transition of specStateMachine.transitions) {
      expect(APPLICATION_STATUSES).toContain(transition.from);
      expect(APPLICATION_STATUSES).toContain(transition.to);
    }
  });
});

describe("the scenario titles table", () => {
  it("is the Markdown table of the official search's description", () => {
    const table = SCENARIO_TITLES_TABLE.split("\n");
    expect(table[0]).toMatch(/^\| Title \|/);
    expect(table[1]).toMatch(/^\|-/);
    expect(table.some((row) => row.startsWith("| ZZ100001 |"))).toBe(true);
    expect(table.every((row) => row.startsWith("|"))).toBe(true);
  });
});

describe("operations and referenceAnchor", () => {
  it("lists every operation with a tag, and links to Redoc's hash route", () => {
    const operations = operationsOf("registry");
    expect(operations.length).toBeGreaterThanOrEqual(14);
    const upload = operations.find((operation) => operation.operationId === "createUploadUrl");
    expect(upload && referenceAnchor(upload)).toBe("#/documents/createuploadurl");
  });
});
