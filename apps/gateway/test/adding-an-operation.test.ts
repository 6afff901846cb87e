// "Adding an operation, step by step" (README.md) followed for two made-up operations, in one scratch copy of the
// repository: one reads through a service method that exists; the other reads what nothing reads yet, through a new
// method on its domain's port of the store (step 5, a read-only operation). The spec and the gateway are edited and
// nothing else, then the commands the README names are run as written. The conformance suite's fuzzer, its
// business-unit isolation check, Prism, the client's types and the docs then cover the new operations with no edit of
// their own; the second's contract case runs on both stores. The scratch copy shares this checkout's installed
// dependencies (its node_modules are links) and builds its own packages, once for both operations.
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

/**
 * The description of a made-up operation on one of the unit's applications, by its id (`spec/paths/applications/`):
 * it answers the application's id and one `member` of `schema` (YAML, after the member's name), or a documented error.
 */
function operationOnAnApplication(operation: {
  operationId: string;
  summary: string;
  /** Its lines after the first indented by four spaces, as YAML's block of the description. */
  description: string;
  /** The description of its 200 answer. */
  answered: string;
  member: string;
  schema: string;
  example: { name: string; summary: string; value: string };
}): string {
  return `get:
  operationId: ${operation.operationId}
  summary: ${operation.summary}
  tags: [applications]
  x-lrg-source: design
  x-lrg-scope: business-unit
  description: |
    ${operation.description}
  parameters:
    - name: id
      in: path
      required: true
      description: The application_request_id.
      schema:
        $ref: ../../components/schemas/Uuid.yaml
  responses:
    "200":
      description: ${operation.answered}
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
                required: [application_request_id, ${operation.member}]
                properties:
                  application_request_id:
                    $ref: ../../components/schemas/Uuid.yaml
                  ${operation.member}:
                    ${operation.schema}
          examples:
            ${operation.example.name}:
              summary: ${operation.example.summary}
              value: { data: { application_request_id: 3f2b8a4e-1c9d-4e7f-8a6b-2d5c9e0f1a3b, ${operation.member}: ${operation.example.value} } }
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
`;
}

/** `spec/openapi.yaml` with `path`, described in `file` of `paths/applications/`, listed before application information. */
const listedBeforeInformation = (path: string, file: string) => (before: string) =>
  before.replace(
    "  /v0/applications/{id}/information:\n",
    `  ${path}:\n    $ref: paths/applications/${file}\n  /v0/applications/{id}/information:\n`,
  );

