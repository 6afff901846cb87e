// What every report of the toolkit shares (the readiness run's JUnit and HTML, `lrg drift`'s): escaping for XML and
// HTML text and attributes, and the self-contained HTML page the reports are drawn on.

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * `text` safe as XML or HTML text and as a quoted attribute value. Characters XML 1.0 does not allow at all (control
 * characters but tab and line ends, lone surrogates, U+FFFE and U+FFFF: a query value may carry any of them) become
 * U+FFFD, so that a JUnit report always parses.
 */
export function escapeMarkup(text: string): string {
  return text
    .replace(
      // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids are what this replaces
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      "\uFFFD",
    )
    .replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

// Inline only: the page loads nothing, and its Content-Security-Policy forbids it to (a report kept as a CI artifact
// and opened from disk must look the same offline, and hostile text in it must never run).
const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1f2328; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; }
.verdict { display: inline-block; padding: .05rem .6rem; border-radius: 1rem; color: #fff; font-weight: 600; }
section { border: 1px solid #d0d7de; border-radius: .5rem; padding: 0 1rem 1rem; margin: 1.5rem 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
.timeline { overflow-x: auto; }
table { border-collapse: collapse; font-size: .85rem; }
table.summary { font-size: .95rem; margin: 1rem 0; }
th, td { text-align: left; padding: .2rem .5rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
code { font-family: ui-monospace, monospace; word-break: break-all; }
`;

/** A coloured label (`<span class="verdict">`); `label` is escaped, `colour` is the caller's constant. */
export function badge(label: string, colour: string): string {
  return `<span class="verdict" style="background:${colour}">${escapeMarkup(label)}</span>`;
}

/**
 * A self-contained HTML document: inline style, nothing loaded, a Content-Security-Policy that forbids loading
 * anything. `title` is escaped; `body` is markup the caller escaped.
 */
export function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeMarkup(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
