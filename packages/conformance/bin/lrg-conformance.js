#!/usr/bin/env node
// Launcher of the built CLI; committed so that the bin exists before the package is built.
await import("../dist/cli.js");
