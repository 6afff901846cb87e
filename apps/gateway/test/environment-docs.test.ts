// Every environment variable the gateway reads is in the README's table, and the many-teams guide's table says the
// same default for each variable both list: the variables are what `configFromEnv` really reads, not a list by hand.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.js";

const root = join(import.meta.dirname, "..", "..", "..");
const README = "README.md";
const MANY_TEAMS = join("apps", "docs", "guides", "many-teams.md");

/** The variables `configFromEnv` reads, a bucket's included (they are read only when `LRG_BLOB_URL` is set). */
function variablesRead(): Set<string> {
  const read = new Set<string>();
  const given: Record<string, string> = { LRG_BLOB_URL: "s3://lrg-documents" };
  const env = new Proxy(given, {
    get(target, name) {
      if (typeof name === "string") read.add(name);
      return typeof name === "string" ? target[name] : undefined;
    },
  });
  configFromEnv(env);
  return read;
}

/** The rows of a page's `| Variable | Default | Meaning |` table: each variable its first cell names → the row's cells. */
function variableTable(path: string): Map<string, { defaults: string; alone: boolean }> {
  const lines = readFileSync(join(root, path), "utf8").split("\n");
  const start = lines.findIndex((line) => /^\| Variable \| Default \|/.test(line));
  const rows = new Map<string, { defaults: string; alone: boolean }>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [names = "", defaults = ""] = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    const named = [...names.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map(([, name]) => name ?? "");
    for (const name of named) rows.set(name, { defaults, alone: named.length === 1 });
  }
  return rows;
}

describe("the environment variables", () => {
  it("of the gateway are read as the tables say (a sanity check of the reading)", () => {
    expect(variablesRead()).toContain("LRG_DECISION_DELAY_MS");
    expect(variableTable(README).get("LRG_HTTPS_PORT")).toEqual({ defaults: "`8443`", alone: true });
  });

  it("the gateway reads are all in the README's table", () => {
    const documented = variableTable(README);
    expect([...variablesRead()].filter((name) => !documented.has(name))).toEqual([]);
  });

  it("have the same default in the many-teams guide as in the README (rows of one variable)", () => {
    const readme = variableTable(README);
    const differing = [...variableTable(MANY_TEAMS)]
      .filter(([name, row]) => {
        const other = readme.get(name);
        return row.alone && other?.alone === true && other.defaults !== row.defaults;
      })
      .map(([name, row]) => `${name}: README ${readme.get(name)?.defaults}, many-teams ${row.defaults}`);
    expect(differing).toEqual([]);
  });
});
