import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Limits, not assertions: the tool checks spawn CLIs, and CI shares 2 cores with every other package's tests.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
