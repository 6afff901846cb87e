#!/usr/bin/env node
// `npm run pack`: writes installable tarballs of the client, the command line and the conformance suite, for a
// project outside this repository (none of them is on the npm registry). The root script installs the workspace and
// builds the three through the bootstrap first; this packs them with pnpm (which turns `catalog:` and `workspace:`
// ranges into real versions; plain `npm pack` would not), checks that every @lrg/ package a tarball depends on is
// among the tarballs, and prints the `npm install` line to paste.
// Usage: node tooling/scripts/pack.mjs [--out DIR]   (default: packs/ at the repository root, which git ignores)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pnpmSpec = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;
// In install order: the command line depends on the other two, which npm finds among the tarballs of the same
// `npm install` (their names are not on the registry).
const PACKAGES = ["@lrg/client", "@lrg/conformance", "@lrg/cli"];

const outFlag = process.argv.indexOf("--out");
const out = resolve(outFlag >= 0 ? (process.argv[outFlag + 1] ?? "") : join(root, "packs"));
mkdirSync(out, { recursive: true });
if (outFlag < 0) writeFileSync(join(out, ".gitignore"), "# Written by npm run pack (tooling/scripts/pack.mjs).\n*\n");

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
// Each package's `prepack` (tooling/scripts/check-packable.mjs) refuses an incomplete build, naming the command to run.
const packed = spawnSync(
  npx,
  ["--yes", pnpmSpec, ...PACKAGES.flatMap((name) => ["--filter", name]), "pack", "--pack-destination", out, "--json"],
  {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, npm_config_update_notifier: "false" },
  },
);
if (packed.error) throw packed.error;
if (packed.status !== 0) {
  process.stderr.write(packed.stdout);
  console.error(`pack: pnpm pack failed (exit ${packed.status}); above is what to build first.`);
  process.exit(packed.status ?? 1);
}
// pnpm prints the prepack scripts' output before the JSON (an array, or one object for one package).
const listed = JSON.parse(packed.stdout.slice(packed.stdout.search(/^[[{]/m)));
const byName = new Map((Array.isArray(listed) ? listed : [listed]).map((entry) => [entry.name, entry.filename]));
const tarballs = PACKAGES.map((name) => {
  const filename = byName.get(name);
  if (filename === undefined) throw new Error(`pnpm pack wrote no tarball of ${name}`);
  return resolve(out, filename);
});

const problems = tarballs.flatMap((tarball) => {
  const manifest = JSON.parse(
    spawnSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }).stdout || "{}",
  );
  return Object.entries(manifest.dependencies ?? {}).flatMap(([name, range]) => {
    if (/^(workspace|catalog):/.test(range)) return [`${manifest.name} depends on ${name}@${range}`];
    if (name.startsWith("@lrg/") && !PACKAGES.includes(name))
      return [`${manifest.name} depends on ${name}, which is neither on the registry nor among the tarballs`];
    return [];
  });
});
if (problems.length > 0) {
  console.error(`pack: the tarballs would not install:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}

const shown = (path) => relative(process.cwd(), path) || path;
console.log(`Wrote ${tarballs.length} tarballs:\n${tarballs.map((tarball) => `  ${shown(tarball)}`).join("\n")}\n`);
console.log("In your project (with a package.json), install the client alone:\n");
console.log(`  npm install ${tarballs[0]}\n`);
console.log(
  "or the command line `lrg` with it (one command: lrg needs the client and the conformance suite beside it):\n",
);
console.log(`  npm install ${tarballs.join(" ")}`);
