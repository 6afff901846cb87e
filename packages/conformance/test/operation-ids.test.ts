// What the suite knows about an operation comes from the spec (`x-lrg-*`, its parameters, examples and answers):
// no operationId is written in the suite's sources, so a new operation is covered with no edit here. Each source file
// is parsed as TypeScript (comments left out): an operationId may stand in no string, template or object key.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { operations } from "@lrg/spec";

const SOURCES = join(import.meta.dirname, "..", "src");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The operationIds written in a source text, with their lines: in string literals, template parts and keys. */
export function operationIdsIn(text: string, ids: ReadonlySet<string>): { id: string; line: number }[] {
  const source = ts.createSourceFile("source.ts", text, ts.ScriptTarget.Latest, true);
  const found: { id: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    // Strings and templates, and the keys of object literals (a table keyed by operationId); a function that
    // happens to share an operation's name (`advanceClock`) names no operation.
    const key = ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) ? node.name.text : undefined;
    const written = ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) ? node.text : key;
    for (const word of written?.match(/[A-Za-z_$][\w$]*/g) ?? []) {
      if (ids.has(word))
        found.push({ id: word, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

describe("operation knowledge comes from the spec", () => {
  const ids = new Set(operations.map((o) => o.operationId));

  it("finds an operationId wherever a source writes one, and not in comments", () => {
    const [some, other] = [...ids];
    const text = [
      `// ${some} in a comment`,
      `const a = "${some}";`,
      `const b = \`\${x} ${other}\`;`,
      `const c = { ${some}: 1 };`,
      `function ${other}() {}`,
      `/* ${other} */ const d = '${some}-ish';`,
    ].join("\n");
    expect(operationIdsIn(text, ids)).toEqual([
      { id: some, line: 2 },
      { id: other, line: 3 },
      { id: some, line: 4 },
      { id: some, line: 6 },
    ]);
  });

  it("writes no operationId in packages/conformance/src", () => {
    expect(ids.size).toBeGreaterThan(0);
    const written = sourceFiles(SOURCES).flatMap((file) =>
      operationIdsIn(readFileSync(file, "utf8"), ids).map(({ id, line }) => `${relative(SOURCES, file)}:${line} ${id}`),
    );
    expect(written).toEqual([]);
  });
});
