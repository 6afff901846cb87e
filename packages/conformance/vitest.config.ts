import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
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
