// Headless Chromium from Debian's package, driven by playwright-core. Never a browser download: the test setup
// installs the `chromium` package with apt when it is missing.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** The browser binary: CHROMIUM_PATH, or Debian's /usr/bin/chromium. */
export const CHROMIUM_PATH = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/** Flags for a quiet, reproducible headless browser that talks to nothing but the test server. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function packageInstalled(): boolean {
  const result = spawnSync("dpkg-query", ["-W", "-f=${Status}", "chromium"], { encoding: "utf8" });
  return result.status === 0 && result.stdout.includes("install ok installed");
}

/** Installs Debian's chromium package when the binary is missing (the suite runs as root in CI). */
export function ensureChromium(log: (line: string) => void = console.log): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.env["CHROMIUM_PATH"] !== undefined) {
    throw new Error(`CHROMIUM_PATH=${CHROMIUM_PATH} does not exist`);
  }
  if (typeof process.getuid === "function" && process.getuid() !== 0) {
    throw new Error(
      `${CHROMIUM_PATH} is missing; install Debian's chromium package (sudo apt-get install -y chromium)`,
    );
  }
  const apt = (args: string[]): void => {
    log(`docs browser test: apt-get ${args.join(" ")}`);
    execFileSync("apt-get", ["-o", "DPkg::Lock::Timeout=600", ...args], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  };
  // The package lists are only needed to find the package; skip the update when it is installed already.
  if (!packageInstalled()) apt(["update"]);
  apt(["install", "-y", "chromium"]);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is still missing`);
}

/** A browser with a fresh profile; `close` also deletes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "lrg-docs-chromium-"));
  // launchPersistentContext passes --user-data-dir itself: a fresh temporary profile every run.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 900 },
    timeout: 120_000,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
