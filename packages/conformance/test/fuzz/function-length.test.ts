// The fuzzer stays in small pieces: no function of src/fuzz (closures included) runs over 80 lines, so that each
// piece can be read and tested on its own.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const FUZZER = join(import.meta.dirname, "..", "..", "src", "fuzz");
const MAX_LINES = 80;

/** Every function in a source text longer than `max` lines, as `name:line (lines)`. */
function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText(source) ?? "(anonymous)";
      if (last - first + 1 > max) found.push(`${file}: ${name} at line ${first + 1} (${last - first + 1} lines)`);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

describe("the fuzzer's functions", () => {
  it("finds a long function, a closure too", () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    expect(longFunctions("x.ts", `function long() {\n${body}\n}\nconst short = () => 1;`, 6)).toEqual([
      "x.ts: long at line 1 (7 lines)",
    ]);
    expect(longFunctions("x.ts", `const f = () => {\n${body}\n};`, 6)).toEqual([
      "x.ts: (anonymous) at line 1 (7 lines)",
    ]);
  });

  it(`are none over ${MAX_LINES} lines`, () => {
    const files = readdirSync(FUZZER).filter((name) => name.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((name) => longFunctions(name, readFileSync(join(FUZZER, name), "utf8"), MAX_LINES))).toEqual(
      [],
    );
  });
});
