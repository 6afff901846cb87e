import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each file starts a real Prism process; its first start reads and validates the whole bundle.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
