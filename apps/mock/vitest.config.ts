import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each file starts a real Prism process; its first start reads and validates the whole bundle. Under
    // `npm test` every package tests at once on two cores, and one Prism start has taken 30 s there:
    // these are bounds for a hang, not speed targets.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