/** The files a contributor edits by hand, each as written here. */
const EDITS: Record<string, (before: string) => string> = {
  "spec/paths/applications/application-summary.yaml": () =>
    operationOnAnApplication({
      operationId: OPERATION,
      summary: "Application summary",
      description: `One application's status alone, by the application_request_id that the submission answered (made up by the
    gateway's test of adding an operation). An unknown id, or another business unit's, is 404.`,
      answered: "The application's status.",
      member: "status",
      schema: "$ref: ../../components/schemas/ApplicationStatus.yaml",
      example: { name: "validating", summary: "An application being validated", value: "VALIDATING" },
    }),
  "spec/openapi.yaml": listedBeforeInformation(PATH, "application-summary.yaml"),
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

/** The operation that reads through storage: how many documents and messages an application was given after its submission. */
const STORED_OPERATION = "getApplicationAttachmentCount";
const STORED_PATH = "/v1/applications/{id}/attachment-count";

/** Its contract case, on the port's `describe` of the storage contract. */
const CONTRACT_CASE = "counts an application's attachments, and no other's";

/** The files a contributor edits by hand for it, each as written here: README.md step 5, a read-only operation. */
const STORAGE_EDITS: Record<string, (before: string) => string> = {
  "spec/paths/applications/application-attachment-count.yaml": () =>
    operationOnAnApplication({
      operationId: STORED_OPERATION,
      summary: "Application attachment count",
      description: `How many documents and messages were attached to one application after its submission, by its
    application_request_id (made up by the gateway's test of adding an operation that reads through storage). An
    unknown id, or another business unit's, is 404.`,
      answered: "The application's attachment count.",
      member: "attachment_count",
      schema: "type: integer\n                    minimum: 0",
      example: { name: "none", summary: "An application given nothing since its submission", value: "0" },
    }),
  "spec/openapi.yaml": listedBeforeInformation(STORED_PATH, "application-attachment-count.yaml"),
  "apps/gateway/src/applications/routes.ts": (before) =>
    before.replace('| "attachMessage">', `| "attachMessage" | "${STORED_OPERATION}">`).replace(
      "    attachMessage: async ({ principal, params, body }) => {",
      `    ${STORED_OPERATION}: async ({ principal, params }) => ({
      status: 200,
      body: {
        data: { application_request_id: params.id, attachment_count: await applications.attachmentCount(principal, params.id) },
      },
    }),
    attachMessage: async ({ principal, params, body }) => {`,
    ),
  "apps/gateway/src/applications/service.ts": (before) =>
    before.replace(
      "  async information(",
      `  /** How many documents and messages were attached to the unit's application after its submission. */
  async attachmentCount(principal: Principal, id: string): Promise<number> {
    if (!(await this.#deps.storage.findApplication(id, principal.businessUnitId)))
      throw new Problem("404-01", \`no application \${id}\`);
    return this.#deps.storage.countAttachments(id);
  }

  async information(`,
    ),
  "apps/gateway/src/storage/ports/applications.ts": (before) =>
    before.replace(
      "  correspondenceOf(applicationId: string): Promise<CorrespondenceRow[]>;\n",
      `  correspondenceOf(applicationId: string): Promise<CorrespondenceRow[]>;
  /** How many documents and messages were attached to an application after its submission. */
  countAttachments(applicationId: string): Promise<number>;
`,
    ),
  "apps/gateway/src/storage/sqlite/applications.ts": (before) =>
    before.replace(
      "    async pendingAttachments(limit) {",
      `    async countAttachments(applicationId) {
      return read("SELECT count(*) FROM attachments WHERE application_id = ?").pluck().get(applicationId) as number;
    },

    async pendingAttachments(limit) {`,
    ),
  "apps/gateway/src/storage/postgres/applications.ts": (before) =>
    before.replace(
      "    async pendingAttachments(limit) {",
      `    async countAttachments(applicationId) {
      const { rows } = await db.query<{ count: string }>(
        "SELECT count(*) FROM attachments WHERE application_id = $1",
        [applicationId],
      );
      return Number(rows[0]?.count ?? 0);
    },

    async pendingAttachments(limit) {`,
    ),
  "apps/gateway/test/storage-contract.test.ts": (before) =>
    before.replace(
      /function applicationCases\([\s\S]*?\): void \{\n/,
      (opening) => `${opening}  it("${CONTRACT_CASE}", async () => {
    const { port: applications, unit } = given;
    const [row, other] = [application(unit), application(unit)];
    for (const each of [row, other]) await applications.submitApplication(each, newKey());
    const message = {
      businessUnitId: unit,
      kind: "MESSAGE" as const,
      documentId: null,
      certificationStatementType: null,
      messageText: "m",
      createdMs: NOW,
    };
    await applications.insertAttachment({ ...message, applicationId: row.id });
    await applications.insertAttachment({ ...message, applicationId: row.id });
    await applications.insertAttachment({ ...message, applicationId: other.id });
    expect(await applications.countAttachments(row.id)).toBe(2);
    expect(await applications.countAttachments(other.id)).toBe(1);
    expect(await applications.countAttachments(randomUUID())).toBe(0);
  });

`,
    ),
};

let scratch: string;

/** Runs a command in the scratch copy as a contributor would; answers its status and its output. */
function attempt(command: string, args: string[], cwd = scratch): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

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
  // Both operations in one copy, built once: where both edit a file, the second edits what the first wrote.
  for (const edits of [EDITS, STORAGE_EDITS])
    for (const [file, edit] of Object.entries(edits)) {
      const path = join(scratch, file);
      const before = existsSync(path) ? readFileSync(path, "utf8") : "";
      const after = edit(before);
      if (after === before) throw new Error(`the edit of ${file} found nothing to change`);
      writeFileSync(path, after);
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
    expect(summary.isolationChecked).toContain(STORED_OPERATION);
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

describe("adding an operation that reads through storage, as README.md says (step 5, a read-only operation)", () => {
  it("takes a method on its domain's port, in both stores, and a contract case: at most 8 files, no migration, no write", () => {
    const files = Object.keys(STORAGE_EDITS);
    expect(files.length).toBeLessThanOrEqual(8);
    expect(files).toEqual(
      expect.arrayContaining([
        "apps/gateway/src/storage/ports/applications.ts",
        "apps/gateway/src/storage/sqlite/applications.ts",
        "apps/gateway/src/storage/postgres/applications.ts",
        "apps/gateway/test/storage-contract.test.ts",
      ]),
    );
    expect(files.filter((file) => /migrations|writes|packages\/conformance\//.test(file))).toEqual([]);
  });

  it("is held by the type checker until both stores have the port's new method", () => {
    // The port's method without its implementations, as a contributor has it halfway through step 5.
    const stores = [
      "apps/gateway/src/storage/sqlite/applications.ts",
      "apps/gateway/src/storage/postgres/applications.ts",
    ];
    const edited = stores.map((file) => readFileSync(join(scratch, file), "utf8"));
    try {
      for (const file of stores) cpSync(join(repository, file), join(scratch, file));
      const { status, output } = attempt("npx", [
        "tsc",
        "--noEmit",
        "--noCheck",
        "false",
        "-p",
        "apps/gateway/tsconfig.build.json",
      ]);
      expect(status).not.toBe(0);
      // One error a store, in the store's module: its port's object lacks the method.
      for (const file of stores) {
        const where = file.replace("apps/gateway/", "");
        expect(
          output.split("\n").filter((line) => line.includes(where) && line.includes("countAttachments")),
        ).toHaveLength(1);
      }
    } finally {
      stores.forEach((file, index) => writeFileSync(join(scratch, file), edited[index] ?? ""));
    }
  }, 300_000);

  it("passes its contract case on both stores", () => {
    const report = join(scratch, "contract-report.json");
    run(
      "npx",
      [
        "vitest",
        "run",
        "--project",
        "gateway",
        "--maxWorkers=1",
        "test/storage-contract.test.ts",
        "-t",
        CONTRACT_CASE,
        "--reporter=json",
        `--outputFile=${report}`,
      ],
      join(scratch, "apps/gateway"),
    );
    const results = JSON.parse(readFileSync(report, "utf8")) as {
      testResults: { assertionResults: { fullName: string; status: string }[] }[];
    };
    const passed = results.testResults
      .flatMap((file) => file.assertionResults)
      .filter((test) => test.status === "passed")
      .map((test) => test.fullName);
    expect(passed.filter((name) => name.endsWith(CONTRACT_CASE)).length).toBe(2);
    expect(passed.some((name) => name.includes("SQLite"))).toBe(true);
    expect(passed.some((name) => name.includes("PostgreSQL"))).toBe(true);
  }, 300_000);
});
