// The generated secrets kept in LRG_DATA_DIR/secrets.json: written once (durably, beside and renamed), then only read,
// and a damaged file stops the start with one line saying what to do rather than with a stack trace.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGatewayToExit, startGatewayProcess, type GatewayProcess } from "./support/process.js";

let running: GatewayProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await running?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  running = dataDir = undefined;
});

/** Generate both secrets: the sandbox token too (the tests' gateway is given one otherwise). */
const GENERATE = { LRG_SANDBOX_TOKEN: "" };

describe("secrets.json", () => {
  it("is written once: a later start leaves it as it was, and nothing is left beside it", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "lrg-secrets-"));
    const file = join(dataDir, "secrets.json");
    running = await startGatewayProcess(dataDir, GENERATE);
    await running.stop();
    const first = statSync(file);
    expect(first.mode & 0o777).toBe(0o600);
    expect(first.size).toBeGreaterThan(0);
    running = await startGatewayProcess(dataDir, GENERATE);
    await running.stop();
    const second = statSync(file);
    expect({ ino: second.ino, mtimeMs: second.mtimeMs, size: second.size }).toEqual({
      ino: first.ino,
      mtimeMs: first.mtimeMs,
      size: first.size,
    });
    // No temporary file of the write is left behind.
    expect(readdirSync(dataDir).filter((name) => name.startsWith("secrets"))).toEqual(["secrets.json"]);
  });

  it.each([
    ["empty (a crash before its first write reached the disk)", "", "it is empty"],
    ["cut short", '{\n  "LRG_SANDBOX_TOKEN": "abc', "it is not JSON"],
    ["not an object", "[]", "it holds no object of secrets"],
    ["a secret that is not a string", '{ "LRG_SIGNING_SECRET": 7 }', "LRG_SIGNING_SECRET is not a non-empty string"],
  ])("%s stops the start with one line naming it and what to do", async (_name, content, why) => {
    dataDir = mkdtempSync(join(tmpdir(), "lrg-secrets-"));
    const file = join(dataDir, "secrets.json");
    writeFileSync(file, content, { mode: 0o600 });
    const { code, stdout, stderr } = await runGatewayToExit(dataDir, GENERATE);
    expect(code).toBe(1);
    expect(stdout).not.toContain("listening on");
    expect(stderr).not.toMatch(/^\s+at /m);
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^lrg-gateway: ${file.replace(/[.]/g, "\\.")} is damaged \\(${why}.*\\); restore it from a backup, or delete it to generate new secrets \\(signed addresses handed out and the sandbox token then change\\)$`,
      ),
    );
    // Left as it was, for whoever restores it.
    expect(statSync(file).size).toBe(content.length);
  });

  it("that cannot be read stops the start with one line naming it", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "lrg-secrets-"));
    const file = join(dataDir, "secrets.json");
    mkdirSync(file);
    const { code, stderr } = await runGatewayToExit(dataDir, GENERATE);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `lrg-gateway: cannot read ${file} (it is a directory, not a file); let this process read it, or delete it to generate new secrets (signed addresses handed out and the sandbox token then change)\n`,
    );
  });
});
