import { readFileSync } from "node:fs";
import { join } from "node:path";

/** How the `serve` script (package.json) runs the gateway: its environment settings and Node.js flags. */
export interface ServeRuntime {
  env: Record<string, string>;
  flags: string[];
}

/**
 * The settings are a small young generation (`--max-semi-space-size=1`, MiB) and one malloc arena: they keep the
 * memory of streamed uploads from piling up as garbage between collections. 4 MiB made acknowledging 100 ids cheaper
 * (1.0–1.5 ms of CPU against 1.9–2.3) but let the upload-memory test grow by 30.9 MiB under Node 24 (limit 16).
 *
 * Reads the runtime settings from the gateway's `serve` script, `VAR=value ... node --flag ... dist/main.js`, so that
 * the tests and the benchmarks that start `dist/main.js` run it exactly as an operator's `npm run serve` does.
 */
export function serveRuntime(): ServeRuntime {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = (manifest.scripts["serve"] ?? "").split(/\s+/).filter(Boolean);
  const node = words.indexOf("node");
  if (node < 0) throw new Error('the gateway\'s "serve" script does not run node');
  const env = Object.fromEntries(
    words.slice(0, node).map((word) => {
      const [name, ...value] = word.split("=");
      return [name as string, value.join("=")];
    }),
  );
  return { env, flags: words.slice(node + 1).filter((word) => word.startsWith("--")) };
}
