// "Adding an operation, step by step" (README.md) followed for a made-up operation, in a scratch copy of the
// repository: the spec and the gateway are edited and nothing else, then the commands the README names are run as
// written. The conformance suite's fuzzer, its business-unit isolation check, Prism, the client's types and the docs
// then cover the new operation with no edit of their own. The scratch copy shares this checkout's installed
// dependencies (its node_modules are links) and builds its own packages.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repository = join(import.meta.dirname, "..", "..", "..");
const OPERATION = "getApplicationSummary";
const PATH = "/v1/applications/{id}/summary";

/** The files a contributor edits by hand, each as written here. */
const EDITS: Record<string, (before: string) => string> = {
  "spec/paths/applications/application-summary.yaml": () => `get:
  operationId: ${OPERATION}
  summary: Application summary
  tags: [applications]
  x-lrg-source: design
  x-lrg-scope: business-unit
  description: |
    One application's status alone, by the application_request_id that the submission answered (made up by the
    gateway's test of adding an operation). An unknown id, or another business unit's, is 404.
  parameters:
    - name: id
      in: path
      required: true
      description: The application_request_id.
      schema:
        $ref: ../../components/schemas/Uuid.yaml
  responses:
    "200":
      description: The application's status.
      content:
        application/json:
          schema:
            type: object
            x-lrg-source: design
            required: [data]
            properties:
              data:
                type: object
                x-lrg-source: design
                required: [application_request_id, status]
                properties:
                  application_request_id:
                    $ref: ../../components/schemas/Uuid.yaml
                  status:
                    $ref: ../../components/schemas/ApplicationStatus.yaml
          examples:
            validating:
              summary: An application being validated
              value: { data: { application_request_id: 3f2b8a4e-1c9d-4e7f-8a6b-2d5c9e0f1a3b, status: VALIDATING } }
    "400":
      $ref: ../../components/responses/BadRequest.yaml
    "401":
      $ref: ../../components/responses/Unauthorized.yaml
    "404":
      $ref: ../../components/responses/NotFound.yaml
    "429":
      $ref: ../../components/responses/TooManyRequests.yaml
    "503":
      $ref: ../../components/responses/ServiceUnavailable.yaml
`,
  "spec/openapi.yaml": (before) =>
    before.replace(
      "  /v0/applications/{id}/information:\n",
      `  ${PATH}:\n    $ref: paths/applications/application-summary.yaml\n  /v0/applications/{id}/information:\n`,
    ),
  "apps/gateway/src/applications/routes.ts": (before) =>
    before
      .replace(
        '"getApplicationInformation" | "attachDocument"',
        `"getApplicationInformation" | "${OPERATION}" | "attachDocument"`,
      )
      .replace(
        "    attachDocument: async ({ principal, params, body }) => {",
        `    ${OPERATION}: async ({ principal, params }) => {
      const { status } = await applications.information(principal, params.id);
      return { status: 200, body: { data: { application_request_id: params.id, status } } };
    },
    attachDocument: async ({ principal, params, body }) => {`,
      ),
};

let scratch: string;

/** Runs a command in the scratch copy as a contributor would; throws with its output when it fails. */
function run(command: string, args: string[], cwd = scratch): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Folders that are installed or built, never a contributor's sources. */
const NOT_SOURCES = new Set(["node_modules", ".git", "dist", "dist-ts", ".turbo", ".data", "test-output"]);

/**
 * The repository's source files, relative to it: what git tracks, or in a copy of the tree that is not a git checkout
 * (CI's run on another Node copies the working tree), every file outside installed and built folders.
 */
function sourceFiles(): string[] {
  const git = spawnSync("git", ["ls-files", "-z"], { cwd: repository, encoding: "utf8" });
  if (git.status === 0) return git.stdout.split("\0").filter(Boolean);
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(repository, folder), { withFileTypes: true })) {
      if (NOT_SOURCES.has(entry.name)) continue;
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  walk("");
  return files;
}

/** A copy of the repository's source files, with links to this checkout's installed dependencies. */
function scratchCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), "lrg-adding-an-operation-"));
  const tracked = sourceFiles();
  for (const file of tracked) {
    if (!existsSync(join(repository, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(repository, file), join(copy, file));
  }
  symlinkSync(join(repository, "node_modules"), join(copy, "node_modules"));
  // Each package's own node_modules holds relative links (to the root's store, to the other packages): copied as
  // links, they lead to the scratch copy's packages.
  for (const manifest of tracked.filter((file) => /^.+\/package\.json$/.test(file))) {
    const modules = join(repository, dirname(manifest), "node_modules");
    if (existsSync(modules))
      cpSync(modules, join(copy, dirname(manifest), "node_modules"), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (source) => !/[/\\]\.vite(-temp)?([/\\]|$)/.test(source),
      });
  }
  return copy;
}

