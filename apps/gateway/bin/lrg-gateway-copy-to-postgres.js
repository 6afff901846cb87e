#!/usr/bin/env node
// Launcher of the built copy command; committed so that the bin exists when pnpm links it, at install, before any
// build (see lrg-gateway.js).
import { existsSync } from "node:fs";

const command = new URL("../dist/copy-to-postgres.js", import.meta.url);
if (!existsSync(command)) {
  process.stderr.write(
    "lrg-gateway-copy-to-postgres: not built yet: run `npm run build` (or `npm start`) in the checkout first\n",
  );
  process.exit(2);
}
const { runCopyToPostgres } = await import(command.href);
await runCopyToPostgres();
