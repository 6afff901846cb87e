#!/usr/bin/env node
// Inlines @lrg/spec into a consumer's build output, so the consumer installs without the workspace (@lrg/spec is
// not published): copies the library modules the built files import (and what they import in turn) into
// <dist>/lrg-spec/lib/, the bundled documents beside them when the reader is among them, and rewrites every
// `@lrg/spec...` specifier of the built .js and .d.ts files to a relative path.
// Usage: lrg-spec-inline <dist folder>
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const specDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const libDir = join(specDir, "dist", "lib");
const manifest = JSON.parse(readFileSync(join(specDir, "package.json"), "utf8"));
const distDir = resolve(process.argv[2] ?? "dist");
const targetDir = join(distDir, "lrg-spec");
const SPECIFIER = /((?:from|import)\s*\(?\s*)(["'])(@lrg\/spec(?:\/[\w./-]*)?)\2/g;
const RELATIVE = /((?:from|import)\s*\(?\s*)(["'])(\.\.?\/[\w./-]*)\2/g;

/** The library module (path below dist/lib, without extension) a specifier names, through the exports map. */
function moduleOf(specifier) {
  const key = specifier === "@lrg/spec" ? "." : `.${specifier.slice("@lrg/spec".length)}`;
  const target = manifest.exports[key]?.default;
  if (typeof target !== "string" || !target.startsWith("./dist/lib/"))
    throw new Error(`${specifier} is not a library module of @lrg/spec`);
  return target.slice("./dist/lib/".length).replace(/\.js$/, "");
}

const builtFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === targetDir ? [] : builtFiles(path);
    return /\.(js|d\.ts)$/.test(entry.name) ? [path] : [];
  });

rmSync(targetDir, { recursive: true, force: true });
const wanted = new Set();
for (const file of builtFiles(distDir)) {
  const text = readFileSync(file, "utf8");
  const rewritten = text.replace(SPECIFIER, (_whole, lead, quote, specifier) => {
    const module = moduleOf(specifier);
    wanted.add(module);
    let path = relative(dirname(file), join(targetDir, "lib", `${module}.js`))
      .split(sep)
      .join("/");
    if (!path.startsWith(".")) path = `./${path}`;
    return `${lead}${quote}${path}${quote}`;
  });
  if (rewritten !== text) writeFileSync(file, rewritten);
}

// Copy the wanted modules and every module they import relatively.
const pending = [...wanted];
const copied = new Set();
while (pending.length > 0) {
  const module = pending.pop();
  if (copied.has(module)) continue;
  copied.add(module);
  for (const extension of [".js", ".d.ts"]) {
    const source = join(libDir, `${module}${extension}`);
    if (!existsSync(source)) throw new Error(`${source} is missing: build @lrg/spec first`);
    const target = join(targetDir, "lib", `${module}${extension}`);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
    for (const [, , , path] of readFileSync(source, "utf8").matchAll(RELATIVE)) {
      pending.push(join(dirname(module), path).replace(/\.js$/, "").split(sep).join("/"));
    }
  }
}
if (copied.has("documents")) {
  for (const name of ["openapi", "sandbox"]) {
    copyFileSync(join(specDir, "dist", `${name}.dereferenced.json`), join(targetDir, `${name}.dereferenced.json`));
  }
}
console.log(
  copied.size === 0
    ? "no @lrg/spec import to inline"
    : `inlined @lrg/spec (${[...copied].sort().join(", ")}) into ${relative(process.cwd(), targetDir) || "."}`,
);
