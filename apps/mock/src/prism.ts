// Where Prism and the bundled spec live, and the command line that starts Prism on them.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { artifactPath } from "@lrg/spec/artifacts";

const require = createRequire(import.meta.url);

/** The host Prism listens on: loopback only, the mock is a development tool. */
export const MOCK_HOST = "127.0.0.1";

/** The port `npm run mock` uses when neither PORT nor --port says otherwise (Prism's own default). */
export const DEFAULT_PORT = 4010;

/** Absolute path of the `prism` executable script of @stoplight/prism-cli. */
export function prismBin(): string {
  const manifestPath = require.resolve("@stoplight/prism-cli/package.json");
  const manifest = require(manifestPath) as { bin: { prism: string } };
  return join(dirname(manifestPath), manifest.bin.prism);
}

/** Absolute path of the bundled spec that the mock serves by default (@lrg/spec's openapi.yaml). */
export function defaultSpec(): string {
  return artifactPath("openapi.yaml");
}

/** What one Prism process serves and how. */
export interface PrismSettings {
  port: number;
  dynamic: boolean;
  spec: string;
  host?: string;
  /** Prism's log level; the CLI keeps `info` (one line per request), the programmatic API only warnings. */
  verboseLevel?: "info" | "warn";
}

/** The arguments after `node` that start `prism mock` with these settings. */
export function prismArgs(settings: PrismSettings): string[] {
  const args = [
    prismBin(),
    "mock",
    settings.spec,
    "--host",
    settings.host ?? MOCK_HOST,
    "--port",
    String(settings.port),
    "--verboseLevel",
    settings.verboseLevel ?? "info",
  ];
  // Only the members the schemas name: json-schema-faker otherwise invents extra ones, which strict clients refuse.
  if (settings.dynamic) args.push("--dynamic", "--json-schema-faker-fillProperties=false");
  return args;
}
