// Every code block of the guides and the package READMEs, run as written (see "Examples that run" in the README):
// one gateway per page, started as `npm start` starts it, and the mock for a page that uses it. A block that
// fails fails its page's test with the block's line and output.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMock, type RunningMock } from "@lrg/mock";
import { describe, expect, it } from "vitest";
import { GUIDES as NAVIGATION } from "../src/build.js";
import {
  codeBlocks,
  ExampleError,
  exchangesWithoutCurl,
  leftInRepositoryRoot,
  REPO_ROOT,
  SCRATCH_FOLDER,
  runPage,
  typeCheckPages,
} from "./support/examples.js";
import { globalSandboxState, SANDBOX_TOKEN, startDocsGateway } from "./support/gateway.js";
// @ts-expect-error: a plain .mjs script without types; it exports samplePdf().
import { samplePdf } from "../../../examples/make-sample-pdf.mjs";

/** Every guide, in the order of the docs' navigation (a page the navigation does not list, such as index.md, last). */
const GUIDES = readdirSync(join(REPO_ROOT, "apps", "docs", "guides"))
  .filter((name) => name.endsWith(".md"))
  .sort((a, b) => navigationRank(a) - navigationRank(b) || a.localeCompare(b))
  .map((name) => join("apps", "docs", "guides", name));
function navigationRank(file: string): number {
  const rank = NAVIGATION.findIndex((guide) => `${guide.slug}.md` === file);
  return rank < 0 ? NAVIGATION.length : rank;
}
/** The README a newcomer reads first: run before the guides and again after them, against their gateway. */
const ROOT_README = "README.md";
/** The other READMEs: each against a gateway of its own. */
const READMES = [
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
      const pages = new Map(
        [...GUIDES, ROOT_README, ...READMES].map((path) => [path, readFileSync(join(REPO_ROOT, path), "utf8")]),
      );
      expect(Object.fromEntries(await typeCheckPages(pages, workDir))).toEqual({});
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), "utf8");

/** The guide whose last section is the readiness run a vendor gates a release on, every check at once, --strict. */
const READINESS_GUIDE = join("apps", "docs", "guides", "readiness.md");

/**
 * How a reader sets up `lrg`, as the readiness guide asks first: the command line guide's "Set up" section up to the
 * end of its first block (the demo profile; the block after it only puts registry-wide settings back).
 */
function lrgSetUp(): string {
  const page = read(join("apps", "docs", "guides", "command-line.md"));
  const section = page.indexOf("## Set up");
  const blockEnd = page.indexOf("\n```\n", page.indexOf("```sh", section)) + "\n```\n".length;
  return page.slice(section, blockEnd);
}

// A newcomer reads README.md, then every guide in order, on one `npm start`, one machine (one HOME), a new
// terminal per page; and may come back to any page later. So the guides run in one order, then in the reverse
// order, with the README before and after them, all against one gateway: a page that leaves state behind (a global
// setting, the day list closed, the global clock moved) or that needs state it does not set fails here.
//
// Meanwhile another team, on another machine (its own HOME and scratch directory) and a business unit of its own,
// follows the readiness guide beside them: once as the sequence starts, once again as its reverse half starts. Its
// last block passes only when `lrg readiness run --strict` exits 0, every check passed, as when it runs alone: what
// the guides do with the admin token (settings, the day list, the global clock, and their put-back steps) and the
// demo unit's work change nothing its run raises, observes or judges (issue 38).
describe("README.md and every guide, in order and then in reverse, on one gateway", () => {
  it("runs every example of each page, whatever ran before it or beside it", { timeout: 1_200_000 }, async () => {
    const sequence = [ROOT_README, ...GUIDES, ...[...GUIDES].reverse(), ROOT_README];
    const reverseHalf = 1 + GUIDES.length;
    const workDir = mkdtempSync(join(tmpdir(), "lrg-docs-sequence-"));
    const besideDir = mkdtempSync(join(tmpdir(), "lrg-docs-beside-"));
    const gateway = await startDocsGateway();
    const mock = await startMock();
    const environment = {
      workDir,
      substitutions: [...gateway.substitutions, [MOCK_DEFAULT, mock.url] as const],
      env: { LRG_SANDBOX_TOKEN: SANDBOX_TOKEN },
    };
    const pages = sequence.map((path) => [path, read(path)] as const);
    let beside: Promise<void> = Promise.resolve();
    try {
      // What npm start leaves, and what every page must leave as it found it: it changes a unit of its own.
      const untouched = await globalSandboxState(gateway.url);
      for (const [index, [path, markdown]] of pages.entries()) {
        if (index === 0 || index === reverseHalf) {
          const run = index === 0 ? "as the sequence starts" : "as its reverse half starts";
          beside = beside.then(() => runBeside(`${READINESS_GUIDE}, by another team ${run}`));
          // Its failure is reported when the sequence awaits it, not as an unhandled rejection before then.
          beside.catch(() => undefined);
        }
        // consume.ts downloads a correspondence notification's documents: make sure one is waiting for it.
        if (path.endsWith("consuming-notifications.md"))
          await runStep(PENDING_CORRESPONDENCE, read(PENDING_CORRESPONDENCE));
        const step = `${path} (page ${index + 1} of ${sequence.length})`;
        const before = new Set(existsSync(workDir) ? readdirSync(workDir) : []);
        await runStep(step, markdown);
        expect(await globalSandboxState(gateway.url), `the sandbox's global state after ${step}`).toEqual(untouched);
        // What a reader would find untracked in their checkout: the guides write their files in lrg-try/ only.
        expect(leftInRepositoryRoot(workDir, before), `files ${step} left beside ${SCRATCH_FOLDER}/`).toEqual([]);
      }
      await beside;
    } finally {
      // A failed page ends the test: the team beside it finishes first, so that the gateway is not stopped under it.
      await beside.catch(() => undefined);
      await mock.close();
      await gateway.stop();
      rmSync(workDir, { recursive: true, force: true });
      rmSync(besideDir, { recursive: true, force: true });
    }

    async function runStep(name: string, markdown: string, where = environment): Promise<void> {
      try {
        await runPage(markdown, where);
      } catch (error) {
        if (error instanceof ExampleError) throw new ExampleError(`${name}: ${error.message}`, error.block);
        throw error;
      }
    }

    /** The readiness guide in the other team's scratch directory, `lrg` set up first, as the guide says. */
    function runBeside(name: string): Promise<void> {
      return runStep(name, `${lrgSetUp()}\n${read(READINESS_GUIDE)}`, { ...environment, workDir: besideDir });
    }
  });
});

