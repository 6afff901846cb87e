// The package as an integrator installs it: the exports map resolves to the built ESM and its types, and the
// generated types name the spec they came from. (turbo runs `build` before `test`.)
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES, MAX_MESSAGE_LENGTH } from "../src/index.js";
import { specBound } from "./support/spec-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  type: string;
  exports: Record<string, { types: string; import: string }>;
};

describe("package", () => {
  it("is ESM with an exports map pointing at built files and their types", () => {
    expect(manifest.type).toBe("module");
    const root = manifest.exports["."];
    expect(root).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(existsSync(new URL(`../${root?.import}`, import.meta.url))).toBe(true);
    expect(existsSync(new URL(`../${root?.types}`, import.meta.url))).toBe(true);
  });

  it("imports by its name through the exports map", () => {
    const script = "const m = await import('@lrg/client'); console.log(JSON.stringify(Object.keys(m).sort()));";
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: packageDir,
      encoding: "utf8",
    });
    const names = JSON.parse(output) as string[];
    for (const name of [
      "createGatewayClient",
      "ProblemError",
      "SignatureError",
      "RateLimitError",
      "AuthenticationError",
      "normalizeRegistryDateTime",
      "unwrap",
    ]) {
      expect(names).toContain(name);
    }
  });

  it.each(["openapi", "sandbox"])(
    "carries the %s types it was built with, so its declarations never name @lrg/spec",
    (document) => {
      const inlined = readFileSync(new URL(`../dist/lrg-spec/lib/generated/${document}.d.ts`, import.meta.url), "utf8");
      expect(inlined).toContain("export interface paths");
      const declarations = readdirSync(new URL("../dist", import.meta.url), {
        recursive: true,
        encoding: "utf8",
      }).filter((file) => file.endsWith(".d.ts") && !file.startsWith("lrg-spec"));
      expect(declarations.length).toBeGreaterThan(0);
      for (const file of declarations)
        expect(readFileSync(new URL(`../dist/${file}`, import.meta.url), "utf8"), file).not.toContain("@lrg/spec");
    },
  );
});

describe("limits the client takes from the spec (inlined into its build)", () => {
  it.each([
    ["MAX_DOCUMENT_BYTES", MAX_DOCUMENT_BYTES, specBound("UploadUrlRequest", ["data", "file_length"], "maximum")],
    [
      "MAX_MESSAGE_LENGTH",
      MAX_MESSAGE_LENGTH,
      specBound("AttachMessageRequest", ["data", "message_text"], "maxLength"),
    ],
  ])("%s equals the spec's bound", (_name, restated, bound) => {
    expect(bound).toBeTypeOf("number");
    expect(restated).toBe(bound);
  });
});
