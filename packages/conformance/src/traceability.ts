// The link between spec/TRACEABILITY.md and the suite: which properties check each row, and why the rows no
// property checks cannot be checked. The table's "Conformance test" column is rendered from this; a test keeps
// the two in step.
import { readFileSync } from "node:fs";
import { allProperties } from "./properties/index.js";
import type { Property } from "./property.js";
import { traceabilityFile } from "./spec-files.js";

/** Rows no property checks, and why. */
export const UNTESTED: Record<string, string> = {
  R061: "a slow upload that started in time must not be cut off; proving it takes minutes of real transfer time, beyond a property run",
  R104: "installing the operator's certificates is done on the client's machine, not observable through the interface",
  R108: "describes the registry's test stubs, which accept any Authorization value; the gateway checks credentials instead (auth.refused-credentials)",
  R110: "pull only is the absence of push delivery; there is nothing to call",
  R150: "a label in the documentation, not a behaviour",
  R152: "the registry's environment addresses are placeholders of the requirement",
  R154: "a fact about the registry's environments",
};

/** One row of the table. */
export interface TraceabilityRow {
  id: string;
  /** The whole line as written. */
  line: string;
  /** The Conformance test column. */
  conformance: string;
}

/** Reads the rows of spec/TRACEABILITY.md. */
export function readTraceability(file = traceabilityFile()): { text: string; rows: TraceabilityRow[] } {
  const text = readFileSync(file, "utf8");
  const rows = text
    .split("\n")
    .filter((line) => /^\| R\d{3} \|/.test(line))
    .map((line) => {
      const cells = line.split(" | ");
      return {
        id: String(/^\| (R\d{3})/.exec(line)?.[1]),
        line,
        conformance: String(cells[cells.length - 1])
          .replace(/ \|$/, "")
          .trim(),
      };
    });
  return { text, rows };
}

/** The properties that name each row. */
export function propertiesByRow(properties: readonly Property[] = allProperties): Map<string, Property[]> {
  const byRow = new Map<string, Property[]>();
  for (const property of properties)
    for (const row of property.rows) byRow.set(row, [...(byRow.get(row) ?? []), property]);
  return byRow;
}

/** What the Conformance test column of a row says: the properties that check it, or why none does. */
export function conformanceCell(row: string, byRow = propertiesByRow()): string {
  const properties = byRow.get(row);
  if (properties && properties.length > 0) return properties.map((p) => `\`${p.id}\``).join(", ");
  const why = UNTESTED[row];
  return why ? `untested: ${why}` : "pending";
}

/** The table with its Conformance test column rendered from the suite. */
export function renderTraceability(text: string, byRow = propertiesByRow()): string {
  return text
    .split("\n")
    .map((line) => {
      const match = /^\| (R\d{3}) \|/.exec(line);
      if (!match) return line;
      const cells = line.replace(/ \|$/, "").split(" | ");
      cells[cells.length - 1] = conformanceCell(String(match[1]), byRow);
      return `${cells.join(" | ")} |`;
    })
    .join("\n");
}
