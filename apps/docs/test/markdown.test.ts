// Guides to HTML: links stay relative, placeholders are filled or refused, headings get stable anchors.
import { describe, expect, it } from "vitest";
import { markdownTitle, renderMarkdown, rewriteHref, slugify } from "../src/markdown.js";

describe("rewriteHref", () => {
  it.each([
    ["a guide", { given: "sending-a-document.md", want: "sending-a-document.html" }],
    ["a guide's section", { given: "getting-started.md#mutual-tls", want: "getting-started.html#mutual-tls" }],
    [
      "the reference",
      { given: "reference.html#/documents/createuploadurl", want: "reference.html#/documents/createuploadurl" },
    ],
    ["a section of this page", { given: "#duplicates", want: "#duplicates" }],
    ["another site", { given: "https://openapi-ts.dev/openapi-fetch/", want: "https://openapi-ts.dev/openapi-fetch/" }],
    ["a download", { given: "spec/openapi.yaml", want: "spec/openapi.yaml" }],
  ])("%s", (_, { given, want }) => {
    expect(rewriteHref(given)).toBe(want);
  });

  it("refuses root-relative links, which would leave the /docs prefix", () => {
    expect(() => rewriteHref("/docs/index.html")).toThrow(/root-relative/);
  });
});

describe("renderMarkdown", () => {
  it("gives headings unique anchors and reports the title", () => {
    const { title, headings, html } = renderMarkdown("# The `title`\n\n## Errors\n\n## Errors\n");
    expect(title).toBe("The title");
    expect(headings.map((heading) => heading.id)).toEqual(["the-title", "errors", "errors-2"]);
    expect(html).toContain('<h2 id="errors-2">');
  });

  it("fills placeholders with generated fragments", () => {
    const { html } = renderMarkdown("# T\n\n<!-- lrg:picture -->\n", { picture: "<svg></svg>" });
    expect(html).toContain("<svg></svg>");
    expect(html).not.toContain("lrg:picture");
  });

  it("refuses a placeholder it has no fragment for", () => {
    expect(() => renderMarkdown("# T\n\n<!-- lrg:nothing -->\n")).toThrow(/unknown placeholder/);
  });

  it("rewrites links to other guides", () => {
    expect(renderMarkdown("# T\n\nSee [the sandbox](sandbox.md#the-clock).").html).toContain(
      'href="sandbox.html#the-clock"',
    );
  });

  it("keeps fenced code with its language for the page's labels", () => {
    expect(renderMarkdown("# T\n\n```http\nGET / HTTP/1.1\n```\n").html).toContain('<code class="language-http">');
  });
});

describe("slugify and markdownTitle", () => {
  it("slugs like the anchors the guides link to", () => {
    expect(slugify("The two base addresses")).toBe("the-two-base-addresses");
    expect(slugify("Acknowledging in 100s")).toBe("acknowledging-in-100s");
  });

  it("reads the first level-1 heading", () => {
    expect(markdownTitle("intro\n# Sending a document\n## Part")).toBe("Sending a document");
    expect(() => markdownTitle("## no title")).toThrow();
  });
});
