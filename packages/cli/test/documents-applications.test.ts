// lrg documents upload|download and lrg applications submit|show|watch through the built lrg.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { unwrap } from "@lrg/client";
import { follow, lrg, submission, submitThroughClient, useSuite, writePdf } from "./support.js";

const suite = useSuite();

const oneLine = (text: string): void => expect(text.trimEnd().split("\n")).toHaveLength(1);
/** A refusal: its summary line, then one indented line for each failing member the answer named. */
const refusal = (text: string): void => {
  const [summary, ...fields] = text.trimEnd().split("\n");
  expect(summary).toMatch(/^lrg: refused: \d{3} \S+: /);
  for (const line of fields) expect(line).toMatch(/^ {2}\S+: /);
};

/** Submits a submission file with a local document through lrg; answers the application's id. */
async function submitWithFile(reference: string): Promise<string> {
  writePdf(suite.home.dir, `${reference}.pdf`, reference);
  const file = join(suite.home.dir, `${reference}.json`);
  writeFileSync(
    file,
    JSON.stringify(submission("x", reference), (key, value) =>
      key === "transfer" && "document_id" in value ? { type: "TR1", file: `./${reference}.pdf` } : value,
    ),
  );
  const run = await lrg(["applications", "submit", file], { env: suite.env });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run.stdout.trim();
}

