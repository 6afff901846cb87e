#!/usr/bin/env node
// Serves the rendered reference docs and the bundled spec until the gateway serves them itself.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const routes = {
  "/": ["docs/index.html", "text/html; charset=utf-8"],
  "/docs": ["docs/index.html", "text/html; charset=utf-8"],
  "/openapi.json": ["openapi.json", "application/json"],
  "/openapi.yaml": ["openapi.yaml", "application/yaml"],
  "/sandbox.json": ["sandbox.json", "application/json"],
};
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? "127.0.0.1";

createServer(async (request, response) => {
  const route = routes[new URL(request.url ?? "/", "http://localhost").pathname];
  if (!route) {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found; try /docs\n");
    return;
  }
  const body = await readFile(join(dist, route[0]));
  response.writeHead(200, { "content-type": route[1] }).end(body);
}).listen(port, host, function () {
  const { port: bound } = this.address();
  console.log(`Land Registration Gateway spec: http://${host}:${bound}/docs (bundle at /openapi.json)`);
});
