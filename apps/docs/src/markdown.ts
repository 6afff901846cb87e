// Markdown guides to HTML: marked, plus heading anchors, `.md` links turned into the built pages, and
// `<!-- lrg:name -->` placeholders that the build fills with fragments generated from the spec.
import { Marked, type Tokens } from "marked";

/** A heading of a rendered guide. */
export interface Heading {
  depth: number;
  text: string;
  id: string;
}

/** A rendered guide. */
export interface RenderedMarkdown {
  /** The text of the first level-1 heading. */
  title: string;
  html: string;
  headings: Heading[];
}

/** The anchor of a heading: lower case, words joined by hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z]+;/g, "")
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/-+/g, "-");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Where a link of a guide points once built: `other-guide.md#part` becomes `other-guide.html#part`. Links must be
 * relative (the docs are served under a prefix such as /docs) or absolute URLs to other sites.
 */
export function rewriteHref(href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) return href;
  if (href.startsWith("/"))
    throw new Error(`link ${href} is root-relative; the docs are served under a prefix, use a relative link`);
  return href.replace(/\.md(?=$|#)/, ".html");
}

const PLACEHOLDER = /<!--\s*lrg:([a-z-]+)\s*-->/g;

/** Renders one guide; `fragments` fill its `<!-- lrg:name -->` placeholders, and an unknown name is an error. */
export function renderMarkdown(source: string, fragments: Record<string, string> = {}): RenderedMarkdown {
  const headings: Heading[] = [];
  const used = new Set<string>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading): string {
        const inner = this.parser.parseInline(token.tokens);
        let id = slugify(token.text);
        for (let n = 2; used.has(id); n += 1) id = `${slugify(token.text)}-${n}`;
        used.add(id);
        headings.push({ depth: token.depth, text: token.text.replace(/`/g, ""), id });
        return `<h${token.depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true">#</a>${inner}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link): string {
        const inner = this.parser.parseInline(token.tokens);
        const href = rewriteHref(token.href);
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
        return `<a href="${escapeHtml(href)}"${title}>${inner}</a>`;
      },
    },
  });
  const body = marked.parse(source, { async: false });
  const html = body.replace(PLACEHOLDER, (_, name: string) => {
    const fragment = fragments[name];
    if (fragment === undefined) throw new Error(`unknown placeholder <!-- lrg:${name} -->`);
    return fragment;
  });
  const title = headings.find((heading) => heading.depth === 1)?.text ?? "";
  return { title, html, headings };
}

/** The text of a guide's first level-1 heading (`# Title`), without rendering it. */
export function markdownTitle(source: string): string {
  const match = /^# (.+)$/m.exec(source);
  if (match === null) throw new Error("a guide needs a level-1 heading");
  return (match[1] ?? "").replace(/`/g, "").trim();
}

/** Renders a Markdown fragment (a table taken from the spec) without the guide extras. */
export function renderFragment(source: string): string {
  return new Marked({ gfm: true }).parse(source, { async: false });
}
