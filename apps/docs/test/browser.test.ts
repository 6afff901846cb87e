// The built docs in a real browser (Debian's headless Chromium): every guide loads cleanly, the reference lists
// every operation of both documents and reads cleanly (servers, tag names, deep links), code blocks copy, pages
// fit an 800-pixel window, and the state machine picture renders with a box per status.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { marked } from "marked";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documents, operationsOf, type DocumentName, type Operation } from "@lrg/spec";
import { GUIDES, referenceAnchor } from "../src/build.js";
import { specStateMachine } from "../src/state-machine.js";
import { launchChromium, type TestBrowser } from "./support/chromium.js";
import { serveDirectory, type StaticServer } from "./support/static-server.js";

const packageDir = join(import.meta.dirname, "..");
const outputDir = join(packageDir, "test-output");
/** An operation as the reference shows it: its first tag and its summary. */
const shown = (operation: Operation) => ({
  ...operation,
  tag: operation.tags[0] ?? "default",
  summary: String(operation.operation["summary"] ?? ""),
});

/** The two reference pages and the document each shows. */
const references = [
  { file: "reference.html", spec: "registry" },
  { file: "sandbox-reference.html", spec: "sandbox" },
] as const satisfies readonly { file: string; spec: DocumentName }[];
/** The overview and every guide. */
const guidePages = [{ slug: "index" }, ...GUIDES].map((guide) => ({ slug: guide.slug, file: `${guide.slug}.html` }));

let server: StaticServer;
let browser: TestBrowser;
const external: string[] = [];

beforeAll(async () => {
  mkdirSync(outputDir, { recursive: true });
  server = await serveDirectory(join(packageDir, "dist"));
  browser = await launchChromium();
  // The copy buttons' test reads what they put on the clipboard.
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(server.url).origin });
  // The docs must work offline: nothing leaves the machine. Requests elsewhere are refused and recorded.
  await browser.context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
    external.push(url.href);
    return route.abort("blockedbyclient");
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Visit {
  page: Page;
  consoleErrors: string[];
  pageErrors: string[];
  failedResponses: string[];
}

