// The example runner itself: a page whose examples work passes, and one wrong member name (in a curl body or in a
// snippet), or a snippet that throws, fails the run and names the block. The guides' own run is examples.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blockProblems,
  codeBlocks,
  curlsThatCannotFail,
  ExampleError,
  exchangesWithoutCurl,
  leftInRepositoryRoot,
  REPO_ROOT,
  runPage,
  typeCheckPages,
} from "./support/examples.js";
import { startDocsGateway, type StartedGateway } from "./support/gateway.js";

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

describe("codeBlocks", () => {
  it("reads language, line, section, not-run reason and file caption", () => {
    const blocks = codeBlocks(fixture("working-page.md"));
    expect(blocks.map((block) => [block.lang, block.line])).toEqual([
      ["sh", 5],
      ["sh", 9],
      ["http", 15],
      ["yaml", 20],
      ["ts", 24],
      ["ts", 31],
    ]);
    expect(blocks[3]?.notRun).toBe("needs the registry's production credentials");
    expect(blocks.map((block) => block.file)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      "client.ts",
      "upload.ts",
    ]);
    expect(blocks[0]?.section).toBe("A page whose examples work");
  });

  it("refuses an unmarked block in a language it cannot run, a snippet without a file name, and JSON that does not parse", () => {
    const problems = blockProblems(
      codeBlocks('# T\n\n```yaml\na: 1\n```\n\n```ts\nconst a = 1;\n```\n\n```json\n{"a": ...}\n```\n'),
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/line 3 \(yaml\).*not-run/);
    expect(problems[1]).toMatch(/line 7 \(ts\).*\/\/ file:/);
    expect(problems[2]).toMatch(/line 11 \(json\).*does not parse/);
  });

  it("finds curl commands that would not fail on an error answer", () => {
    const page =
      "# T\n\n```sh\nA=$(curl -sS --fail-with-body http://a | jq .)\ncurl -sS \\\n  http://b | jq .\n```\n\n<!-- not-run: x -->\n```sh\ncurl http://c\n```\n";
    expect(curlsThatCannotFail(codeBlocks(page))).toEqual(["line 3: curl -sS    http://b"]);
  });

  it("finds a request transcript with no curl command in its section", () => {
    const page =
      "# T\n\n## With\n\n```http\nGET /v1/notifications HTTP/1.1\n```\n\n```sh\ncurl http://127.0.0.1:8080/v1/notifications\n```\n\n## Without\n\n```http\nPOST /v0/applications HTTP/1.1\n```\n\n```http\nHTTP/1.1 202 Accepted\n```\n";
    expect(exchangesWithoutCurl(codeBlocks(page))).toEqual(["line 15 (Without): POST /v0/applications HTTP/1.1"]);
  });
});

