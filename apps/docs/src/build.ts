// Builds the published docs into dist/: the Redoc references of both bundled documents, the guides rendered
// from guides/*.md, the state machine picture drawn from the spec, and an index linking everything.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { escapeHtml, markdownTitle, renderFragment, renderMarkdown } from "./markdown.js";
import { followLegacyAnchor, legacyAnchors, referenceAnchor } from "./legacy-anchors.js";
import { renderPage, type NavEntry } from "./page.js";
import { enums } from "@lrg/spec/constants";
import {
  artifactPath,
  componentSchema,
  operationsOf,
  problemCatalogue,
  SCENARIO_TITLES_TABLE,
  specVersion,
  type DocumentName,
} from "@lrg/spec";
import { renderStateMachineSvg, specStateMachine, type StateMachine } from "./state-machine.js";

export { referenceAnchor } from "./legacy-anchors.js";

/** The guides, in reading order: file `guides/<slug>.md` becomes `dist/<slug>.html`. */
export const GUIDES = [
  { slug: "getting-started", summary: "Credentials, the environments and their two base addresses, mutual TLS." },
  {
    slug: "sending-a-document",
    summary: "The two calls, the 44-character checksum, the ten-minute window and the 403s.",
  },
  {
    slug: "consuming-notifications",
    summary: "The pull loop, paging with created_after, duplicates, acknowledging in hundreds.",
  },
  {
    slug: "application-state-machine",
    summary: "Every status of an application, every move between them and its notification.",
  },
  {
    slug: "title-enquiries",
    summary: "Official searches, deferred results fetched by message_id, copies and proprietors.",
  },
  {
    slug: "sandbox",
    summary: "The gateway's control plane: business units, clock, day list, decisions, scenario titles.",
  },
  {
    slug: "command-line",
    summary: "lrg: notifications tail and forward, uploads, submit and watch, the sandbox from a shell.",
  },
  {
    slug: "sharing-one-sandbox",
    summary: "Unit tokens: each team's own clock, settings and reset on one gateway; the audit trail; failed logins.",
  },
  {
    slug: "many-teams",
    summary: "One machine on SQLite or many instances on PostgreSQL: variables, consistency, moving the data.",
  },
  {
    slug: "readiness",
    summary: "A readiness run examines your own software: a verdict per check with its evidence, a JUnit file for CI.",
  },
  {
    slug: "sandbox-to-production",
    summary: "Record your software's real exchanges, find drift from the spec, replay a recording in your own tests.",
  },
  {
    slug: "sandbox-differences",
    summary: "Where the sandbox behaves as the registry does, where we chose, and what it does not simulate.",
  },
] as const;

/** The reference pages Redoc renders, relative to dist/. */
export const REFERENCES = [
  {
    file: "reference.html",
    document: "registry",
    spec: "openapi.yaml",
    title: "Land Registration Gateway API reference",
    label: "API reference",
  },
  {
    file: "sandbox-reference.html",
    document: "sandbox",
    spec: "sandbox.yaml",
    title: "Sandbox control plane reference",
    label: "Sandbox reference",
  },
] as const;

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

