// Facts about the gateway's own sources, read as TypeScript: its import graph has no cycle (each module can be read,
// and tested, after those it imports).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SOURCES = join(import.meta.dirname, "..", "src");

/** Every TypeScript file under `folder`. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * The relative modules a source text imports (`import`, `export ... from`, `import()`, type-only ones included),
 * resolved against `file` as `.ts` files.
 */
export function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined;
    if (specifier && ts.isStringLiteralLike(specifier)) specifiers.push(specifier.text);
    node.forEachChild(visit);
  };
  visit(source);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
}

/** The cycles of a graph (each once, as the path that closes it), by depth-first search. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (node: string): void => {
    if (onPath.has(node)) {
      cycles.push([...path.slice(path.indexOf(node)), node]);
      return;
    }
    if (done.has(node)) return;
    path.push(node);
    onPath.add(node);
    for (const next of graph.get(node) ?? []) visit(next);
    onPath.delete(node);
    path.pop();
    done.add(node);
  };
  for (const node of graph.keys()) visit(node);
  return cycles;
}

describe("the gateway's sources", () => {
  it("finds every kind of import, and a cycle wherever one closes", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'export { c } from "./c/index.js";',
      'const d = await import("./d.js");',
      'import Fastify from "fastify";',
      '// import { e } from "./e.js";',
    ].join("\n");
    expect(importsOf("/src/x/file.ts", text)).toEqual(["/src/x/a.ts", "/src/b.ts", "/src/x/c/index.ts", "/src/x/d.ts"]);
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c", "d"]],
      ["c", ["a"]],
      ["d", []],
    ]);
    expect(cyclesOf(graph)).toEqual([["a", "b", "c", "a"]]);
    expect(cyclesOf(new Map([...graph, ["c", []]]))).toEqual([]);
  });

  it("import one another without a cycle", () => {
    const files = sourceFiles(SOURCES);
    expect(files.length).toBeGreaterThan(50);
    const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(file, "utf8"))]));
    const cycles = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(SOURCES, file)).join(" → "));
    expect(cycles).toEqual([]);
  });
});