const pnpm = ["--yes", "pnpm@10.34.8"];

beforeAll(() => {
  scratch = scratchCopy();
  for (const [file, edit] of Object.entries(EDITS)) {
    const path = join(scratch, file);
    writeFileSync(path, edit(existsSync(path) ? readFileSync(path, "utf8") : ""));
  }
}, 120_000);
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("adding an operation, as README.md says", () => {
  it("takes at most 8 files edited by hand, none of them in packages/conformance", () => {
    expect(Object.keys(EDITS).length).toBeLessThanOrEqual(8);
    expect(Object.keys(EDITS).filter((file) => file.startsWith("packages/conformance/"))).toEqual([]);
  });

  it("regenerates, type checks and builds with the commands the READMEs name", () => {
    // spec/README.md step 4, then the gateway's check (README.md "Adding an operation", step 2 and the last line).
    run("npx", [...pnpm, "--filter", "@lrg/spec", "generate"]);
    // turbo with the pinned pnpm, as `npm start` runs it, but never an install: the scratch copy's dependencies are
    // this checkout's.
    run("npx", [...pnpm, "exec", "turbo", "run", "build"]);
    run("npx", [...pnpm, "--filter", "@lrg/gateway", "check"]);
    const generated = readFileSync(join(scratch, "spec/src/generated/openapi.ts"), "utf8");
    expect(generated).toContain(`"${PATH}"`);
  }, 900_000);

  it("is fuzzed, reached with success and checked for isolation by the conformance suite, unedited", () => {
    const report = join(scratch, "fuzz-report.json");
    run("node", [
      "packages/conformance/dist/cli.js",
      "--target",
      "gateway",
      "--fuzz",
      "1500",
      "--seed",
      "20261127",
      "--report",
      report,
    ]);
    const summary = JSON.parse(readFileSync(report, "utf8")) as {
      unaddressed: string[];
      neverSucceeded: string[];
      isolationChecked: string[];
      violationCount: number;
    };
    expect(summary.violationCount).toBe(0);
    expect(summary.unaddressed).toEqual([]);
    expect(summary.neverSucceeded).toEqual([]);
    expect(summary.isolationChecked).toContain(OPERATION);
  }, 300_000);

  it("is in the client's types: a call of it type checks, a wrong member of its answer does not", () => {
    const client = join(scratch, "packages/client");
    const call = (member: string) => `import { createGatewayClient } from "./dist/index.js";
const client = createGatewayClient({ baseUrl: "http://127.0.0.1:1", username: "u", password: "p" });
const { data } = await client.GET("${PATH}", { params: { path: { id: "3f2b8a4e-1c9d-4e7f-8a6b-2d5c9e0f1a3b" } } });
export const status: string | undefined = data?.data.${member};
`;
    const compile = (member: string) => {
      writeFileSync(join(client, "summary-call.ts"), call(member));
      return spawnSync(
        join(client, "node_modules/.bin/tsc"),
        ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "nodenext", "summary-call.ts"],
        { cwd: client, encoding: "utf8" },
      );
    };
    expect(compile("status").status, compile("status").stdout).toBe(0);
    expect(compile("state").stdout).toContain("state");
  }, 120_000);

  it("is in the docs' reference, and Prism answers it from its example", async () => {
    const reference = readFileSync(join(scratch, "apps/docs/dist/reference.html"), "utf8");
    expect(reference).toContain(OPERATION);
    const answer = run(
      "node",
      [
        "--input-type=module",
        "-e",
        `import { startMock } from "./dist/index.js";
const mock = await startMock({ port: 0 });
try {
  const response = await fetch(mock.url + "/v1/applications/3f2b8a4e-1c9d-4e7f-8a6b-2d5c9e0f1a3b/summary", {
    headers: { authorization: "Basic " + Buffer.from("u:p").toString("base64") },
  });
  console.log(JSON.stringify({ status: response.status, body: await response.json() }));
} finally {
  await mock.close();
}`,
      ],
      join(scratch, "apps/mock"),
    );
    expect(JSON.parse(answer.trim().split("\n").at(-1) ?? "{}")).toEqual({
      status: 200,
      body: { data: { application_request_id: "3f2b8a4e-1c9d-4e7f-8a6b-2d5c9e0f1a3b", status: "VALIDATING" } },
    });
  }, 120_000);
});
