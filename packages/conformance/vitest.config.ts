import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The files share one module graph per worker (no isolation): the spec's validators, the gateway and the client
    // are loaded and compiled once, not once per file (a third of the CPU of the gateway's tests went to that). No file
    // changes process-wide state for the others (environment, globals, module mocks).
    isolate: false,
    // Each file starts its own target (Prism, or a gateway in-process) and checks properties one by one. A property
    // with many runs took 75 s of a 120 s bound while every package tested at once; the bound is generous.
    testTimeout: 300_000,
    hookTimeout: 180_000,
    // Vitest's default on 2 cores is one file at a time. This suite is the longest of `npm test` and finishes last:
    // two files at a time keep both cores busy then. (The gateway's tests at two as well gained nothing: npm test is
    // bound by the CPU of every suite together, and its scrypt and crash tests slowed under the contention.)
    maxWorkers: 2,
  },
});
