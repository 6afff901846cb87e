// What changed between two versions of a spec, each change rated by the version bump it needs (major: a client written
// for the old one may break; minor: something was added; patch: words). Schemas, parameters, operations and responses
// are rated by the pinned `redocly diff`; what it does not look at, the `x-lrg-` extensions that clients rely on, is
// rated here: the problem catalogue (`x-lrg-problem-codes`, the codes clients branch on) and each operation's error
// envelope (`x-lrg-error-envelope`, the registry codes written for them).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { UsageError } from "../conventions.js";

/** The version bump a change needs. */
export type Impact = "major" | "minor" | "patch";
export const IMPACTS: readonly Impact[] = ["major", "minor", "patch"];

/** One change between the two specs. */
export interface SpecChange {
  readonly impact: Impact;
  readonly kind: "added" | "removed" | "modified";
  /** JSON pointer into the documents. */
  readonly pointer: string;
  /** Who rated it: the pinned redocly diff, or lrg (the extensions it does not rate). */
  readonly by: "redocly" | "lrg";
}

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const escape = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");

/** The bump a list of changes needs: the highest impact among them, or none. */
export function bumpOf(changes: readonly SpecChange[]): Impact | "none" {
  return IMPACTS.find((impact) => changes.some((change) => change.impact === impact)) ?? "none";
}

