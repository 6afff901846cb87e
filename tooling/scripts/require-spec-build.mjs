#!/usr/bin/env node
// First step of the build of a package that inlines @lrg/spec (`lrg-spec-inline dist`): stops before anything is
// compiled when the spec's library is not built, and names the command that builds it. Without it the build
// failed half-way, after rewriting dist/'s imports, and left a dist/ that packs into a tarball that does not import.
// Usage, in the package's build script: node ../../tooling/scripts/require-spec-build.mjs
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pnpmSpec = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;
const packageDir = process.cwd();
const { name } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const fromRoot = (path) => relative(root, path) || ".";

/** What is missing for lrg-spec-inline: the library files @lrg/spec's exports map names. */
function missing() {
  const link = join(packageDir, "node_modules", "@lrg", "spec");
  if (!existsSync(link)) return [`${fromRoot(link)} (the workspace is not installed)`];
  const specDir = realpathSync(link);
  const { exports } = JSON.parse(readFileSync(join(specDir, "package.json"), "utf8"));
  return Object.values(exports)
    .flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)))
    .filter((target) => target.startsWith("./dist/lib/"))
    .map((target) => join(specDir, target))
    .filter((path) => !existsSync(path))
    .map(fromRoot);
}

const absent = missing();
if (absent.length > 0) {
  console.error(
    [
      `${name} is built on @lrg/spec's library, which is not built: ${absent.slice(0, 3).join(", ")}${absent.length > 3 ? ` and ${absent.length - 3} more` : ""} missing.`,
      `Build it and ${name} from the repository root with:`,
      "",
      `  npx --yes ${pnpmSpec} install && npx ${pnpmSpec} exec turbo run build --filter=${name}`,
      "",
      "(or `npm run pack` there, which also writes the installable tarballs of the client, the CLI and the conformance suite).",
    ].join("\n"),
  );
  process.exit(1);
}