/** Opens `path` (relative to /docs/) in a new tab `width` pixels wide; `init` runs in the page before its scripts. */
async function visit(path: string, width = 1400, init?: () => void): Promise<Visit> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  if (init !== undefined) await page.addInitScript(init);
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const failedResponses: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("response", (response) => {
    if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`);
  });
  const response = await page.goto(new URL(path, server.url).href, { waitUntil: "load" });
  expect(response?.status(), path).toBe(200);
  return { page, consoleErrors, pageErrors, failedResponses };
}

/** The code blocks that hide part of a line (wider than their box), by their first characters. */
async function clippedCodeBlocks(page: Page): Promise<string[]> {
  return page
    .locator("pre")
    .evaluateAll((blocks) =>
      blocks
        .filter((block) => block.scrollWidth > block.clientWidth + 1)
        .map((block) => (block.querySelector("code")?.textContent ?? "").slice(0, 80)),
    );
}

describe("guide pages", () => {
  it.each(guidePages.map((guide) => [guide.file] as const))("%s loads without console errors", async (file) => {
    const before = external.length;
    const { page, consoleErrors, pageErrors, failedResponses } = await visit(file);
    try {
      await page.waitForLoadState("networkidle");
      expect(consoleErrors).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(failedResponses).toEqual([]);
      expect(external.slice(before)).toEqual([]);
      // Styled (the stylesheet loaded through its relative link) and titled.
      const heading = await page.locator("article h1").first().textContent();
      expect(heading?.replace("#", "").trim()).toBeTruthy();
      expect(await page.title()).toContain(heading?.replace("#", "").trim());
      const navWidth = await page.locator("nav.site-nav").evaluate((nav) => getComputedStyle(nav).position);
      expect(navWidth).toBe("sticky");
      // Every code sample survived rendering, and each guide shows both the raw exchange and the client call.
      if (file !== "index.html") {
        expect(await page.locator("pre code.language-http").count(), "raw HTTP exchange").toBeGreaterThan(0);
        expect(await page.locator("pre code.language-ts").count(), "@lrg/client call").toBeGreaterThan(0);
      }
      // No code block hides part of a line on a 1,400-pixel page: long lines wrap inside the block.
      expect(await clippedCodeBlocks(page), "code blocks wider than their box").toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("asks for nothing outside the /docs prefix", () => {
    expect(server.misses).toEqual([]);
  });
});

describe("the API reference", () => {
  it.each(references.map((entry) => [entry.file, entry] as const))(
    "%s lists every operation by summary and operationId",
    async (file, entry) => {
      const { page, pageErrors, consoleErrors } = await visit(file);
      try {
        const operations = operationsOf(entry.spec).map(shown);
        const tags = [...new Set(operations.map((operation) => operation.tag))];
        for (const tag of tags) {
          // Redoc 3 shows one tag at a time, routed by the hash.
          await page.evaluate((hash) => {
            window.location.hash = hash;
          }, `#/${tag}`);
          for (const operation of operations.filter((candidate) => candidate.tag === tag)) {
            await page.waitForFunction((summary) => document.body.innerText.includes(summary), operation.summary, {
              timeout: 20_000,
            });
            expect(
              await page.locator(`a[href="${referenceAnchor(operation)}"]`).count(),
              operation.operationId,
            ).toBeGreaterThan(0);
          }
        }
        await page.evaluate(
          (hash) => {
            window.location.hash = hash;
          },
          `#/${tags[0] ?? ""}`,
        );
        await page.waitForTimeout(500); // let the sidebar finish its animation before the picture
        await page.screenshot({ path: join(outputDir, file.replace(".html", ".png")) });
        expect(pageErrors).toEqual([]);
        // Redoc loads its own logo from its CDN; that request is blocked here and is the only error allowed.
        expect(consoleErrors.filter((error) => !error.startsWith("Failed to load resource"))).toEqual([]);
        expect(external.every((url) => url.startsWith("https://cdn.redoc.ly/"))).toBe(true);
      } finally {
        await page.close();
      }
    },
  );
});

