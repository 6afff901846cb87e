// The state machine picture as geometry: every status placed once, every transition drawn and labelled, and no
// label over a box or another label, for the spec's machine and for machines it may grow into.
import { describe, expect, it } from "vitest";
import {
  layoutStateMachine,
  renderStateMachineSvg,
  specStateMachine,
  wrap,
  type StateMachine,
  type StateMachineLayout,
} from "../src/state-machine.js";

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlap = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function expectReadable(machine: StateMachine, layout: StateMachineLayout): void {
  expect(layout.nodes.map((node) => node.status).sort()).toEqual([...machine.statuses].sort());
  expect(layout.edges).toHaveLength(machine.transitions.length);
  const boxes: Box[] = layout.nodes;
  for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBe(false);
  for (const edge of layout.edges) {
    const where = `${edge.transition.from} → ${edge.transition.to}`;
    for (const node of layout.nodes)
      expect(overlap(edge.label, node), `${where} label over ${node.status}`).toBe(false);
    for (const other of layout.edges) {
      if (other !== edge) expect(overlap(edge.label, other.label), `${where} label over another`).toBe(false);
    }
    for (const box of [edge.label, ...layout.nodes]) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(layout.width);
      expect(box.y + box.height).toBeLessThanOrEqual(layout.height);
    }
    expect(edge.path).toMatch(/^M [\d.-]+ [\d.-]+ C /);
  }
}

describe("the spec's state machine", () => {
  const machine = specStateMachine;
  const layout = layoutStateMachine(machine);

  it("places every status and draws every transition without overlaps", () => {
    expectReadable(machine, layout);
  });

  it("starts at VALIDATING and ends in the final statuses", () => {
    expect(layout.nodes.filter((node) => node.initial).map((node) => node.status)).toEqual(["VALIDATING"]);
    expect(
      layout.nodes
        .filter((node) => node.terminal)
        .map((node) => node.status)
        .sort(),
    ).toEqual(["CANCELLED", "COMPLETED", "SYSTEM_ERROR", "VALIDATION_FAILED"]);
  });

  it("puts each status below the statuses it is reached from", () => {
    const y = new Map(layout.nodes.map((node) => [node.status, node.y]));
    for (const t of machine.transitions) expect(y.get(t.to) ?? 0).toBeGreaterThan(y.get(t.from) ?? 0);
  });

  it("labels each arrow with its trigger and version 1 notification", () => {
    const svg = renderStateMachineSvg(machine, layout);
    for (const t of machine.transitions) {
      const label = layout.edges.find((edge) => edge.transition === t)?.label;
      expect(
        label?.lines
          .filter((line) => line.kind === "trigger")
          .map((line) => line.text)
          .join(" "),
      ).toBe(t.trigger);
      expect(
        label?.lines
          .filter((line) => line.kind === "notification")
          .map((line) => line.text)
          .join(""),
      ).toBe(t.notifications.v1);
      expect(svg).toContain(`data-from="${t.from}" data-to="${t.to}" data-notification="${t.notifications.v1}"`);
    }
    expect(svg.match(/<g class="sm-node[^"]*" data-status=/g)).toHaveLength(machine.statuses.length);
  });

  it("draws the same picture every time", () => {
    expect(renderStateMachineSvg(machine)).toBe(renderStateMachineSvg(machine));
  });
});

describe("machines the list may grow into", () => {
  const transition = (from: string, to: string, source = "design"): StateMachine["transitions"][number] => ({
    from,
    to,
    trigger: `from ${from.toLowerCase()} to ${to.toLowerCase()}`,
    source,
    notifications: { v1: `application.${to.toLowerCase()}` },
  });

  it("draws a move back to an earlier status as an arc beside the rows", () => {
    const machine: StateMachine = {
      statuses: ["A", "B", "C"],
      transitions: [transition("A", "B"), transition("B", "C"), transition("C", "A")],
    };
    const layout = layoutStateMachine(machine);
    expect(layout.edges.filter((edge) => edge.back).map((edge) => edge.transition.to)).toEqual(["A"]);
    expectReadable(machine, layout);
  });

  it("keeps a status that no transition reaches", () => {
    const machine: StateMachine = { statuses: ["A", "B", "LONELY"], transitions: [transition("A", "B")] };
    const layout = layoutStateMachine(machine);
    expectReadable(machine, layout);
    expect(layout.nodes.find((node) => node.status === "LONELY")?.initial).toBe(false);
  });

  it("routes long edges through free slots of the rows they cross", () => {
    const machine: StateMachine = {
      statuses: ["A", "B", "C", "D"],
      transitions: [transition("A", "B"), transition("B", "C"), transition("C", "D"), transition("A", "D")],
    };
    expectReadable(machine, layoutStateMachine(machine));
  });
});

describe("wrap", () => {
  it.each([
    [
      "short text stays on one line",
      { given: ["validation finds errors", 26, " "], want: ["validation finds errors"] },
    ],
    [
      "prose breaks at spaces",
      {
        given: ["validation passes while the day list is closed", 26, " "],
        want: ["validation passes while", "the day list is closed"],
      },
    ],
    [
      "dotted names break after a dot",
      {
        given: ["application.accepted-priority-protected", 26, "."],
        want: ["application.", "accepted-priority-protected"],
      },
    ],
    [
      "a word longer than the width is kept whole",
      { given: ["supercalifragilistic", 5, " "], want: ["supercalifragilistic"] },
    ],
  ] as const)("%s", (_, { given, want }) => {
    expect(wrap(given[0], given[1], given[2])).toEqual(want);
  });
});
