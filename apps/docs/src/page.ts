// The frame of every guide page: navigation, content, footer. Every link is relative: the gateway serves the
// built docs under /docs, and the same files open from disk.
import { installCopyButtons } from "./copy-code.js";
import { escapeHtml } from "./markdown.js";

/** One entry of the navigation. */
export interface NavEntry {
  href: string;
  label: string;
}

/** What one page shows. */
export interface PageOptions {
  title: string;
  /** The page's own file name, to mark it current in the navigation. */
  file: string;
  body: string;
  nav: NavEntry[];
  /** Secondary navigation: the page's sections. */
  toc?: { id: string; text: string }[];
  footer: string;
}

/**
 * Puts every table in a box of its own that scrolls sideways, so that a table wider than the column scrolls
 * there instead of being cut off or widening the page. The box takes the focus, so that a keyboard scrolls it.
 */
export function wrapTables(html: string): string {
  return html
    .replace(/<table\b/g, '<div class="table-scroll" tabindex="0"><table')
    .replace(/<\/table>/g, "</table></div>");
}

/** A guide page: the frame around `options.body`. */
export function renderPage(options: PageOptions): string {
  const nav = options.nav
    .map((entry) => {
      const current = entry.href === options.file ? ' aria-current="page"' : "";
      return `<li><a href="${escapeHtml(entry.href)}"${current}>${escapeHtml(entry.label)}</a></li>`;
    })
    .join("\n");
  const toc =
    options.toc !== undefined && options.toc.length > 1
      ? `<nav class="toc" aria-label="On this page"><h2>On this page</h2><ul>${options.toc
          .map((entry) => `<li><a href="#${escapeHtml(entry.id)}">${escapeHtml(entry.text)}</a></li>`)
          .join("")}</ul></nav>`
      : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Land Registration Gateway</title>
<link rel="stylesheet" href="assets/docs.css">
<link rel="icon" href="assets/favicon.svg" type="image/svg+xml">
</head>
<body>
<header class="site"><a class="brand" href="index.html">Land Registration Gateway</a><span class="tagline">integration docs</span></header>
<div class="layout">
<nav class="site-nav" aria-label="Docs"><ul>
${nav}
</ul></nav>
<main>
${toc}
<article>
${wrapTables(options.body)}
</article>
</main>
</div>
<footer class="site">${options.footer}</footer>
<script>(${installCopyButtons.toString()})(document);</script>
</body>
</html>
`;
}
