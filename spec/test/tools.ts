// Runs the tools integrators point at our documents (Spectral, openapi-typescript, Prism, Redocly Respect),
// each as its own CLI, and reduces what they print to a list of problems: empty means the tool read the
// document cleanly.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";

const bin = (name: string): string => join(import.meta.dirname, "..", "node_modules", ".bin", name);
const env = { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

interface Run {
  status: number | null;
  output: string;
}

/** Runs a CLI to its end and collects stdout and stderr together. */
function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output }));
  });
}

/** A scratch folder for one check's output files. */
export function scratch(): string {
  return mkdtempSync(join(tmpdir(), "lrg-tools-"));
}

interface SpectralResult {
  code: string;
  message: string;
  severity: number;
  source?: string;
  path: string[];
}

/**
 * Spectral with its `spectral:oas` ruleset (spec/.spectral.yaml) over the given files, in one process (it takes
 * seconds to start), its problems by file. Errors and warnings both count: every warning of that ruleset is
 * something a generator or a reader of the document trips over (an unused component, an example that fails its
 * schema, an undefined tag), and the spec has none, so a new one is a regression. Information and hints do not
 * count. A run that fails without results counts against every file.
 */
export async function spectralProblems(files: string[]): Promise<Map<string, string[]>> {
  const ruleset = join(import.meta.dirname, "..", ".spectral.yaml");
  const { status, output } = await run(bin("spectral"), ["lint", "-r", ruleset, "-f", "json", "-q", ...files]);
  const byFile = new Map(files.map((file) => [resolve(file), [] as string[]]));
  const json = output.slice(output.indexOf("["), output.lastIndexOf("]") + 1);
  const results = json === "" ? [] : (JSON.parse(json) as SpectralResult[]);
  for (const result of results.filter((each) => each.severity <= 1))
    byFile.get(resolve(result.source ?? ""))?.push(`${result.code} at ${result.path.join(".")}: ${result.message}`);
  if (json === "" || (status !== 0 && [...byFile.values()].every((problems) => problems.length === 0)))
    for (const problems of byFile.values()) problems.push(`spectral exited ${status}: ${output}`);
  return byFile;
}

/** openapi-typescript generating types from the document; any failure or error line is a problem. */
export async function openapiTypescriptProblems(file: string): Promise<string[]> {
  const out = join(scratch(), "types.ts");
  const { status, output } = await run(bin("openapi-typescript"), [file, "-o", out]);
  const problems = output.split("\n").filter((line) => /error|✘|✖/i.test(line));
  if (status !== 0) problems.push(`openapi-typescript exited ${status}: ${output}`);
  else if (!readFileSync(out, "utf8").includes("export interface paths")) problems.push("no paths type generated");
  return problems;
}

/** A port free at the time of asking. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A Prism mock serving one document, or the reasons it did not start. */
export interface PrismMock {
  url?: string;
  problems: string[];
  stop(): void;
}

/**
 * Starts `prism mock` on the document. Prism resolves and compiles the whole document before it listens, so
 * reaching "listening" with no error or fatal line is the check that Prism reads it.
 */
export async function startPrism(file: string): Promise<PrismMock> {
  const port = await freePort();
  const child: ChildProcess = spawn(bin("prism"), ["mock", "-h", "127.0.0.1", "-p", String(port), file], { env });
  const stop = (): void => {
    child.kill();
  };
  return new Promise((resolve) => {
    let output = "";
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) {
        const problems = output.split("\n").filter((line) => /\b(error|fatal)\b|✖/i.test(line));
        resolve({ url: `http://127.0.0.1:${port}`, problems, stop });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("close", (status) => resolve({ problems: [`prism exited ${status} before listening: ${output}`], stop }));
  });
}

interface Arazzo {
  sourceDescriptions: { name: string }[];
  components?: { inputs?: Record<string, { properties?: Record<string, unknown> }> };
}

/**
 * Redocly Respect over the workflows `redocly generate-arazzo` writes for the document (one call per
 * operation), run against a server of that document. Respect checks every answer's status, content type and
 * body against the document, compiling each response schema (discriminators included) with its own Ajv.
 * Credentials are placeholders: the Prism mock does not check them.
 */
export async function respectProblems(file: string, serverUrl: string): Promise<string[]> {
  const arazzoFile = join(scratch(), "workflows.arazzo.yaml");
  const generated = await run(bin("redocly"), ["generate-arazzo", file, "-o", arazzoFile]);
  if (generated.status !== 0) return [`generate-arazzo exited ${generated.status}: ${generated.output}`];
  const arazzo = parse(readFileSync(arazzoFile, "utf8")) as Arazzo;
  const inputs = Object.values(arazzo.components?.inputs ?? {}).flatMap((input) =>
    Object.keys(input.properties ?? {}).flatMap((name) => ["--input", `${name}=placeholder`]),
  );
  const servers = arazzo.sourceDescriptions.flatMap(({ name }) => ["-S", `${name}=${serverUrl}`]);
  // Prism can take long to answer on a loaded CI machine; 120 s per request bounds a hang, it is no speed target.
  const timeout = ["--max-fetch-timeout", "120000"];
  const { status, output } = await run(bin("redocly"), ["respect", arazzoFile, ...servers, ...inputs, ...timeout]);
  if (status === 0) return [];
  const failures = output
    .split("\n")
    .filter((line) => /✗|error/i.test(line))
    .map((line) => line.trim());
  return failures.length > 0 ? failures : [`respect exited ${status}: ${output}`];
}
