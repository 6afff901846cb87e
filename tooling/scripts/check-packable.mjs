#!/usr/bin/env node
// The `prepack` of every package we hand out as a tarball (the client, the CLI, the conformance suite): refuses to
// pack a build that would not import where it is installed. Every relative import of the built files must name a file
// that is there (a build stopped half-way leaves imports of dist/lrg-spec/ without the files), every package import
// must be a dependency of the manifest, and the manifest's entry points must exist.
// Usage: node ../../tooling/scripts/check-packable.mjs [package folder, default: the current one]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinModules } from "node:module";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pnpmSpec = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;
const packageDir = resolve(process.argv[2] ?? ".");
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const installed = new Set([
  manifest.name,
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
  ...Object.keys(manifest.optionalDependencies ?? {}),
]);
const builtins = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for node: and built-in modules. */
function packageOf(specifier) {
  if (specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return builtins.has(name) ? undefined : name;
}

const builtFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : builtFiles(path);
    return /\.(m?js|d\.m?ts)$/.test(entry.name) ? [path] : [];
  });

/** The files an `exports` map points at (its values, never its subpath keys such as "./drift"; no patterns). */
function targetsOf(exports) {
  if (typeof exports === "string") return exports.startsWith("./") && !exports.includes("*") ? [exports] : [];
  if (exports === null || typeof exports !== "object") return [];
  return Object.values(exports).flatMap(targetsOf);
}

const problems = [];
const entryPoints = [
  ...(typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {})),
  ...targetsOf(manifest.exports ?? {}),
  ...[manifest.main, manifest.types].filter((path) => typeof path === "string"),
];
for (const path of entryPoints) if (!existsSync(join(packageDir, path))) problems.push(`${path} is missing`);

const folders = ["dist", "bin"].map((folder) => join(packageDir, folder)).filter((folder) => existsSync(folder));
if (!existsSync(join(packageDir, "dist"))) problems.push("dist/ is missing");
for (const file of folders.flatMap(builtFiles)) {
  // TypeScript's own scan of a file's imports (static, dynamic, re-exports, `import type`), never fooled by strings.
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  for (const { fileName: specifier } of importedFiles) {
    const where = relative(packageDir, file);
    if (specifier.startsWith(".")) {
      const target = join(dirname(file), specifier);
      // A declaration file imports "./x.js" for ./x.d.ts.
      const candidates = file.endsWith(".ts") ? [target, target.replace(/\.js$/, ".d.ts")] : [target];
      if (!candidates.some((candidate) => existsSync(candidate)))
        problems.push(`${where} imports ${specifier}, which is missing`);
    } else {
      const name = packageOf(specifier);
      if (name !== undefined && !installed.has(name) && !name.startsWith("@types/"))
        problems.push(`${where} imports ${specifier}, but ${name} is not among the dependencies`);
    }
  }
}

if (problems.length > 0) {
  const shown = problems.slice(0, 10);
  if (problems.length > shown.length) shown.push(`and ${problems.length - shown.length} more`);
  console.error(
    [
      `${manifest.name} is not ready to pack:`,
      ...shown.map((problem) => `  ${problem}`),
      "Build it from the repository root first:",
      "",
      `  npx --yes ${pnpmSpec} install && npx ${pnpmSpec} exec turbo run build --filter=${manifest.name}`,
      "",
      "(`npm run pack` there builds and packs the client, the CLI and the conformance suite).",
    ].join("\n"),
  );
  process.exit(1);
}
