#!/usr/bin/env node
// The two commands a newcomer types (`npm start`, `npm test`) land here. On a machine with only
// Node.js and npm this fetches the pinned pnpm through npx (corepack is not relied on: its
// signature check fails on some machines), installs the workspace, then hands over to turbo.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const pnpmSpec = manifest.packageManager; // e.g. "pnpm@10.34.8"

const MIN_NODE = [20, 19];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
  console.error(`Node.js ${MIN_NODE.join(".")} or newer is needed; this is ${process.versions.node}.`);
  process.exit(1);
}

/** Runs pnpm (fetched by npx when missing); npx also puts pnpm on PATH for turbo's children. */
function pnpm(args) {
  const npx = process.platform === "win32" ? "npx.cmd" : "npx";
  const result = spawnSync(npx, ["--yes", pnpmSpec, ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const command = process.argv[2];
const lockfile = existsSync(join(root, "pnpm-lock.yaml"));
pnpm(["install", ...(lockfile ? ["--frozen-lockfile"] : []), "--reporter=append-only"]);

switch (command) {
  case "test":
    pnpm(["run", "test:all"]);
    break;
  case "start":
    pnpm(["exec", "turbo", "run", "build"]);
    // The gateway runs behind turbo, which pipes its output: a person is reading, so short log lines, not JSON.
    process.env.LRG_LOG ??= "human";
    pnpm(["run", "serve"]);
    break;
  case "turbo":
    // Any other root command (bench, fuzz, crash, mock, ...): turbo with the pinned pnpm on PATH.
    pnpm(["exec", "turbo", ...process.argv.slice(3)]);
    break;
  default:
    console.error(`usage: bootstrap.mjs start|test|turbo <args> (got ${command ?? "nothing"})`);
    process.exit(2);
}
