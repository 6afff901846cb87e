import { defineConfig } from "vitest/config";

/** CI's second pass on another Node.js (`LRG_ENGINES_PASS`): the runtime, not what repeats it on another store. */
const enginesPass = process.env["LRG_ENGINES_PASS"] !== undefined;

export default defineConfig({
  test: {
    // The files share one module graph per worker (no isolation): the spec's validators, the gateway and the client
    // are loaded and compiled once, not once per file (a third of the CPU of the gateway's tests went to that). No file
    // changes process-wide state for the others (environment, globals, module mocks).
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // `npm test` runs two packages' tests at a time (turbo --concurrency=2): two files at a time here keep both cores
    // busy once the others are done, without the contention of every suite at once.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "gateway",
          include: ["test/**/*.test.ts"],
          // Following the README to add an operation is about the workspace's tools, not the Node.js that runs it;
          // the failed-login budgets, a PostgreSQL outage and the crash of one of two instances are the gateway's own
          // logic on any Node.js, and repeating them would take CI past its 20 minutes.
          exclude: enginesPass
            ? [
                "test/adding-an-operation.test.ts",
                "test/failed-logins.test.ts",
                "test/postgres-faults.test.ts",
                "test/many-instances-crash.test.ts",
              ]
            : [],
        },
      },
      // The readiness tests again on PostgreSQL, two instances: runs started on one, the software talking to the other.
      // Not in the engines pass: it repeats on another store what that pass runs on SQLite.
      ...(enginesPass
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: "readiness-postgres",
                include: ["test/readiness/**/*.test.ts"],
                env: { LRG_READINESS_STORE: "postgres" },
              },
            },
          ]),
    ],
  },
});
