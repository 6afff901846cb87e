import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each file starts its own target (Prism, or a gateway in-process) and checks properties one by one.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
