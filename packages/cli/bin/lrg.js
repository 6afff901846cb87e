#!/usr/bin/env node
// Launcher of the built CLI; committed so that the bin exists before the package is built.
import { existsSync } from "node:fs";

const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("lrg: not built yet: run `npm run build` (or `npm start`, `npm test`) in the checkout first\n");
  process.exit(2);
}
await import(main.href);