/** A page that leaves a correspondence notification waiting for the demo user. */
const PENDING_CORRESPONDENCE = join("apps", "docs", "test", "fixtures", "pending-correspondence.md");

// The other READMEs are independent (each its own gateway, mock and scratch directory), so they run side by side.
describe.concurrent.each(READMES)("%s", (path) => {
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
});

describe.each(GUIDES)("%s", (path) => {
  it("pairs every raw request with a curl command in the same section", () => {
    expect(exchangesWithoutCurl(codeBlocks(read(path)))).toEqual([]);
  });
});

/** The one place that says how to set up a project for the snippets, and the anchor every other page links to. */
const SNIPPET_SETUP = "getting-started.md#running-the-typescript-snippets";
const hasRunnableSnippet = (markdown: string): boolean =>
  codeBlocks(markdown).some((block) => block.lang === "ts" && block.notRun === undefined);

describe("running the TypeScript snippets", () => {
  const pages = [ROOT_README, ...GUIDES].filter((path) => hasRunnableSnippet(read(path)));

  it.each(pages.filter((path) => !path.endsWith("getting-started.md")))(
    "%s sends the reader to the one set-up, and runs snippets as it says",
    (path) => {
      const markdown = read(path);
      expect(markdown).toContain(SNIPPET_SETUP);
      // `npx tsx x.ts` from the repository root finds neither tsx nor @lrg/client (issue 32).
      expect(markdown.match(/npx tsx [\w.-]+/g) ?? []).toEqual([]);
    },
  );

  it("sets up lrg-try/ as an ES module project with the client tarball `npm run pack` writes, and tsx", () => {
    const setup = codeBlocks(read(join("apps", "docs", "guides", "getting-started.md"))).find((block) =>
      block.code.includes(`cd ${SCRATCH_FOLDER}`),
    );
    const client = JSON.parse(readFileSync(join(REPO_ROOT, "packages", "client", "package.json"), "utf8")) as {
      name: string;
      version: string;
    };
    // npm pack's name for @scope/name: scope-name-version.tgz.
    const tarball = `${client.name.replace(/^@/, "").replace("/", "-")}-${client.version}.tgz`;
    // -p: the guides' commands may have made it already, to keep their files in.
    expect(setup?.code).toContain(`mkdir -p ${SCRATCH_FOLDER}`);
    expect(setup?.code).toContain("npm pkg set type=module");
    expect(setup?.code).toContain(`npm install ../packs/${tarball} tsx`);
  });
});

describe(`${SCRATCH_FOLDER}/, where the guides write their files`, () => {
  it("is ignored by git, so that following the guides leaves nothing untracked", () => {
    const ignored = readFileSync(join(REPO_ROOT, ".gitignore"), "utf8").split("\n");
    expect(ignored).toContain(`${SCRATCH_FOLDER}/`);
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