async function waitForStatus(id: string, status: string): Promise<void> {
  const client = suite.gateway.client(suite.user);
  while ((await client.applications.information(id)).status !== status)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

describe("documents", () => {
  it("upload prints the document id, quietly in a pipe; --json answers length and checksum", async () => {
    const path = writePdf(suite.home.dir, "upload.pdf");
    const run = await lrg(["documents", "upload", path, "--type", "TR1"], { env: suite.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(run.stderr).toBe("");
    const json = await lrg(["documents", "upload", path, "--type", "TR1", "--json"], { env: suite.env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      document_id: expect.any(String),
      file_length: readFileSync(path).length,
      file_sha256: expect.any(String),
    });
  });

  it("a missing file or type is a usage error before any request", async () => {
    const missing = await lrg(["documents", "upload", join(suite.home.dir, "nope.pdf"), "--type", "TR1"], {
      env: { ...suite.env, LRG_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`lrg: usage: no such file: ${join(suite.home.dir, "nope.pdf")}\n`);
    const untyped = await lrg(["documents", "upload", join(suite.home.dir, "upload.pdf")], { env: suite.env });
    expect(untyped.code).toBe(2);
    oneLine(untyped.stderr);
  });

  it("a file that is not a PDF, TIFF, GIF or PNG is refused before sending (2), and uploaded with a warning with --force", async () => {
    const markdown = join(suite.home.dir, "README.md");
    writeFileSync(markdown, "# Not a transfer\n");
    const offline = { ...suite.env, LRG_BASE_URL: "http://127.0.0.1:9" };
    const refused = await lrg(["documents", "upload", markdown, "--type", "TR1"], { env: offline });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `lrg: usage: ${markdown} does not look like a PDF, TIFF, GIF or PNG, the only documents the registry accepts: add --force to upload it anyway\n`,
    );
    const forced = await lrg(["documents", "upload", markdown, "--type", "TR1", "--force"], { env: suite.env });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(forced.stderr).toBe(
      `lrg: warning: ${markdown} does not look like a PDF, TIFF, GIF or PNG, the only documents the registry accepts; uploading it (--force)\n`,
    );
    // The same check for the documents a submission names by file, before anything is sent.
    const submissionFile = join(suite.home.dir, "markdown.json");
    writeFileSync(
      submissionFile,
      JSON.stringify({ ...submission("x"), documents: { transfer: { type: "TR1", file: "./README.md" } } }),
    );
    expect((await lrg(["applications", "submit", submissionFile], { env: offline })).code).toBe(2);
  });

  it("an unknown document type is refused by the API (1) with its problem code", async () => {
    const run = await lrg(["documents", "upload", writePdf(suite.home.dir, "typed.pdf"), "--type", "NOT_A_TYPE"], {
      env: suite.env,
    });
    expect(run.code).toBe(1);
    refusal(run.stderr);
    expect(run.stderr).toMatch(/^lrg: refused: 400 \S+: /);
  });

  it("download writes a correspondence document to a file, or to stdout in a pipe", async () => {
    const id = await submitWithFile("CLI-DOWNLOAD");
    await waitForStatus(id, "ACCEPTED_PRIORITY_PROTECTED");
    const despatched = await unwrap(
      suite.gateway.sandbox.POST("/sandbox/v1/applications/{id}/correspondence", {
        params: { path: { id } },
        body: { documents: ["RCS"] },
      }),
    );
    const downloadId = despatched.documents[0]?.download_id as string;
    const target = join(suite.home.dir, "requisition.pdf");
    const saved = await lrg(["documents", "download", downloadId, "-o", target], { env: suite.env });
    expect(saved.code).toBe(0);
    expect(readFileSync(target).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const piped = await lrg(["documents", "download", downloadId], { env: suite.env });
    expect(piped.code).toBe(0);
    expect(piped.stdout.startsWith("%PDF-")).toBe(true);
    const bad = await lrg(["documents", "download", "abc"], { env: suite.env });
    expect(bad.code).toBe(2);
    const unknown = await lrg(["documents", "download", "0".repeat(64)], { env: suite.env });
    expect(unknown.code).toBe(1);
    oneLine(unknown.stderr);
  });
});

describe("applications", () => {
  it("submit uploads documents named by local path first, then submits; show prints a table and --json", async () => {
    const id = await submitWithFile("CLI-SUBMIT");
    await waitForStatus(id, "ACCEPTED_PRIORITY_PROTECTED");
    const shown = await lrg(["applications", "show", id], { env: suite.env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Status: +ACCEPTED_PRIORITY_PROTECTED$/m);
    expect(shown.stdout).toMatch(/^Errors \(0\)$/m);
    expect(shown.stdout).toMatch(/^Correspondence \(0\)$/m);
    const json = await lrg(["applications", "show", id, "--json"], { env: suite.env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      application_request_id: id,
      status: "ACCEPTED_PRIORITY_PROTECTED",
    });
  });

  it("the README's example submits as it is (its document named by a path beside it)", async () => {
    const example = join(import.meta.dirname, "..", "examples", "application.json");
    const run = await lrg(["applications", "submit", example, "--json"], { env: suite.env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ uploaded: { transfer: expect.any(String) } });
    await waitForStatus(JSON.parse(run.stdout).application_request_id, "ACCEPTED_PRIORITY_PROTECTED");
  });

  it("submit --json answers the id, the Idempotency-Key and the uploaded documents", async () => {
    writePdf(suite.home.dir, "json.pdf");
    const file = join(suite.home.dir, "json.json");
    const body = submission("x", "CLI-JSON");
    writeFileSync(file, JSON.stringify({ ...body, documents: { transfer: { type: "TR1", file: "json.pdf" } } }));
    const run = await lrg(["applications", "submit", file, "--json", "--idempotency-key", "cli-json-key-1"], {
      env: suite.env,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      application_request_id: expect.any(String),
      idempotency_key: "cli-json-key-1",
      uploaded: { transfer: expect.any(String) },
    });
  });

  it("bad submission files: missing, not JSON, a missing local document (2); a refused submission (1)", async () => {
    const offline = { ...suite.env, LRG_BASE_URL: "http://127.0.0.1:9" };
    expect((await lrg(["applications", "submit", join(suite.home.dir, "none.json")], { env: offline })).code).toBe(2);
    const notJson = join(suite.home.dir, "bad.json");
    writeFileSync(notJson, "{ nope");
    const parsed = await lrg(["applications", "submit", notJson], { env: offline });
    expect(parsed.code).toBe(2);
    oneLine(parsed.stderr);
    const dangling = join(suite.home.dir, "dangling.json");
    writeFileSync(
      dangling,
      JSON.stringify({ ...submission("x"), documents: { transfer: { type: "TR1", file: "./missing.pdf" } } }),
    );
    const missing = await lrg(["applications", "submit", dangling], { env: offline });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`lrg: usage: no such file: ${join(suite.home.dir, "missing.pdf")}\n`);
    const invalid = join(suite.home.dir, "invalid.json");
    writeFileSync(invalid, JSON.stringify({ type: "REGISTER_UPDATE" }));
    const refused = await lrg(["applications", "submit", invalid], { env: suite.env });
    expect(refused.code).toBe(1);
    refusal(refused.stderr);
    expect(refused.stderr).toMatch(/^lrg: refused: 400 /);
  });

  it("watch follows an application to COMPLETED (exit 0) and to CANCELLED (exit 11)", async () => {
    for (const [to, code] of [
      ["COMPLETED", 0],
      ["CANCELLED", 11],
    ] as const) {
      const id = await submitWithFile(`CLI-WATCH-${to}`);
      const watch = follow(["applications", "watch", id, "--interval", "0.2"], suite.env);
      await waitForStatus(id, "ACCEPTED_PRIORITY_PROTECTED");
      while (!watch.lines.includes("status ACCEPTED_PRIORITY_PROTECTED"))
        await new Promise((resolve) => setTimeout(resolve, 50));
      const body = to === "COMPLETED" ? { to, early_completion: false } : { to };
      await unwrap(
        suite.gateway.sandbox.POST("/sandbox/v1/applications/{id}/transitions", { params: { path: { id } }, body }),
      );
      expect(await watch.exited).toBe(code);
      expect(watch.stderr).toEqual([]);
      expect(watch.lines.at(-1)).toBe(`status ${to}`);
      expect(watch.lines.some((line) => line.includes(`application.${to.toLowerCase()}`))).toBe(true);
    }
  });

  it("watch ends at --timeout (exit 4) and, when the sandbox processes by hand, says once how to move the application", async () => {
    await suite.gateway.settings({ processing: "manual" });
    onTestFinished(async () => void (await suite.gateway.settings({ processing: "automatic" })));
    const id = await submitThroughClient(suite.gateway.client(suite.user), "CLI-WATCH-MANUAL");
    const args = ["applications", "watch", id, "--until", "ACCEPTED_PRIORITY_PROTECTED", "--interval", "0.5"];
    const run = await lrg([...args, "--timeout", "7s"], { env: suite.env });
    expect(run.code).toBe(4);
    expect(run.stdout).toBe("status VALIDATING\n");
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      `lrg: hint: the sandbox's processing is manual: ${id} stays VALIDATING until it is moved, with lrg sandbox transition ${id} ACCEPTED_PRIORITY_PROTECTED (or lrg sandbox settings set processing=automatic)`,
      `lrg: timeout: application ${id} is still VALIDATING after --timeout 7s; watch it again, or give a longer --timeout (0 for no limit)`,
    ]);
    // Without a sandbox token (a registry, not the sandbox) there is no hint, only the timeout; --json says it as JSON.
    const { LRG_SANDBOX_TOKEN: _t, ...noToken } = suite.env;
    const json = await lrg([...args, "--timeout", "1s", "--json"], { env: noToken });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: "timeout" });
    expect((await lrg([...args, "--timeout", "soon"], { env: suite.env })).code).toBe(2);
  });

  it("show of an unknown application is refused (1); a malformed id is a usage error (2)", async () => {
    const unknown = await lrg(["applications", "show", "00000000-0000-4000-8000-000000000000"], { env: suite.env });
    expect(unknown.code).toBe(1);
    oneLine(unknown.stderr);
    expect((await lrg(["applications", "show", "x"], { env: suite.env })).code).toBe(2);
  });
});