/** Changes of a map keyed by name: removed and `changed` members are `major`, added ones `minor`. */
function mapChanges(
  before: Node,
  after: Node,
  at: string,
  changed: (old: unknown, now: unknown) => Impact | undefined,
): SpecChange[] {
  const changes: SpecChange[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const pointer = `${at}/${escape(name)}`;
    if (!(name in after)) changes.push({ impact: "major", kind: "removed", pointer, by: "lrg" });
    else if (!(name in before)) changes.push({ impact: "minor", kind: "added", pointer, by: "lrg" });
    else {
      const impact = changed(before[name], after[name]);
      if (impact !== undefined) changes.push({ impact, kind: "modified", pointer, by: "lrg" });
    }
  }
  return changes;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changes of the extensions redocly diff does not rate. A problem code removed or answered with another status is
 * major, one added minor, its words changed patch; an error envelope's schema changed, or a code it writes changed or
 * removed, is major, a code added minor.
 */
export function extensionChanges(before: Node, after: Node): SpecChange[] {
  const catalogue = (document: Node) =>
    isObject(document["x-lrg-problem-codes"]) ? document["x-lrg-problem-codes"] : {};
  const changes = mapChanges(catalogue(before), catalogue(after), "/x-lrg-problem-codes", (old, now) => {
    if (same(old, now)) return undefined;
    return isObject(old) && isObject(now) && old["status"] === now["status"] ? "patch" : "major";
  });
  const envelopes = (document: Node) => {
    const found = new Map<string, Node>();
    for (const [path, item] of Object.entries(isObject(document["paths"]) ? document["paths"] : {}))
      for (const [method, operation] of Object.entries(isObject(item) ? item : {}))
        if (isObject(operation) && isObject(operation["x-lrg-error-envelope"]))
          found.set(`/paths/${escape(path)}/${method}/x-lrg-error-envelope`, operation["x-lrg-error-envelope"]);
    return found;
  };
  const old = envelopes(before);
  const now = envelopes(after);
  for (const pointer of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(pointer);
    const b = now.get(pointer);
    if (a === undefined || b === undefined || a["schema"] !== b["schema"]) {
      if (!same(a, b))
        changes.push({
          impact: "major",
          kind: a === undefined ? "added" : b === undefined ? "removed" : "modified",
          pointer,
          by: "lrg",
        });
      continue;
    }
    const codes = (envelope: Node) => (isObject(envelope["codes"]) ? envelope["codes"] : {});
    changes.push(...mapChanges(codes(a), codes(b), `${pointer}/codes`, (x, y) => (x === y ? undefined : "major")));
  }
  return changes;
}

/** The bin/cli.js of @redocly/cli as `from` resolves it, if it does. */
function redoclyFrom(from: string): string | undefined {
  try {
    const bin = join(dirname(createRequire(from).resolve("@redocly/cli/package.json")), "bin", "cli.js");
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the pinned redocly CLI is: LRG_REDOCLY, or @redocly/cli as the current folder resolves it, or as the spec's
 * package does in a checkout of the repository (the workspace pins it there).
 */
export function redoclyBin(): string | undefined {
  const given = process.env["LRG_REDOCLY"];
  if (given !== undefined && given !== "") return given;
  const found = redoclyFrom(join(process.cwd(), "package.json")) ?? redoclyFrom(import.meta.filename);
  if (found !== undefined) return found;
  try {
    return redoclyFrom(createRequire(import.meta.filename).resolve("@lrg/spec"));
  } catch {
    return undefined;
  }
}

interface RedoclyChange {
  impact: Impact;
  kind: SpecChange["kind"];
  path: string;
  property?: string;
}

/** The changes the pinned redocly diff rates between two spec files. Throws a UsageError when it cannot run. */
export function redoclyChanges(oldFile: string, newFile: string): SpecChange[] {
  const bin = redoclyBin();
  if (bin === undefined)
    throw new UsageError(
      "spec diff needs the pinned @redocly/cli (2.77.0): install it beside lrg or set LRG_REDOCLY to its bin/cli.js",
    );
  const dir = mkdtempSync(join(tmpdir(), "lrg-spec-diff-"));
  try {
    const out = join(dir, "diff.json");
    const args = ["diff", oldFile, newFile, "--format", "json", "--fail-on", "none", "-o", out];
    const run = bin.endsWith(".js")
      ? spawnSync(process.execPath, [bin, ...args], {
          encoding: "utf8",
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        })
      : spawnSync(bin, args, {
          encoding: "utf8",
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        });
    if (run.status !== 0 || !existsSync(out)) {
      const why = `${run.stderr ?? ""}${run.stdout ?? ""}`.split("\n").find((line) => /error|cannot|not/i.test(line));
      throw new UsageError(
        `redocly diff could not compare ${oldFile} and ${newFile}${why === undefined ? "" : `: ${why.trim()}`}`,
      );
    }
    const report = JSON.parse(readFileSync(out, "utf8")) as { changes?: RedoclyChange[] };
    return (report.changes ?? []).map((change) => ({
      impact: change.impact,
      kind: change.kind,
      pointer: `${change.path.replace(/^#/, "")}${change.property === undefined ? "" : `/${escape(change.property)}`}`,
      by: "redocly",
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A semantic version's parts, or undefined when it is not one. */
function versionParts(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * Why a release of `after` is not ready, given the bump its changes need (empty when it is): a breaking change needs
 * `info.version` bumped for it (the major number, or below 1.0.0 the minor one, as semver reads 0.x) and a section
 * `## <version>` of the changelog that says something.
 */
export function releaseProblems(
  bump: Impact | "none",
  before: string,
  after: string,
  changelog: string,
  changelogName: string,
): string[] {
  if (bump !== "major") return [];
  const old = versionParts(before);
  const now = versionParts(after);
  if (old === undefined || now === undefined)
    return [`info.version ${after} (was ${before}) is not a semantic version`];
  const breakingBump = old[0] === 0 && now[0] === 0 ? now[1] > old[1] : now[0] > old[0];
  const problems: string[] = [];
  if (!breakingBump)
    problems.push(
      `a breaking change needs info.version bumped past ${before} (${old[0] === 0 ? `0.${old[1] + 1}.0` : `${old[0] + 1}.0.0`} or later); it is ${after}`,
    );
  const lines = changelog.split("\n");
  const heading = lines.findIndex((line) => new RegExp(`^##\\s+\\[?${after.replace(/\./g, "\\.")}\\b`).test(line));
  const next = lines.findIndex((line, i) => i > heading && line.startsWith("## "));
  const body = heading === -1 ? [] : lines.slice(heading + 1, next === -1 ? undefined : next);
  if (!body.some((line) => line.trim() !== ""))
    problems.push(`a breaking change needs a section "## ${after}" in ${changelogName} that says what breaks`);
  return problems;
}
