// The package as an integrator installs it: the exports map resolves to the built ESM and its types, and the
// generated types name the spec they came from. (turbo runs `build` before `test`.)
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
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
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, encoding: "utf8" });
    const names = JSON.parse(output) as string[];
    for (const name of ["createGatewayClient", "ProblemError", "SignatureError", "RateLimitError", "AuthenticationError", "normalizeRegistryDateTime", "unwrap"]) {
      expect(names).toContain(name);
    }
  });

  it.each([
    ["src/generated/openapi.ts", "spec/dist/openapi.json"],
    ["src/generated/sandbox.ts", "spec/dist/sandbox.json"],
  ])("%s names the hash of %s in its do-not-edit header", (generated, spec) => {
    const firstLine = readFileSync(new URL(`../${generated}`, import.meta.url), "utf8").split("\n")[0];
    const hash = createHash("sha256").update(readFileSync(new URL(`../../../${spec}`, import.meta.url))).digest("hex");
    expect(firstLine).toBe(`// Generated from ${spec} (sha256 ${hash}) by openapi-typescript. Do not edit.`);
  });
});

describe("limits the client restates (it ships without the spec)", () => {
  it.each([
    ["MAX_DOCUMENT_BYTES", MAX_DOCUMENT_BYTES, specBound("UploadUrlRequest", ["data", "file_length"], "maximum")],
    ["MAX_MESSAGE_LENGTH", MAX_MESSAGE_LENGTH, specBound("AttachMessageRequest", ["data", "message_text"], "maxLength")],
  ])("%s equals the spec's bound", (_name, restated, bound) => {
    expect(bound).toBeTypeOf("number");
    expect(restated).toBe(bound);
  });
});
