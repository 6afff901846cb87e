// The built site as files: what the gateway will serve at /docs.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GUIDES, REFERENCES } from "../src/build.js";

const dist = join(import.meta.dirname, "..", "dist");
const read = (file: string): string => readFileSync(join(dist, file), "utf8");
const pages = [
  "index.html",
  ...GUIDES.map((guide) => `${guide.slug}.html`),
  ...REFERENCES.map((reference) => reference.file),
];

describe("dist", () => {
  it.each(pages)("%s exists and uses only relative links", (file) => {
    const html = read(file).replace(/<script[\s\S]*?<\/script>/g, "");
    const targets = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1] ?? "");
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => target.startsWith("/"))).toEqual([]);
  });

  it.each(REFERENCES.map((reference) => reference.file))(
    "%s carries Redoc inline instead of loading it from a CDN",
    (file) => {
      const html = read(file);
      expect(html).not.toMatch(/<script[^>]+src="https?:/);
      expect(html.replace(/<script[\s\S]*?<\/script>/g, "")).not.toMatch(/<link[^>]+href="https?:/);
      expect(html).toContain("hydrate(");
    },
  );

  it.each(REFERENCES.map((reference) => reference.file))(
    "%s shows no placeholder address, and its attribution names Redocly in words (its logo is on a CDN)",
    (file) => {
      // Booleans: a failing toContain would print the whole page, Redoc's bundle included.
      const html = read(file);
      expect(html.includes("example.org"), "the placeholder address example.org").toBe(false);
      expect(html.includes("<p>API docs by Redocly</p>"), "the attribution in words").toBe(true);
    },
  );

  it("ships the state machine picture and the bundled spec", () => {
    expect(read("state-machine.svg")).toMatch(/^<\?xml[^>]*>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const file of ["openapi.yaml", "openapi.json", "sandbox.yaml", "sandbox.json"]) {
      expect(existsSync(join(dist, "spec", file)), file).toBe(true);
    }
  });
});
