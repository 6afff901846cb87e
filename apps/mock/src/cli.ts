#!/usr/bin/env node
// `pnpm --filter @lrg/mock start [--dynamic] [--port N] [--spec FILE]`: Prism in the foreground, its log on the terminal.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_PORT, defaultSpec, MOCK_HOST, prismArgs } from "./prism.js";

const USAGE = `Usage: lrg-mock [--dynamic] [--port N] [--spec FILE]

Serves the bundled Land Registration Gateway spec with Prism on http://${MOCK_HOST}:${DEFAULT_PORT}.
  --dynamic     generate responses from the schemas instead of the documented examples (or MOCK_DYNAMIC=1)
  --port N      port to listen on (or PORT=N; default ${DEFAULT_PORT})
  --spec FILE   another OpenAPI document to serve (default: the bundled openapi.yaml of @lrg/spec)
`;

function truthy(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes"].includes(value.toLowerCase());
}

function main(): void {
  const { values } = parseArgs({
    options: {
      dynamic: { type: "boolean", default: false },
      port: { type: "string" },
      spec: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const portText = values.port ?? process.env["PORT"] ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`lrg-mock: not a port: ${portText}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const dynamic = values.dynamic || truthy(process.env["MOCK_DYNAMIC"]);
  const spec = values.spec === undefined ? defaultSpec() : resolve(values.spec);

  process.stdout.write(
    `lrg-mock: ${spec} on http://${MOCK_HOST}:${port} (${dynamic ? "dynamic responses" : "static examples"})\n`,
  );
  const child = spawn(process.execPath, prismArgs({ port, dynamic, spec }), { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 0);
  });
}

main();
