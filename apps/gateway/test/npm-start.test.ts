// What a newcomer sees around `npm start`: no warning from its first install.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..", "..");

describe("a first install", () => {
  /** Every workspace package (pnpm-workspace.yaml's folders and `folder/*` globs) and its `bin` map. */
  const packages = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")
    .split(/^catalog:/m)[0]!
    .split("\n")
    .flatMap((line) => /^\s+- (\S+)$/.exec(line)?.[1] ?? [])
    .flatMap((entry) =>
      entry.endsWith("/*")
        ? readdirSync(join(root, entry.slice(0, -2)), { withFileTypes: true })
            .filter((child) => child.isDirectory())
            .map((child) => join(entry.slice(0, -2), child.name))
        : [entry],
    )
    .filter((folder) => existsSync(join(root, folder, "package.json")))
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8")) as {
        bin?: Record<string, string>;
      };
      return [folder, Object.entries(manifest.bin ?? {})] as const;
    });

  it("links every package's bins without a warning: each names a file in the checkout, none a build output", () => {
    // pnpm links the bins of workspace packages at install, before any build: a bin in dist/ is missing then, and
    // pnpm warns "Failed to create bin" once for each package that depends on it.
    expect(packages.map(([folder]) => folder)).toContain(join("apps", "gateway"));
    for (const [folder, bins] of packages) {
      for (const [name, target] of bins) {
        expect(target, `${folder} ${name}`).not.toMatch(/^(\.\/)?(dist|build)\//);
        expect(existsSync(join(root, folder, target)), `${folder} ${name}: ${target}`).toBe(true);
      }
    }
  });
});
