// Facts about the gateway's own sources, read as TypeScript: its import graph has no cycle (each module can be read,
// and tested, after those it imports), and the readiness checks name operations only through the spec's types.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { operations } from "@lrg/spec";

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

/**
 * The string literals of `files` that name an operation of the spec (the whole literal) and stand where the type
 * checker types them as plain text: each such name is typed by the generated operation-name union (or a type of
 * names), so that a renamed or removed operation is a type error rather than a check that silently never matches.
 */
function untypedOperationNames(files: readonly string[]): string[] {
  const ids = new Set(operations.map((operation) => operation.operationId));
  const config = ts.getParsedCommandLineOfConfigFile(
    join(SOURCES, "..", "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("no tsconfig.json");
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const untyped: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) && ids.has(node.text) && !ts.isLiteralTypeNode(node.parent)) {
        // A comparison's literal is typed by the other side; any other by where it stands (a parameter, a member).
        const parent = node.parent;
        const compared =
          ts.isBinaryExpression(parent) &&
          [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(
            parent.operatorToken.kind,
          )
            ? parent.left === node
              ? parent.right
              : parent.left
            : undefined;
        const contextual = compared ? checker.getTypeAtLocation(compared) : checker.getContextualType(node);
        const members = contextual?.isUnion() ? contextual.types : contextual ? [contextual] : [];
        const typed = members.length > 0 && members.every((member) => member.isStringLiteral());
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        if (!typed) untyped.push(`${relative(SOURCES, file)}:${line + 1} ${node.text}`);
      }
      node.forEachChild(visit);
    };
    visit(source);
  }
  return untyped;
}

describe("operation names in src/readiness/", () => {
  it("are found where they stand as plain text, and not where the name union types them", () => {
    const folder = mkdtempSync(join(tmpdir(), "lrg-names-"));
    try {
      const file = join(folder, "sample.ts");
      writeFileSync(
        file,
        [
          'type Named = "submitApplication" | "uploadDocument";',
          'const plain: string = "submitApplication";',
          'const typed: Named = "submitApplication";',
          'const same = (id: string) => id === "uploadDocument";',
          'const alike = (id: Named) => id === "uploadDocument";',
          "export { plain, typed, same, alike, type Named };",
        ].join("\n"),
      );
      const found = untypedOperationNames([file]).map((entry) => entry.replace(/^.*sample\.ts/, "sample.ts"));
      expect(found).toEqual(["sample.ts:2 submitApplication", "sample.ts:4 uploadDocument"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("are typed by the generated operation-name union", () => {
    const files = sourceFiles(join(SOURCES, "readiness"));
    expect(untypedOperationNames(files)).toEqual([]);
  });
});

describe("readiness, one seam of the gateway", () => {
  const outside = sourceFiles(SOURCES)
    .map((file) => relative(SOURCES, file))
    .filter((file) => !file.startsWith(`readiness${sep}`));

  it("is spoken of outside src/readiness/ only by server.ts, which installs it: the store keeps its runs as a part it names not", () => {
    const speaking = outside.filter((file) => /readiness/i.test(readFileSync(join(SOURCES, file), "utf8")));
    expect(speaking).toEqual(["server.ts"]);
  });

  it("is installed by server.ts through one import", () => {
    const server = join(SOURCES, "server.ts");
    const imported = importsOf(server, readFileSync(server, "utf8")).map((file) => relative(SOURCES, file));
    expect(imported.filter((file) => file.startsWith(`readiness${sep}`))).toEqual([`readiness${sep}install.ts`]);
  });
});

describe("the store's ports", () => {
  it("are what the domains take: no module outside storage/ but server.ts, the composition root, names Storage", () => {
    const naming = sourceFiles(SOURCES)
      .map((file) => relative(SOURCES, file))
      .filter((file) => !file.startsWith(`storage${sep}`))
      .filter((file) => /\bStorage\b/.test(readFileSync(join(SOURCES, file), "utf8")));
    expect(naming).toEqual(["server.ts"]);
  });
});

describe("server.ts", () => {
  it("composes the gateway in a createServer of at most 120 lines: what decides lives with its owner", () => {
    const file = join(SOURCES, "server.ts");
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const factory = source.statements.find(
      (statement): statement is ts.FunctionDeclaration =>
        ts.isFunctionDeclaration(statement) && statement.name?.text === "createServer",
    );
    if (!factory) throw new Error("server.ts has no createServer");
    const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
    expect(lineOf(factory.getEnd()) - lineOf(factory.getStart(source)) + 1).toBeLessThanOrEqual(120);
  });
});
