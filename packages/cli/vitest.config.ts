import { defineConfig } from "vitest/config";

/**
 * CI's second pass on another Node.js (`LRG_ENGINES_PASS`) runs the files whose behaviour is the runtime's: child
 * processes and their signals, terminals, streams, HTTP servers and proxies, mutual TLS. The rest (argument
 * conventions, drift and readiness judging, spec diffs, the commands' request building) is the same code on any
 * Node.js, and repeating it would take CI past its 20 minutes.
 */
const ENGINES_PASS_FILES = ["startup", "errors", "terminal", "notifications", "titles", "record", "replay"].map(
  (name) => `test/${name}.test.ts`,
);

export default defineConfig({
  test: {
    include: process.env["LRG_ENGINES_PASS"] !== undefined ? ENGINES_PASS_FILES : ["test/**/*.test.ts"],
    // The files share one module graph per worker (no isolation): the spec's validators, the gateway and the client
    // are loaded and compiled once, not once per file (a third of the CPU of the gateway's tests went to that). No file
    // changes process-wide state for the others (environment, globals, module mocks).
    isolate: false,
    // Each test runs the built `lrg` as child processes against a gateway: slow on a loaded 2-core machine (a limit, not a check).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
