// Runs once before the suite: the built docs must exist (turbo runs `build` before `test`), and the browser
// must be installed (Debian's package, installed here when missing).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensureChromium } from "./support/chromium.js";

export default function setup(): void {
  const dist = join(import.meta.dirname, "..", "dist");
  if (!existsSync(join(dist, "index.html")) || !existsSync(join(dist, "reference.html"))) {
    throw new Error(
      "apps/docs/dist is missing: run `npx pnpm@10.34.8 --filter @lrg/docs build` first (turbo does it for `test`)",
    );
  }
  ensureChromium();
}
