import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each test runs the built `lrg` as child processes against a gateway: slow on a loaded 2-core machine (a limit, not a check).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
