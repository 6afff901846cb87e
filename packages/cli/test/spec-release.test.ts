// The release gate of the spec, run by CI: spec/dist against the last release kept in spec/released/, through the built
// `lrg spec diff --changelog`. A breaking change needs info.version bumped for it and a section in spec/CHANGELOG.md.
// The gate is also shown to refuse a breaking change without them (an operation removed, a problem code removed), and to
// let a change of words through.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lrg, makeHome, type Home } from "./support.js";

const SPEC = join(import.meta.dirname, "..", "..", "..", "spec");
const CHANGELOG = join(SPEC, "CHANGELOG.md");
let home: Home;
let dir: string;

beforeAll(() => {
  home = makeHome({ LRG_REDOCLY: join(SPEC, "node_modules", "@redocly", "cli", "bin", "cli.js") });
  dir = mkdtempSync(join(tmpdir(), "lrg-spec-release-"));
});
afterAll(() => {
  home.remove();
  rmSync(dir, { recursive: true, force: true });
});

const released = (name: string) => join(SPEC, "released", name);
type Document = {
  info: { version: string };
  paths: Record<string, unknown>;
  "x-lrg-problem-codes": Record<string, unknown>;
};

/** A copy of the released registry interface, changed by `change`, written to a file of the test's. */
function changed(name: string, change: (document: Document) => void): string {
  const document = JSON.parse(readFileSync(released("openapi.json"), "utf8")) as Document;
  change(document);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

describe("the spec's release gate", () => {
  it.each(["openapi.json", "sandbox.json"])("spec/dist/%s may be released against spec/released/", async (name) => {
    const run = await lrg(["spec", "diff", released(name), join(SPEC, "dist", name), "--changelog", CHANGELOG], {
      env: home.env,
    });
    expect(run.stdout, run.stderr).not.toContain("not releasable");
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it("refuses a breaking change without its version bump and changelog section, and takes it with both", async () => {
    const removed = (version: string) =>
      changed(`removed-${version}`, (document) => {
        delete document.paths["/v0/notifications"];
        document.info.version = version;
      });
    const same = await lrg(["spec", "diff", released("openapi.json"), removed("0.1.0"), "--changelog", CHANGELOG], {
      env: home.env,
    });
    expect(same.code).toBe(1);
    expect(same.stdout).toContain("major removed  /paths/~1v0~1notifications (redocly)");
    expect(same.stdout).toContain(
      "not releasable: a breaking change needs info.version bumped past 0.1.0 (0.2.0 or later)",
    );

    // A version spec/CHANGELOG.md has no section for (its own releases have theirs).
    const bumped = removed("0.9.0");
    const noSection = await lrg(["spec", "diff", released("openapi.json"), bumped, "--changelog", CHANGELOG], {
      env: home.env,
    });
    expect(noSection.code).toBe(1);
    expect(noSection.stdout).toContain('not releasable: a breaking change needs a section "## 0.9.0"');

    const changelog = join(dir, "CHANGELOG.md");
    writeFileSync(
      changelog,
      `# Changelog\n\n## 0.9.0\n\n- Version 0 of the notification list is withdrawn.\n\n${readFileSync(CHANGELOG, "utf8")}`,
    );
    const ready = await lrg(["spec", "diff", released("openapi.json"), bumped, "--changelog", changelog], {
      env: home.env,
    });
    expect(ready.code, ready.stdout).toBe(0);
  });

  it("rates a problem code removed as major (redocly does not rate the catalogue), and words as patch", async () => {
    const catalogue = changed("catalogue", (document) => {
      delete document["x-lrg-problem-codes"]["400-01"];
    });
    const run = await lrg(["spec", "diff", released("openapi.json"), catalogue, "--json"], { env: home.env });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      bump: string;
      changes: { pointer: string; impact: string; by: string }[];
    };
    expect(report.bump).toBe("major");
    expect(report.changes).toEqual([
      { impact: "major", kind: "removed", pointer: "/x-lrg-problem-codes/400-01", by: "lrg" },
    ]);

    const words = changed("words", (document) => {
      (document.info as { description?: string }).description = "Reworded.";
    });
    const patch = await lrg(["spec", "diff", released("openapi.json"), words, "--changelog", CHANGELOG], {
      env: home.env,
    });
    expect(patch.stdout).toContain("bump: patch (0 major, 0 minor, 1 patch)");
    expect(patch.code).toBe(0);
  });

  it("answers 2 for a spec it cannot read", async () => {
    const run = await lrg(["spec", "diff", join(dir, "absent.json"), released("openapi.json")], { env: home.env });
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