function redocly(args: string[]): void {
  const bin = join(packageDir, "node_modules", ".bin", "redocly");
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  const result = spawnSync(bin, args, { cwd: packageDir, env, encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `redocly ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/**
 * Redoc's attribution is "API docs by" and Redocly's logo, loaded from Redocly's CDN, which these offline docs do not
 * reach: an empty badge. It names Redocly in words instead (the stylesheet hides the logo), in the prerendered page
 * and in the script that renders it again; a Redoc release that words it otherwise fails the build here.
 */
function attributeInWords(html: string): string {
  const words = /(<p>|`)API docs by(<\/p>|`)/g;
  const found = html.match(words)?.length ?? 0;
  if (found !== 2)
    throw new Error(`Redoc's attribution "API docs by" appears ${found} times, not twice (page and script)`);
  return html.replace(words, "$1API docs by Redocly$2");
}

/**
 * Makes Redoc's page fit the site: a favicon (no request for /favicon.ico), a way back to the guides, Redoc 2's
 * addresses followed before Redoc starts, hash links in the prerendered sidebar (Redoc 3 prerenders `/section`
 * links, but routes by `#/section` in the browser, and a root-relative link would leave the /docs prefix), and an
 * attribution in words.
 */
function adaptReference(html: string, document: DocumentName): string {
  const anchors = JSON.stringify(legacyAnchors(document)).replace(/</g, "\\u003c");
  const withHead = attributeInWords(html).replace(
    "</head>",
    () =>
      `<link rel="icon" href="assets/favicon.svg" type="image/svg+xml">\n<link rel="stylesheet" href="assets/reference.css">\n<script>(${followLegacyAnchor.toString()})(${anchors});</script>\n</head>`,
  );
  const withBack = withHead.replace(/<body([^>]*)>/, `<body$1>\n<a class="lrg-back" href="index.html">← Guides</a>`);
  return withBack
    .split(/(<script[\s\S]*?<\/script>)/)
    .map((part) => (part.startsWith("<script") ? part : part.replace(/href="\/(?!\/)/g, 'href="#/')))
    .join("");
}

function table(head: string[], rows: string[][]): string {
  const th = head.map((cell) => `<th>${cell}</th>`).join("");
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("\n");
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const code = (text: string): string => `<code>${escapeHtml(text)}</code>`;

/** Every readiness check the spec names (`ReadinessCheckName`), with the rule and stimulus its description gives. */
function readinessChecksTable(): string {
  const descriptions = componentSchema("ReadinessCheckName", "sandbox")["x-enumDescriptions"] as
    Record<string, string> | undefined;
  const rows = enums.ReadinessCheckName.map((name) => {
    const description = descriptions?.[name];
    if (description === undefined) throw new Error(`ReadinessCheckName ${name} has no x-enumDescriptions entry`);
    return [code(name), escapeHtml(description)];
  });
  return table(["Check", "Its rule, and what the run does for it"], rows);
}

/**
 * Code in a generated table: a path or an upper-case name may wrap after its `/`, `_` and `.` (a `<wbr>`, which
 * copies as nothing), so that the table fits a narrow window instead of squeezing its prose to a word a line.
 */
const tableCode = (text: string): string => `<code>${escapeHtml(text).replace(/([/_.])(?=.)/g, "$1<wbr>")}</code>`;

function operationTable(document: DocumentName, reference: string): string {
  return table(
    ["Operation", "Method and path", "operationId"],
    operationsOf(document).map((operation) => [
      `<a href="${reference}${referenceAnchor(operation)}">${escapeHtml(String(operation.operation["summary"] ?? ""))}</a>`,
      tableCode(`${operation.method} ${operation.path}`),
      code(operation.operationId),
    ]),
  );
}

function transitionsTable(machine: StateMachine): string {
  return table(
    ["From", "To", "Trigger", "Version 1 notification", "Version 0 notification", "Source"],
    machine.transitions.map((t) => [
      tableCode(t.from),
      tableCode(t.to),
      escapeHtml(t.trigger),
      tableCode(t.notifications.v1),
      t.notifications.v0 === undefined ? "" : tableCode(t.notifications.v0),
      escapeHtml(t.source),
    ]),
  );
}

/** Every local link and image of a built page must reach a file of dist/ (and, for our pages, the anchor). */
function checkLinks(dist: string, pages: Map<string, string>): void {
  const problems: string[] = [];
  for (const [file, html] of pages) {
    const outsideScripts = html.replace(/<script[\s\S]*?<\/script>/g, "");
    for (const match of outsideScripts.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const target = match[1] ?? "";
      if (/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target)) continue;
      if (target.startsWith("/")) {
        problems.push(`${file}: root-relative link ${target}`);
        continue;
      }
      const [path = "", anchor] = target.split("#");
      if (!existsSync(join(dist, path))) problems.push(`${file}: ${target} does not exist`);
      else if (
        anchor !== undefined &&
        !anchor.startsWith("/") &&
        pages.has(path) &&
        !pages.get(path)?.includes(`id="${anchor}"`)
      ) {
        problems.push(`${file}: ${target} has no anchor ${anchor}`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`broken links in the built docs:\n${problems.join("\n")}`);
}

/** Builds everything into `dist` (emptied first). */
export function build(dist: string = join(packageDir, "dist")): { pages: string[] } {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(dist, "assets"), { recursive: true });
  mkdirSync(join(dist, "spec"), { recursive: true });

  const machine = specStateMachine;
  const specHash = createHash("sha256")
    .update(readFileSync(artifactPath("openapi.json")))
    .digest("hex");
  const version = specVersion;

  for (const name of ["openapi.yaml", "openapi.json", "sandbox.yaml", "sandbox.json"] as const) {
    copyFileSync(artifactPath(name), join(dist, "spec", name));
  }
  for (const name of readdirSync(join(packageDir, "assets")))
    copyFileSync(join(packageDir, "assets", name), join(dist, "assets", name));

  const pages = new Map<string, string>();
  for (const reference of REFERENCES) {
    const out = join(dist, reference.file);
    redocly(["build-docs", artifactPath(reference.spec), "-o", out, "--title", reference.title, "--inlineBundle"]);
    const html = adaptReference(readFileSync(out, "utf8"), reference.document);
    writeFileSync(out, html);
    pages.set(reference.file, html);
  }

  const svg = renderStateMachineSvg(machine);
  writeFileSync(join(dist, "state-machine.svg"), `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`);

  const titles = new Map(
    GUIDES.map((guide) => [
      guide.slug,
      markdownTitle(readFileSync(join(packageDir, "guides", `${guide.slug}.md`), "utf8")),
    ]),
  );
  const nav: NavEntry[] = [
    { href: "index.html", label: "Overview" },
    ...GUIDES.map((guide) => ({ href: `${guide.slug}.html`, label: titles.get(guide.slug) ?? guide.slug })),
    ...REFERENCES.map((reference) => ({ href: reference.file, label: reference.label })),
  ];
  const fragments: Record<string, string> = {
    "state-machine": `<figure class="diagram" id="state-machine-picture">\n${svg}\n<figcaption>Drawn when the docs are built from <code>x-lrg-transitions</code> on the <code>ApplicationStatus</code> schema of the spec, the same list the gateway enforces. <a href="state-machine.svg">Open the picture on its own</a>.</figcaption>\n</figure>`,
    "transitions-table": transitionsTable(machine),
    "statuses-list": `<ul>${machine.statuses.map((status) => `<li>${code(status)}</li>`).join("")}</ul>`,
    "scenario-titles": renderFragment(SCENARIO_TITLES_TABLE),
    "readiness-checks": readinessChecksTable(),
    operations: operationTable("registry", "reference.html"),
    "sandbox-operations": operationTable("sandbox", "sandbox-reference.html"),
    "problem-codes": table(
      ["Code", "Status", "Title", "When"],
      Object.entries(problemCatalogue)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([entry, { status, title, when }]) => [code(entry), String(status), escapeHtml(title), escapeHtml(when)]),
    ),
    "guide-list": `<ul class="cards">${GUIDES.map(
      (guide) =>
        `<li><a href="${guide.slug}.html">${escapeHtml(titles.get(guide.slug) ?? guide.slug)}</a><p>${escapeHtml(guide.summary)}</p></li>`,
    ).join("")}</ul>`,
  };
  const footer = `Built from the bundled spec, version ${escapeHtml(version)} (openapi.json sha256 ${specHash.slice(0, 12)}). Download it: <a href="spec/openapi.yaml">openapi.yaml</a> · <a href="spec/openapi.json">openapi.json</a> · <a href="spec/sandbox.yaml">sandbox.yaml</a> · <a href="spec/sandbox.json">sandbox.json</a>.`;

  for (const slug of ["index", ...GUIDES.map((guide) => guide.slug)]) {
    const rendered = renderMarkdown(readFileSync(join(packageDir, "guides", `${slug}.md`), "utf8"), fragments);
    const file = `${slug}.html`;
    const html = renderPage({
      title: rendered.title,
      file,
      body: rendered.html,
      nav,
      toc: rendered.headings.filter((heading) => heading.depth === 2),
      footer,
    });
    writeFileSync(join(dist, file), html);
    pages.set(file, html);
  }

  checkLinks(dist, pages);
  return { pages: [...pages.keys()] };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { pages } = build();
  console.log(`built ${pages.length} pages into ${join(packageDir, "dist")}: ${pages.join(", ")}`);
}
