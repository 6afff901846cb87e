// Every refusal prints each failing member with its pointer, whichever envelope the answer used: a table of the
// envelopes the client reads (through the client's own parser, as lrg meets them), then a real refused submission.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errorFromResponse } from "@lrg/client";
import { reportOf } from "../src/conventions.js";
import { lrg, useSuite } from "./support.js";

const answer = (status: number, body: unknown, contentType = "application/json") =>
  errorFromResponse({ status, headers: new Headers({ "content-type": contentType, "x-request-id": "req-1" }), body });

describe("reportOf: the failing members of each envelope, one line each", () => {
  it.each([
    [
      "problem+json errors [{type, detail, pointer}]",
      {
        given: answer(
          400,
          {
            type: "about:blank",
            title: "Bad Request",
            status: 400,
            code: "400-02",
            detail: "request does not match the schema",
            errors: [
              { type: "required", detail: "must have required property 'titles'", pointer: "/body" },
              { type: "pattern", detail: "must match pattern", pointer: "/body/titles/main/title_number" },
            ],
          },
          "application/problem+json",
        ),
        want: [
          "lrg: refused: 400 400-02: request does not match the schema",
          "  /body: must have required property 'titles' (required)",
          "  /body/titles/main/title_number: must match pattern (pattern)",
        ],
      },
    ],
    [
      "registry errors [{code, detail, source: {pointer}}]",
      {
        given: answer(400, {
          errors: [
            {
              code: "BG40011",
              detail: "title number is invalid",
              status: "400",
              source: { pointer: "/data/title_number" },
            },
            { code: "BG40012", detail: "applicant is missing", status: "400", source: { pointer: "/data/applicant" } },
          ],
        }),
        want: [
          "lrg: refused: 400 BG40011: title number is invalid",
          "  /data/title_number: title number is invalid (BG40011)",
          "  /data/applicant: applicant is missing (BG40012)",
        ],
      },
    ],
    [
      "registry errors [{error_code, error_message}], several",
      {
        given: answer(400, {
          errors: [
            { error_code: "BG40002", error_message: "invalid title number", http_status: 400 },
            { error_code: "BG40003", error_message: "invalid reference", http_status: 400 },
          ],
        }),
        want: [
          "lrg: refused: 400 BG40002: invalid title number",
          "  (no pointer): invalid title number (BG40002)",
          "  (no pointer): invalid reference (BG40003)",
        ],
      },
    ],
    [
      "attach errors [{type, detail, pointer}]",
      {
        given: answer(400, {
          errors: [{ type: "OC036", detail: "the message is too long", pointer: "/data/message" }],
        }),
        want: ["lrg: refused: 400 OC036: the message is too long", "  /data/message: the message is too long (OC036)"],
      },
    ],
    [
      "a single registry error without a pointer is the summary line alone",
      {
        given: answer(404, { errors: [{ error_code: "BG40401", error_message: "title not found", http_status: 404 }] }),
        want: ["lrg: refused: 404 BG40401: title not found"],
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const report = reportOf(given);
    expect(report.exitCode).toBe(1);
    expect(report.lines).toEqual(want);
    // --json carries the same members (pointer, detail, code) and the request id to quote.
    expect(report.json).toMatchObject({ error: "refused", request_id: "req-1" });
    expect((report.json.errors as unknown[]).length).toBe(want.length - 1);
  });
});

describe("a refused submission through lrg", () => {
  const suite = useSuite();

  it("prints each failing member with its pointer, and --json and --verbose keep them", async () => {
    const file = join(suite.home.dir, "bad.json");
    writeFileSync(file, JSON.stringify({ type: "REGISTER_UPDATE" }));
    const run = await lrg(["applications", "submit", file], { env: suite.env });
    expect(run.code).toBe(1);
    const [summary, ...fields] = run.stderr.trimEnd().split("\n");
    expect(summary).toMatch(/^lrg: refused: 400 400-02: /);
    expect(fields.length).toBeGreaterThan(0);
    for (const line of fields) expect(line).toMatch(/^ {2}\/body\S*: \S/);

    const verbose = await lrg(["applications", "submit", file, "--verbose"], { env: suite.env });
    expect(verbose.stderr).toContain(fields.join("\n"));

    const json = await lrg(["applications", "submit", file, "--json"], { env: suite.env });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stderr) as { errors: { pointer: string; detail: string }[] };
    expect(report.errors.map((e) => `  ${e.pointer}: ${e.detail}`)).toEqual(
      fields.map((l) => l.replace(/ \(\S+\)$/, "")),
    );
  });
});
