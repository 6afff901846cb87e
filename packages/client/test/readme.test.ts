// The README's examples are the files under examples/ (type-checked by `check`): this keeps them equal.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const examples = readdirSync(new URL("../examples/", import.meta.url)).filter((name) => name.endsWith(".ts"));

describe("README", () => {
  it.each(examples)("shows examples/%s verbatim", (name) => {
    const file = readFileSync(new URL(`../examples/${name}`, import.meta.url), "utf8").trimEnd();
    const marker = `<!-- examples/${name} -->\n\`\`\`ts\n`;
    const start = readme.indexOf(marker);
    expect(start, `README has no block for examples/${name}`).toBeGreaterThanOrEqual(0);
    const body = readme.slice(start + marker.length, readme.indexOf("\n```", start + marker.length));
    expect(body).toBe(file);
  });

  it("shows no TypeScript block that is not an example file", () => {
    const blocks = readme.match(/```ts\n/g) ?? [];
    expect(blocks).toHaveLength(examples.length);
  });
});
