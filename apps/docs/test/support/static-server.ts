// A tiny static file server for the built docs, mounted under a prefix as the gateway mounts them (/docs), so
// that a root-relative link shows up as a request outside the prefix.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".yaml": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** A running server: `url` ends with the prefix and a slash, e.g. `http://127.0.0.1:41234/docs/`. */
export interface StaticServer {
  url: string;
  /** Paths requested outside the prefix or not found, in order. */
  misses: string[];
  close(): Promise<void>;
}

/** Serves `root` at `http://127.0.0.1:<free port><prefix>/`. */
export async function serveDirectory(root: string, prefix = "/docs"): Promise<StaticServer> {
  const misses: string[] = [];
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    const relative = path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) || "index.html" : undefined;
    const file = relative === undefined ? undefined : normalize(join(root, relative));
    const inside = file !== undefined && (file === root || file.startsWith(root + sep));
    let size = -1;
    try {
      if (inside) size = statSync(file).isFile() ? statSync(file).size : -1;
    } catch {
      size = -1;
    }
    if (!inside || size < 0 || file === undefined) {
      misses.push(path);
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "content-length": size,
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}/`,
    misses,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
