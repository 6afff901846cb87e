// Every row of spec/TRACEABILITY.md is checked by a property that names it, or says why it cannot be; the
// table's Conformance test column says the same as the suite.
import { describe, expect, it } from "vitest";
import { allProperties } from "../src/properties/index.js";
import {
  conformanceCell,
  propertiesByRow,
  readTraceability,
  renderTraceability,
  UNTESTED,
} from "../src/traceability.js";

const { text, rows } = readTraceability();
const byRow = propertiesByRow();
const ids = new Set(rows.map((row) => row.id));

describe("traceability", () => {
  it("reads the 154 rows of the table", () => {
    expect(rows.length).toBeGreaterThanOrEqual(154);
    expect(ids.size).toBe(rows.length);
  });

  it.each(rows.map((row) => [row.id, row] as const))(
    "[%s] is checked by a property or says why it is not",
    (id, row) => {
      const named = byRow.get(id) ?? [];
      const untested = /^untested: \S/.test(row.conformance);
      expect(named.length > 0 || untested, `${id}: no property names it and the table gives no "untested: <why>"`).toBe(
        true,
      );
      expect(
        row.conformance,
        `${id}: the Conformance test column is out of step with the suite (run scripts/update-traceability.mjs)`,
      ).toBe(conformanceCell(id, byRow));
    },
  );

  it("names only rows that exist, and gives no reason for a row a property checks", () => {
    for (const property of allProperties)
      for (const row of property.rows) expect(ids.has(row), `${property.id} names ${row}`).toBe(true);
    for (const row of Object.keys(UNTESTED))
      expect(
        byRow.has(row),
        `${row} is checked by ${byRow
          .get(row)
          ?.map((p) => p.id)
          .join(", ")} yet listed as untested`,
      ).toBe(false);
  });

  it("changes nothing but the Conformance test column when rendered", () => {
    const strip = (table: string) =>
      table.split("\n").map((line) => (/^\| R\d{3} \|/.test(line) ? line.replace(/ \| [^|]*\|$/, "") : line));
    expect(strip(renderTraceability(text, byRow))).toEqual(strip(text));
  });
});
