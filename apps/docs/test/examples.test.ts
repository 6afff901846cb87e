// Every code block of the guides and the package READMEs, run as written (see "Examples that run" in the README):
// one gateway per page, started as `npm start` starts it, and the mock for a page that uses it. A block that
// fails fails its page's test with the block's line and output.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMock, type RunningMock } from "@lrg/mock";
import { describe, expect, it } from "vitest";
import { codeBlocks, exchangesWithoutCurl, REPO_ROOT, runPage, typeCheckPages } from "./support/examples.js";
import { SANDBOX_TOKEN, startDocsGateway } from "./support/gateway.js";
// @ts-expect-error: a plain .mjs script without types; it exports samplePdf().
import { samplePdf } from "../../../examples/make-sample-pdf.mjs";

const GUIDES = readdirSync(join(REPO_ROOT, "apps", "docs", "guides"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => join("apps", "docs", "guides", name));
const READMES = [
  "README.md",
  "packages/client/README.md",
  "packages/conformance/README.md",
  "apps/mock/README.md",
  "apps/gateway/README.md",
  "apps/docs/README.md",
  "examples/README.md",
].filter((path) => existsSync(join(REPO_ROOT, path)));

/** The mock's documented address, replaced by a mock on a free port for a page that uses it. */
const MOCK_DEFAULT = "http://127.0.0.1:4010";

describe("the TypeScript snippets of every page", () => {
  it("compile against @lrg/client's types", { timeout: 600_000 }, async () => {
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-types-"));
    try {
      const pages = new Map([...GUIDES, ...READMES].map((path) => [path, readFileSync(join(REPO_ROOT, path), "utf8")]));
      expect(Object.fromEntries(await typeCheckPages(pages, workDir))).toEqual({});
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});

// Pages are independent (each its own gateway, mock and scratch directory), so they run side by side.
describe.concurrent.each([...GUIDES, ...READMES])("%s", (path) => {
  const markdown = readFileSync(join(REPO_ROOT, path), "utf8");

  it("runs every example that is not marked not-run", { timeout: 900_000 }, async () => {
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-page-"));
    const gateway = await startDocsGateway();
    let mock: RunningMock | undefined;
    try {
      if (markdown.includes(MOCK_DEFAULT)) mock = await startMock();
      await runPage(markdown, {
        workDir,
        substitutions: [...gateway.substitutions, ...(mock ? [[MOCK_DEFAULT, mock.url] as const] : [])],
        env: { LRG_SANDBOX_TOKEN: SANDBOX_TOKEN },
      });
    } finally {
      await mock?.close();
      await gateway.stop();
      rmSync(workDir, { recursive: true, force: true });
    }
  });

  it.runIf(path.includes("guides"))("pairs every raw request with a curl command in the same section", () => {
    expect(exchangesWithoutCurl(codeBlocks(markdown))).toEqual([]);
  });
});

describe("examples/", () => {
  it("holds the sample PDF that make-sample-pdf.mjs writes", () => {
    expect(readFileSync(join(REPO_ROOT, "examples", "tr1-signed.pdf")).equals(samplePdf() as Buffer)).toBe(true);
  });

  it("holds a submission body that names the sample TR1", () => {
    const submission = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "submission.json"), "utf8")) as {
      documents: Record<string, { type: string }>;
    };
    expect(Object.values(submission.documents).map((document) => document.type)).toEqual(["TR1"]);
  });
});
