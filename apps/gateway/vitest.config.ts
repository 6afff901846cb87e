import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Vitest's default on 2 cores is one file at a time. The gateway's tests and the conformance suite are the two
    // longest of `npm test` and finish last, when the machine is otherwise idle: two files at a time use both cores.
    maxWorkers: 2,
  },
});
