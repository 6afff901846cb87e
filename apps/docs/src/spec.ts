// The bundled spec as the docs read it: operations for the index, the state machine, the scenario titles.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const require = createRequire(import.meta.url);

/** Absolute path of one artifact that @lrg/spec exports (e.g. `openapi.json`, `sandbox.yaml`). */
export function specArtifact(name: string): string {
  return require.resolve(`@lrg/spec/${name}`);
}

/** Parses one JSON artifact of @lrg/spec. */
export function loadSpecJson(name: "openapi.json" | "sandbox.json"): JsonObject {
  return JSON.parse(readFileSync(specArtifact(name), "utf8")) as JsonObject;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One operation, as the reference lists it. */
export interface OperationSummary {
  operationId: string;
  summary: string;
  method: string;
  path: string;
  tag: string;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** Every operation of a bundled document, in document order. */
export function operationsOf(spec: JsonObject): OperationSummary[] {
  const paths = isObject(spec["paths"]) ? spec["paths"] : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = isObject(item) ? item[method] : undefined;
      if (!isObject(operation)) return [];
      const tags = Array.isArray(operation["tags"]) ? operation["tags"] : [];
      return [
        {
          operationId: String(operation["operationId"]),
          summary: String(operation["summary"] ?? ""),
          method: method.toUpperCase(),
          path,
          tag: String(tags[0] ?? "default"),
        },
      ];
    }),
  );
}

/** Where Redoc (3, hash routing) shows an operation, relative to the reference page. */
export function referenceAnchor(operation: Pick<OperationSummary, "operationId" | "tag">): string {
  return `#/${operation.tag}/${operation.operationId.toLowerCase()}`;
}

/** One allowed move of an application between statuses (an entry of `x-lrg-transitions`). */
export interface Transition {
  from: string;
  to: string;
  trigger: string;
  source: string;
  notifications: { v1: string; v0?: string };
}

/** The application state machine: the statuses in enum order and the transitions between them. */
export interface StateMachine {
  statuses: string[];
  transitions: Transition[];
}

/** Reads components.schemas.ApplicationStatus: its enum and its `x-lrg-transitions`, checked for consistency. */
export function stateMachineOf(spec: JsonObject): StateMachine {
  const components = isObject(spec["components"]) ? spec["components"] : {};
  const schemas = isObject(components["schemas"]) ? components["schemas"] : {};
  const status = schemas["ApplicationStatus"];
  if (!isObject(status) || !Array.isArray(status["enum"])) {
    throw new Error("components.schemas.ApplicationStatus with an enum is missing from the spec");
  }
  const statuses = status["enum"].map(String);
  const raw = status["x-lrg-transitions"];
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new Error("components.schemas.ApplicationStatus has no x-lrg-transitions");
  }
  const transitions = raw.map((entry, index): Transition => {
    if (!isObject(entry) || !isObject(entry["notifications"])) {
      throw new Error(`x-lrg-transitions[${index}] is not a transition`);
    }
    const transition: Transition = {
      from: String(entry["from"]),
      to: String(entry["to"]),
      trigger: String(entry["trigger"] ?? ""),
      source: String(entry["source"] ?? ""),
      notifications: { v1: String(entry["notifications"]["v1"] ?? "") },
    };
    const v0 = entry["notifications"]["v0"];
    if (typeof v0 === "string") transition.notifications.v0 = v0;
    for (const end of [transition.from, transition.to]) {
      if (!statuses.includes(end)) throw new Error(`x-lrg-transitions[${index}] names ${end}, not an ApplicationStatus`);
    }
    return transition;
  });
  return { statuses, transitions };
}

/**
 * The Markdown table of scenario titles in the description of officialSearchOfWhole (the simulated register),
 * so the guides show the spec's own list instead of a copy that could drift.
 */
export function scenarioTitlesTable(spec: JsonObject): string {
  const search = operationsOf(spec).find((operation) => operation.operationId === "officialSearchOfWhole");
  if (search === undefined) throw new Error("officialSearchOfWhole is missing from the spec");
  const paths = spec["paths"] as JsonObject;
  const item = paths[search.path] as JsonObject;
  const description = String((item[search.method.toLowerCase()] as JsonObject)["description"] ?? "");
  const lines = description.split("\n");
  const heading = lines.findIndex((line) => line.includes("Scenario titles"));
  if (heading === -1) throw new Error("officialSearchOfWhole's description has no scenario titles");
  const start = lines.findIndex((line, index) => index > heading && line.trimStart().startsWith("|"));
  const end = lines.findIndex((line, index) => index > start && !line.trimStart().startsWith("|"));
  const table = lines.slice(start, end === -1 ? undefined : end).map((line) => line.trim());
  if (start === -1 || table.length < 3) throw new Error("the scenario titles table could not be read");
  return table.join("\n");
}

/** The catalogue of problem codes (`x-lrg-problem-codes`), in code order. */
export function problemCodesOf(spec: JsonObject): { code: string; status: number; title: string; when: string }[] {
  const catalogue = spec["x-lrg-problem-codes"];
  if (!isObject(catalogue)) return [];
  return Object.entries(catalogue)
    .filter((entry): entry is [string, JsonObject] => isObject(entry[1]))
    .map(([code, entry]) => ({
      code,
      status: Number(entry["status"]),
      title: String(entry["title"] ?? ""),
      when: String(entry["when"] ?? ""),
    }))
    .sort((a, b) => a.code.localeCompare(b.code));
}