describe("runPage against a gateway", () => {
  let gateway: StartedGateway;
  const workDirs: string[] = [];
  const run = (name: string): ReturnType<typeof runPage> => {
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-fixture-"));
    workDirs.push(workDir);
    return runPage(fixture(name), { workDir, substitutions: gateway.substitutions, env: {} });
  };

  beforeAll(async () => {
    gateway = await startDocsGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
    for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("runs shell blocks in order, carrying variables, then the snippets, with the test gateway's address", async () => {
    const runs = await run("working-page.md");
    expect(runs.map((entry) => entry.block.line)).toEqual([5, 9, 24, 31]);
    expect(JSON.parse(runs[1]?.stdout ?? "")).toMatchObject({
      data: { upload_url: expect.stringContaining(gateway.url) },
    });
    expect(runs[3]?.stdout).toMatch(/^uploaded [0-9a-f-]{36}\n$/);
  });

  it("fails on a curl body with a wrong member name (the gateway's 400 makes curl --fail-with-body exit 22)", async () => {
    const failure = await run("broken-curl.md").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ExampleError);
    expect((failure as ExampleError).message).toMatch(/sh block at line 3 failed with exit status 22/);
    expect((failure as ExampleError).message).toContain("400-02");
  });

  it("finds a snippet with a wrong member name (it does not compile against @lrg/client's types), by page", async () => {
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-fixture-"));
    workDirs.push(workDir);
    const problems = await typeCheckPages(
      new Map([
        ["working-page.md", fixture("working-page.md")],
        ["broken-snippet.md", fixture("broken-snippet.md")],
      ]),
      workDir,
    );
    expect([...problems.keys()]).toEqual(["broken-snippet.md"]);
    expect(problems.get("broken-snippet.md")).toMatch(/^upload\.ts\(\d+,\d+\): error TS\d+: [\s\S]*documentTyp/);
  });

  it("compiles a snippet marked not-run too: it cannot run here, but a reader pastes it", async () => {
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-fixture-"));
    workDirs.push(workDir);
    const page =
      "# Balanced\n\n<!-- not-run: needs a balancer -->\n```ts\n// file: balanced.ts\nfor await (const n of client.notifications.listAll()) console.log(n);\n```\n";
    const problems = await typeCheckPages(new Map([["balanced.md", page]]), workDir);
    expect(problems.get("balanced.md")).toMatch(/^balanced\.ts\(\d+,\d+\): error TS2304: Cannot find name 'client'/);
  });

  it("fails on a real guide with one member name broken in a copy (the acknowledge body's data → date)", async () => {
    const guide = readFileSync(join(REPO_ROOT, "apps", "docs", "guides", "consuming-notifications.md"), "utf8");
    const broken = guide.replace(`-d '{"data":["0b9f8c1e`, `-d '{"date":["0b9f8c1e`);
    expect(broken).not.toBe(guide);
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-fixture-"));
    workDirs.push(workDir);
    await expect(runPage(broken, { workDir, substitutions: gateway.substitutions, env: {} })).rejects.toThrow(
      /sh block at line \d+ failed with exit status 22[\s\S]*400-02/,
    );
  });

  it("gives a snippet what its page's shell exported, and each page of one directory a new terminal", async () => {
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-fixture-"));
    workDirs.push(workDir);
    const first =
      "# First\n\n```sh\nexport GREETING=hello\nLEFT=behind\necho kept > kept.txt\n```\n\n```ts\n// file: greet.ts\nconsole.log(process.env.GREETING);\n```\n";
    const runs = await runPage(first, { workDir, substitutions: [], env: {} });
    expect(runs.map((entry) => entry.stdout)).toEqual(["", "hello\n"]);
    const second = '# Second\n\n```sh\necho "${GREETING:-unset} ${LEFT:-unset} $(cat kept.txt)"\n```\n';
    const again = await runPage(second, { workDir, substitutions: [], env: {} });
    expect(again.map((entry) => entry.stdout)).toEqual(["unset unset kept\n"]);
  });

  it("finds what a page's blocks and snippets left in the repository root beside lrg-try/, and nothing of its own", async () => {
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-fixture-"));
    workDirs.push(workDir);
    const tidy =
      '# Tidy\n\n```sh\nmkdir -p lrg-try\necho \'{}\' > lrg-try/answer.json\n```\n\n```ts\n// file: keep.ts\nimport { writeFileSync } from "node:fs";\nwriteFileSync("lrg-try/kept.txt", "kept");\n```\n';
    await runPage(tidy, { workDir, substitutions: [], env: {} });
    expect(leftInRepositoryRoot(workDir, new Set())).toEqual([]);
    const before = new Set(readdirSync(workDir));
    const untidy =
      '# Untidy\n\n```sh\necho \'{}\' > problem.json\nmkdir -p inbox\n```\n\n```ts\n// file: letter.ts\nimport { writeFileSync } from "node:fs";\nwriteFileSync("letter.pdf", "%PDF");\n```\n';
    await runPage(untidy, { workDir, substitutions: [], env: {} });
    expect(leftInRepositoryRoot(workDir, before)).toEqual(["inbox", "letter.pdf", "problem.json"]);
  });

  it("fails on a snippet that compiles but throws when it runs", async () => {
    await expect(run("failing-snippet.md")).rejects.toThrow(/ts block at line 3 \(login\.ts\) failed[\s\S]*401-01/);
  });
});
