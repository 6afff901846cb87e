#!/usr/bin/env node
// Launcher of the built CLI; committed so that the bin exists before the package is built.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  // In a checkout before the first build; an installed package always carries dist/.
  process.stderr.write(
    "lrg-conformance: not built yet: run `npm run build` (or `npm start`, `npm test`) in the checkout first\n",
  );
  process.exit(2);
}
await import(cli.href);
