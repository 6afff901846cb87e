import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Starting a gateway for an integration file can take long on a loaded 2-core machine (a limit, not a check).
    hookTimeout: 120_000,
  },
});
