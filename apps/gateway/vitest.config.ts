import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The files share one module graph per worker (no isolation): the spec's validators, the gateway and the client
    // are loaded and compiled once, not once per file (a third of the CPU of the gateway's tests went to that). No file
    // changes process-wide state for the others (environment, globals, module mocks).
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    projects: [
      { extends: true, test: { name: "gateway", include: ["test/**/*.test.ts"] } },
      // The readiness tests again on PostgreSQL, two instances: runs started on one, the software talking to the other.
      {
        extends: true,
        test: {
          name: "readiness-postgres",
          include: ["test/readiness/**/*.test.ts"],
          env: { LRG_READINESS_STORE: "postgres" },
        },
      },
    ],
  },
});
