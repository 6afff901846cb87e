import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The files share one module graph per worker (no isolation): the spec's validators, the gateway and the client
    // are loaded and compiled once, not once per file (a third of the CPU of the gateway's tests went to that). No file
    // changes process-wide state for the others (environment, globals, module mocks).
    isolate: false,
    // Each test runs the built `lrg` as child processes against a gateway: slow on a loaded 2-core machine (a limit, not a check).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
