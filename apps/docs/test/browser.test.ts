// The built docs in a real browser (Debian's headless Chromium): every guide loads cleanly, the reference lists
// every operation of both documents, and the state machine picture renders with a box per status.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsOf, type Operation } from "@lrg/spec";
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

let server: StaticServer;
let browser: TestBrowser;
const external: string[] = [];

beforeAll(async () => {
  mkdirSync(outputDir, { recursive: true });
  server = await serveDirectory(join(packageDir, "dist"));
  browser = await launchChromium();
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

async function visit(path: string): Promise<Visit> {
  const page = await browser.context.newPage();
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

describe("guide pages", () => {
  const pages = [{ slug: "index" }, ...GUIDES];

  it.each(pages.map((guide) => [`${guide.slug}.html`] as const))("%s loads without console errors", async (file) => {
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
      const clipped = await page
        .locator("pre")
        .evaluateAll((blocks) =>
          blocks
            .filter((block) => block.scrollWidth > block.clientWidth + 1)
            .map((block) => (block.textContent ?? "").slice(0, 80)),
        );
      expect(clipped, "code blocks wider than their box").toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("asks for nothing outside the /docs prefix", () => {
    expect(server.misses).toEqual([]);
  });
});

describe("the API reference", () => {
  const documents = [
    { file: "reference.html", spec: "registry" as const },
    { file: "sandbox-reference.html", spec: "sandbox" as const },
  ];

  it.each(documents.map((entry) => [entry.file, entry] as const))(
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
