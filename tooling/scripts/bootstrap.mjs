#!/usr/bin/env node
// The two commands a newcomer types (`npm start`, `npm test`) land here. On a machine with only
// Node.js and npm this fetches the pinned pnpm through npx (corepack is not relied on: its
// signature check fails on some machines), installs the workspace, then hands over to turbo.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

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

/**
 * Runs the built gateway as its `serve` script does (its settings read from that script), and ends as it ends.
 *
 * Not through `pnpm run serve`: on Ctrl-C pnpm, turbo and the shell between them each stop by the signal and print
 * `ELIFECYCLE Command failed.`. The gateway runs in a process group of its own, so the terminal's Ctrl-C reaches it
 * once, from here: the first SIGINT, SIGTERM or SIGHUP this process gets is passed on (SIGHUP as SIGTERM), and it
 * stops gracefully, exit code 0; later ones are not passed on, since npm passes on the Ctrl-C that this process
 * already got from the terminal, and a second SIGINT would cut the gateway's graceful stop short. The root's `start`
 * script runs this with `exec`: the shell npm runs scripts in (dash on Debian) would otherwise die of the Ctrl-C at
 * once, and npm with it (exit 130), while the gateway is still stopping.
 */
async function serveGateway() {
  const gateway = join(root, "apps", "gateway");
  const { serveRuntime } = await import(pathToFileURL(join(gateway, "dist", "testing", "serve-runtime.js")).href);
  const { env, flags } = serveRuntime();
  // A person is reading: short log lines, not JSON, even when the output goes through a pipe (`npm start | tee`).
  process.env.LRG_LOG ??= "human";
  const child = spawn(process.execPath, [...flags, join("dist", "main.js")], {
    cwd: gateway,
    stdio: "inherit",
    env: { ...process.env, ...env },
    detached: process.platform !== "win32",
  });
  let passedOn = false;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      if (passedOn) return;
      passedOn = true;
      child.kill(signal === "SIGHUP" ? "SIGTERM" : signal);
    });
  }
  const [code, signal] = await once(child, "exit");
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
}

const command = process.argv[2];
if (command !== "serve") {
  const lockfile = existsSync(join(root, "pnpm-lock.yaml"));
  pnpm(["install", ...(lockfile ? ["--frozen-lockfile"] : []), "--reporter=append-only"]);
}

switch (command) {
  case "test":
    pnpm(["run", "test:all"]);
    break;
  case "start":
    pnpm(["exec", "turbo", "run", "build"]);
    await serveGateway();
    break;
  case "serve":
    // `start` without the install and the build: the gateway as it was last built.
    await serveGateway();
    break;
  case "turbo":
    // Any other root command (bench, fuzz, crash, mock, ...): turbo with the pinned pnpm on PATH.
    pnpm(["exec", "turbo", ...process.argv.slice(3)]);
    break;
  default:
    console.error(`usage: bootstrap.mjs start|test|serve|turbo <args> (got ${command ?? "nothing"})`);
    process.exit(2);
}