describe("links from the guides into the reference", () => {
  it("open the operation they name", async () => {
    const upload = operationsOf("registry")
      .map(shown)
      .find((operation) => operation.operationId === "createUploadUrl");
    if (upload === undefined) throw new Error("createUploadUrl is missing from the spec");
    const { page, pageErrors } = await visit(`reference.html${referenceAnchor(upload)}`);
    try {
      await page.waitForFunction((summary) => document.body.innerText.includes(summary), upload.summary, {
        timeout: 20_000,
      });
      expect(new URL(page.url()).hash).toBe(referenceAnchor(upload));
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("the state machine picture", () => {
  it("renders a box per status and a labelled arrow per transition", async () => {
    const machine = specStateMachine;
    const { page } = await visit("application-state-machine.html");
    try {
      const svg = page.locator("figure.diagram svg.state-machine");
      await expect.poll(() => svg.isVisible()).toBe(true);

      const statuses = await svg
        .locator("g.sm-node")
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-status")));
      expect(statuses.sort()).toEqual([...machine.statuses].sort());
      for (const status of machine.statuses) {
        const box = await svg.locator(`g.sm-node[data-status="${status}"]`).boundingBox();
        expect(box?.width, status).toBeGreaterThan(100);
        expect(await svg.locator(`g.sm-node[data-status="${status}"] text`).textContent()).toBe(status);
      }

      expect(await svg.locator("g.sm-edge").count()).toBe(machine.transitions.length);
      const labels = await svg.locator("g.sm-label").evaluateAll((groups) =>
        groups.map((group) => {
          const rect = group.getBoundingClientRect();
          return {
            from: group.getAttribute("data-from"),
            to: group.getAttribute("data-to"),
            text: Array.from(group.querySelectorAll("tspan"), (span) => span.textContent ?? "").join(" "),
            box: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
          };
        }),
      );
      for (const transition of machine.transitions) {
        const label = labels.find((candidate) => candidate.from === transition.from && candidate.to === transition.to);
        expect(label?.text.replace(/\s+/g, " "), `${transition.from} → ${transition.to}`).toContain(transition.trigger);
        expect(label?.text.replace(/ /g, "")).toContain(transition.notifications.v1);
      }
      // As drawn by the browser (real font metrics), no two labels overlap.
      for (const [i, a] of labels.entries()) {
        for (const b of labels.slice(i + 1)) {
          const apart =
            a.box.x + a.box.width <= b.box.x ||
            b.box.x + b.box.width <= a.box.x ||
            a.box.y + a.box.height <= b.box.y ||
            b.box.y + b.box.height <= a.box.y;
          expect(apart, `${a.from}→${a.to} and ${b.from}→${b.to}`).toBe(true);
        }
      }
      await page.locator("figure.diagram").screenshot({ path: join(outputDir, "state-machine.png") });
      await page.screenshot({ path: join(outputDir, "application-state-machine.png"), fullPage: true });
    } finally {
      await page.close();
    }
  });

  it("is also served on its own as an SVG file", async () => {
    const { page, consoleErrors } = await visit("state-machine.svg");
    try {
      expect(await page.locator("svg g.sm-node").count()).toBe(specStateMachine.statuses.length);
      expect(consoleErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("the overview page", () => {
  it("links every guide and both references, and shows it", async () => {
    const { page } = await visit("index.html");
    try {
      const hrefs = await page
        .locator("article a")
        .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
      for (const guide of GUIDES) expect(hrefs).toContain(`${guide.slug}.html`);
      expect(hrefs).toContain("reference.html");
      expect(hrefs).toContain("sandbox-reference.html");
      await page.screenshot({ path: join(outputDir, "index.png"), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

/** A list at the root of a document (`tags`, `servers`), each entry checked to be an object as it is read. */
function rootList(document: DocumentName, key: "tags" | "servers"): Record<string, unknown>[] {
  const list: unknown = documents[document][key];
  if (!Array.isArray(list) || list.length === 0 || list.some((entry) => typeof entry !== "object" || entry === null))
    throw new Error(`the ${document} document's ${key} is not a list of objects`);
  return list as Record<string, unknown>[];
}

/** Where the heading of a reference section (`/notifications`, `/documents/createuploadurl`) stands in the window. */
async function headingTop(page: Page, sectionId: string): Promise<number | undefined> {
  return page.evaluate((id) => {
    const heading = document.querySelector(`[data-section-id="${id}"] h1, [data-section-id="${id}"] h2`);
    return heading === null ? undefined : Math.round(heading.getBoundingClientRect().top);
  }, sectionId);
}

describe("the API reference reads cleanly", () => {
  it.each(references.map((entry) => [entry.file, entry] as const))(
    "%s shows the servers' descriptions as plain text",
    async (file, entry) => {
      const { page } = await visit(file);
      try {
        const panel = page.locator('[data-testid="panel-servers"]');
        await expect.poll(() => panel.isVisible()).toBe(true);
        const text = await panel.innerText();
        for (const server of rootList(entry.spec, "servers")) {
          expect(text).toContain(String(server["url"]));
          expect(text).toContain(String(server["description"]));
        }
        // Redoc shows a server's description as text, not Markdown: a backtick would be shown as one.
        expect(text).not.toContain("`");
      } finally {
        await page.close();
      }
    },
  );

  it.each(references.map((entry) => [entry.file, entry] as const))(
    "%s names each tag in the side menu and its heading by x-displayName",
    async (file, entry) => {
      const { page } = await visit(file);
      try {
        for (const tag of rootList(entry.spec, "tags")) {
          const name = String(tag["name"]);
          const displayName = tag["x-displayName"];
          expect(typeof displayName, `x-displayName of the tag ${name}`).toBe("string");
          const link = page.locator(`[data-component-name="Menu/Menu"] a[href="#/${name}"]`).first();
          await expect.poll(() => link.isVisible()).toBe(true);
          expect((await link.innerText()).trim()).toBe(displayName);
        }
        const [first] = rootList(entry.spec, "tags");
        await page.evaluate(
          (hash) => {
            window.location.hash = hash;
          },
          `#/${String(first?.["name"])}`,
        );
        const heading = page.locator(`[data-section-id="/${String(first?.["name"])}"] h2`).first();
        await expect.poll(() => heading.isVisible()).toBe(true);
        expect((await heading.innerText()).trim()).toBe(first?.["x-displayName"]);
      } finally {
        await page.close();
      }
    },
  );

  const upload = operationsOf("registry").find((operation) => operation.operationId === "createUploadUrl");
  const deepLinks = [
    // Redoc 2's forms (the issue's, and an operation's), followed before Redoc starts, and a guide's link.
    { link: "#tag/notifications", section: "/notifications" },
    { link: "#operation/createUploadUrl", section: "/documents/createuploadurl" },
    { link: upload === undefined ? "#/missing" : referenceAnchor(upload), section: "/documents/createuploadurl" },
  ];
  /** Records whether Redoc's "No page at this address" was ever shown, however briefly. */
  const watchFor404 = (): void => {
    new MutationObserver(() => {
      if (document.body?.innerText.includes("No page at this address")) document.documentElement.dataset["saw404"] = "";
    }).observe(document, { subtree: true, childList: true, characterData: true });
  };
  it.each([1400, 800].flatMap((width) => deepLinks.map((entry) => [entry.link, width, entry] as const)))(
    "a deep link %s shows its section's heading at the top of a %i-pixel window: no 404 on the way, no empty band",
    async (link, width, { section }) => {
      const { page, pageErrors } = await visit(`reference.html${link}`, width, watchFor404);
      try {
        // Redoc scrolls again while the sections around the target render: wait for the heading to settle.
        await expect
          .poll(() => headingTop(page, section), { timeout: 20_000 })
          .toSatisfy((top) => top !== undefined && top >= 0 && top <= 32);
        await page.waitForTimeout(500);
        const top = await headingTop(page, section);
        expect(top, `heading of ${section} from the top of the window`).toBeGreaterThanOrEqual(0);
        expect(top).toBeLessThanOrEqual(32);
        expect(new URL(page.url()).hash).toBe(`#${section}`);
        expect(await page.evaluate(() => document.documentElement.dataset["saw404"]), "Redoc's 404 shown").toBe(
          undefined,
        );
        if (link.startsWith("#tag/"))
          await page.screenshot({ path: join(outputDir, `reference-deep-link-${width}.png`) });
        expect(pageErrors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});

/** The code of each fenced or indented block of a guide, in page order, as its Markdown source holds it. */
function codeBlocksOf(slug: string): string[] {
  const blocks: string[] = [];
  const tokens = marked.lexer(readFileSync(join(packageDir, "guides", `${slug}.md`), "utf8"));
  // walkTokens answers the promises of asynchronous extensions; plain Markdown has none.
  void marked.walkTokens(tokens, (token) => {
    if (token.type === "code") blocks.push(token.text);
  });
  return blocks;
}

describe("code blocks of the guides", () => {
  it.each(guidePages.map((guide) => [guide.file, guide] as const))(
    "%s: every block has a Copy button that copies exactly its code",
    async (file, { slug }) => {
      const want = codeBlocksOf(slug);
      expect(want.length).toBeGreaterThan(0);
      const { page, pageErrors } = await visit(file);
      try {
        expect(await page.locator("pre > code").count()).toBe(want.length);
        const buttons = page.getByRole("button", { name: "Copy code" });
        expect(await buttons.count()).toBe(want.length);
        expect(await page.locator("pre > button.copy-code").count()).toBe(want.length);
        await page.evaluate(() => {
          const said: string[] = [];
          (window as unknown as { lrgSaid: string[] }).lrgSaid = said;
          const watched = [...document.querySelectorAll("pre > button.copy-code, [role=status]")];
          const observer = new MutationObserver(() => {
            for (const element of watched) if (element.textContent) said.push(element.textContent);
          });
          for (const element of watched)
            observer.observe(element, { childList: true, characterData: true, subtree: true });
        });
        for (const [index, code] of want.entries()) {
          await buttons.nth(index).click();
          // The clipboard, read back: the block's code, not the button's label nor the language line. The write is
          // asynchronous: on a busy machine it may land after the click returns.
          await expect
            .poll(() => page.evaluate(() => navigator.clipboard.readText()), { message: `block ${index + 1}` })
            .toBe(code);
        }
        // The label and the status line go back after a moment: on a busy machine that moment may pass before they
        // are read, so what they said is recorded as it changes.
        const said = await page.evaluate(() => (window as unknown as { lrgSaid: string[] }).lrgSaid);
        expect(said).toContain("Copied");
        expect(said).toContain("Code copied to the clipboard");
        expect(pageErrors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it("copies through the copy command where the Clipboard API is missing (plain http on another host)", async () => {
    const { page } = await visit("getting-started.html", 1400, () => {
      Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined, configurable: true });
      // Heard after the button's own listener (on the document) has put the text on the event.
      window.addEventListener("copy", (event) => {
        document.documentElement.dataset["copied"] = event.clipboardData?.getData("text/plain") ?? "";
      });
    });
    try {
      const want = codeBlocksOf("getting-started");
      const buttons = page.getByRole("button", { name: "Copy code" });
      for (const index of [0, want.length - 1]) {
        await buttons.nth(index).click();
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset["copied"])).toBe(want[index]);
        await expect.poll(() => buttons.nth(index).innerText()).toBe("Copied");
      }
    } finally {
      await page.close();
    }
  });
});

describe("guides in an 800-pixel window", () => {
  it.each(guidePages.map((guide) => [guide.file] as const))(
    "%s does not scroll sideways, and each table scrolls inside its own box",
    async (file) => {
      const { page } = await visit(file, 800);
      try {
        const page800 = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(page800.scrollWidth, "page width").toBeLessThanOrEqual(page800.clientWidth);
        const tables = await page.locator("article table").evaluateAll((found) =>
          found.map((table) => {
            const box = table.parentElement;
            const column = table.closest("article")?.getBoundingClientRect();
            const boxRect = box?.getBoundingClientRect();
            return {
              head: (table.querySelector("tr")?.textContent ?? "").slice(0, 60),
              inScrollBox: box?.classList.contains("table-scroll") === true,
              overflowX: box === null ? "" : getComputedStyle(box).overflowX,
              insideColumn: column !== undefined && boxRect !== undefined && boxRect.right <= column.right + 0.5,
              // Everything of the table can be scrolled to.
              reachable: box !== null && box.scrollWidth >= table.getBoundingClientRect().width - 0.5,
            };
          }),
        );
        const wanted = { inScrollBox: true, overflowX: "auto", insideColumn: true, reachable: true };
        for (const table of tables) expect(table, table.head).toEqual({ ...table, ...wanted });
        expect(await clippedCodeBlocks(page), "code blocks wider than their box").toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});

describe("screenshots to look at", () => {
  const views = [
    { name: "index", path: "index.html", scrollTo: undefined },
    { name: "reference", path: "reference.html", scrollTo: undefined },
    { name: "getting-started", path: "getting-started.html", scrollTo: undefined },
    { name: "getting-started-table", path: "getting-started.html", scrollTo: "article .table-scroll" },
    { name: "getting-started-code", path: "getting-started.html", scrollTo: "article pre" },
  ];
  it.each([1400, 800].flatMap((width) => views.map((view) => [view.name, width, view] as const)))(
    "%s at %i pixels",
    async (name, width, { path, scrollTo }) => {
      const { page } = await visit(path, width);
      try {
        if (path.startsWith("reference"))
          await expect.poll(() => page.locator('[data-component-name="Menu/Menu"]').isVisible()).toBe(true);
        if (scrollTo !== undefined)
          await page
            .locator(scrollTo)
            .first()
            .evaluate((element) => element.scrollIntoView());
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(outputDir, `${name}-${width}.png`) });
      } finally {
        await page.close();
      }
    },
  );
});
