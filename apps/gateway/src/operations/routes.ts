import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";
import { Problem } from "../problems.js";
import { artifactPath, payloadSchemas } from "@lrg/spec";
import type { BlobStore } from "../storage/blobs/blob-store.js";
import type { StoreLifecycle } from "../storage/ports/lifecycle.js";
import type { Metrics } from "./metrics.js";

const require = createRequire(import.meta.url);

/** Where the built docs are: the docs app when it is built, else the spec's rendered reference. */
function docsDirectory(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(dirname(require.resolve("@lrg/docs/dist/index.html")));
  } catch {
    // the docs app is not built: fall back to the spec's reference
  }
  candidates.push(join(dirname(artifactPath("openapi.json")), "docs"));
  return candidates.find((directory) => existsSync(join(directory, "index.html")));
}

// YAML as plain text, so that a browser shows the bundled spec instead of downloading it.
const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  svg: "image/svg+xml",
  css: "text/css",
  js: "text/javascript",
  json: "application/json",
  png: "image/png",
  yaml: "text/plain; charset=utf-8",
};

/** The store's figures in the Prometheus text format, labelled with the kind of database. */
function storeMetrics(storage: StoreLifecycle): string {
  const { database, figures } = storage.describe();
  return figures
    .flatMap(({ name, help, type, value }) => [
      `# HELP lrg_db_${name} ${help}`,
      `# TYPE lrg_db_${name} ${type}`,
      `lrg_db_${name}{database="${database}"} ${value}`,
      "",
    ])
    .join("\n");
}

/** Health, whether the gateway is ready for traffic, metrics, the bundled spec, the payload schemas and the docs. */
export function registerOperationsRoutes(
  app: FastifyInstance,
  storage: StoreLifecycle,
  blobs: Pick<BlobStore, "probe">,
  metrics: Metrics,
  isClosing: () => boolean,
): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const reachable = await storage.ping().catch(() => false);
    // Reading is not enough: a full or read-only disk, or a database that became a standby, still answers reads.
    const writable = reachable && (await storage.canWrite().catch(() => false));
    // The documents' store too: uploads and letters need it as much as any write needs the database.
    const { problem: _problem, ...documents } = await blobs.probe();
    const ready = !isClosing() && writable && documents.writable;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? "ready" : "not ready",
      database: { kind: storage.describe().database, reachable, writable },
      blobs: documents,
    });
  });
  app.get("/metrics", async (_request, reply) =>
    reply.type("text/plain; version=0.0.4").send(metrics.render() + storeMetrics(storage)),
  );

  const bundle = readFileSync(artifactPath("openapi.json"), "utf8");
  const sandboxBundle = readFileSync(artifactPath("sandbox.json"), "utf8");
  app.get("/openapi.json", async (_request, reply) => reply.type("application/json").send(bundle));
  app.get("/sandbox.json", async (_request, reply) => reply.type("application/json").send(sandboxBundle));

  const payloads = payloadSchemas();
  app.get<{ Params: { "*": string } }>("/schemas/*", async (request, reply) => {
    const path = request.params["*"];
    const schema = path.endsWith(".json") ? payloads.get(path.slice(0, -".json".length)) : undefined;
    if (!schema) throw new Problem("404-01", "no such payload schema");
    const base = `${request.protocol}://${request.host}`;
    return reply
      .type("application/schema+json")
      .send({ $schema: "https://json-schema.org/draft/2020-12/schema", $id: `${base}${request.url}`, ...schema });
  });

  const docs = docsDirectory();
  if (docs) {
    app.get("/docs", async (_request, reply) => reply.redirect("/docs/"));
    app.get<{ Params: { "*": string } }>("/docs/*", async (request, reply) => {
      const relative = request.params["*"] || "index.html";
      if (relative.split("/").some((segment) => segment === ".." || segment.startsWith(".")))
        throw new Problem("404-01", "no such page");
      const file = join(docs, relative);
      // A directory (`/docs/assets`) is no page either: only files are served.
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Problem("404-01", "no such page");
      return reply
        .type(CONTENT_TYPES[file.split(".").pop() ?? ""] ?? "application/octet-stream")
        .send(readFileSync(file));
    });
  }
}
