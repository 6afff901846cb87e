#!/usr/bin/env node
// Launcher of the built gateway; committed so that the bin exists when pnpm links it, at install, before any build
// (a bin naming dist/ made every first install warn, once per package that depends on the gateway).
import { existsSync } from "node:fs";

const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("lrg-gateway: not built yet: run `npm run build` (or `npm start`) in the checkout first\n");
  process.exit(2);
}
await import(main.href);
