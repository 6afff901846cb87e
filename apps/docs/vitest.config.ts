import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // The first Chromium start on a fresh machine is slow; the pages themselves load in well under a second.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The example pages run side by side (test/examples.test.ts); three at a time keeps two cores busy.
    maxConcurrency: 3,
    // A page's script runs after it loads; on a loaded machine that can take seconds, not the default poll's one.
    expect: { poll: { timeout: 30_000 } },
  },
});
