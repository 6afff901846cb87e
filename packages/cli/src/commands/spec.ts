// lrg spec diff OLD NEW: what changed between two versions of the spec, each change rated major, minor or patch (see
// spec-diff.ts); with --changelog, whether the new one may be released (the gate CI runs on spec/).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { ExitWith, UsageError } from "../conventions.js";
import { runtimeOf, subcommand } from "../runtime.js";
import { readGivenFile } from "./readiness-expectations.js";
import { bumpOf, extensionChanges, IMPACTS, redoclyChanges, releaseProblems, type Impact } from "./spec-diff.js";

/** A spec given as a file or an http(s) URL: its text, and a file that holds it (a URL is fetched to a temporary one). */
async function specText(
  given: string,
  dir: string,
  name: string,
): Promise<{ file: string; document: Record<string, unknown> }> {
  let text: string;
  let file = given;
  if (/^https?:\/\//i.test(given)) {
    let response: Response;
    try {
      response = await fetch(given);
    } catch (error) {
      throw new UsageError(`cannot fetch ${given}: ${(error as Error).message}`);
    }
    if (!response.ok) throw new UsageError(`cannot fetch ${given}: HTTP ${response.status}`);
    text = await response.text();
    file = join(dir, `${name}${/\.ya?ml$/i.test(new URL(given).pathname) ? ".yaml" : ".json"}`);
    writeFileSync(file, text);
  } else text = readGivenFile(given);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // YAML: redocly reads it; the extensions are rated from JSON only.
    document = {};
  }
  return {
    file,
    document: typeof document === "object" && document !== null ? (document as Record<string, unknown>) : {},
  };
}

const versionOf = (document: Record<string, unknown>) =>
  String((document["info"] as { version?: unknown } | undefined)?.version ?? "?");

export function registerSpec(program: Command): void {
  const spec = subcommand(program, "spec", "Compare versions of the spec", [
    "lrg spec diff spec/released/openapi.json spec/dist/openapi.json",
  ]);
  subcommand(
    spec,
    "diff <old> <new>",
    "Each change between two versions of a spec (files or URLs) rated major, minor or patch: by the pinned redocly diff, and by lrg for the problem catalogue and the error envelopes (x-lrg-problem-codes, x-lrg-error-envelope), which redocly does not rate. Exit 0: no change at or above --fail-on; 1: some; 2: a spec cannot be read, or redocly is missing. With --changelog, 1 also when a breaking change comes without its info.version bump and changelog section",
    [
      "lrg spec diff spec/released/openapi.json spec/dist/openapi.json",
      "lrg spec diff https://example.test/registry-v1.json https://example.test/registry-v2.json --fail-on none",
      "lrg spec diff spec/released/openapi.json spec/dist/openapi.json --changelog spec/CHANGELOG.md",
    ],
  )
    .option("--fail-on <impact>", `exit 1 on a change of this impact or higher: ${IMPACTS.join(", ")} or none`, "major")
    .option(
      "--changelog <file>",
      "check the release instead: a breaking change needs info.version bumped and a section for it in FILE",
    )
    .action(
      async (oldSpec: string, newSpec: string, flags: { failOn: string; changelog?: string }, command: Command) => {
        const { out } = runtimeOf(command);
        if (flags.failOn !== "none" && !(IMPACTS as readonly string[]).includes(flags.failOn))
          throw new UsageError(`--fail-on is one of ${IMPACTS.join(", ")}, none (got ${flags.failOn})`);
        const changelog = flags.changelog === undefined ? undefined : readGivenFile(flags.changelog);
        const dir = mkdtempSync(join(tmpdir(), "lrg-spec-"));
        try {
          const before = await specText(oldSpec, dir, "old");
          const after = await specText(newSpec, dir, "new");
          const changes = [
            ...redoclyChanges(before.file, after.file),
            ...extensionChanges(before.document, after.document),
          ];
          const bump = bumpOf(changes);
          const versions = { old: versionOf(before.document), new: versionOf(after.document) };
          const problems =
            changelog === undefined || flags.changelog === undefined
              ? []
              : releaseProblems(bump, versions.old, versions.new, changelog, flags.changelog);
          if (out.json)
            out.data({ bump, versions, changes, ...(changelog !== undefined && { release_problems: problems }) });
          else {
            for (const change of changes)
              out.line(`${change.impact.padEnd(5)} ${change.kind.padEnd(8)} ${change.pointer} (${change.by})`);
            const count = (impact: Impact) => changes.filter((change) => change.impact === impact).length;
            out.line(
              `bump: ${bump} (${count("major")} major, ${count("minor")} minor, ${count("patch")} patch); info.version ${versions.old} -> ${versions.new}`,
            );
            for (const problem of problems) out.line(`not releasable: ${problem}`);
          }
          const failOn = flags.failOn === "none" ? -1 : IMPACTS.indexOf(flags.failOn as Impact);
          const failing =
            changelog === undefined ? bump !== "none" && IMPACTS.indexOf(bump) <= failOn : problems.length > 0;
          if (failing) throw new ExitWith(1);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
}
