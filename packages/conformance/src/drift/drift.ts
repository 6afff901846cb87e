// `lrg drift`: a recording judged against the spec. Each exchange on its own (request and answer, with the spec's own
// checkers), then the registry's behaviour rules across exchanges; each finding says who departed from the spec.
import { readFileSync } from "node:fs";
import {
  dereference,
  operationMatcher,
  operations,
  operationsOf,
  readOperations,
  specVersion,
  type SpecNode,
} from "@lrg/spec";
import { behaviourRules } from "./behaviour.js";
import { judgeExchange, type DriftSpec, type Finding, type Judged } from "./exchange-checks.js";
import type { Exchange } from "./har.js";

export type { DriftSpec, Finding };

/** The spec `lrg` was built with: the registry interface and the sandbox control plane. */
export const builtSpec: DriftSpec = { version: specVersion, match: operationMatcher(operations) };

/**
 * The spec of a bundled registry document (`spec/dist/openapi.json`, or another version of it), with the sandbox
 * control plane `lrg` was built with. Throws an Error whose message is one line when it is not one.
 */
export function specFromFile(file: string): DriftSpec {
  let document: SpecNode;
  try {
    document = JSON.parse(readFileSync(file, "utf8")) as SpecNode;
  } catch (error) {
    throw new Error(
      `cannot read ${file} as JSON: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message.split("\n")[0]}`,
    );
  }
  if (typeof document !== "object" || document === null || typeof document["paths"] !== "object")
    throw new Error(`${file} is not an OpenAPI document (it has no paths)`);
  const registry = readOperations(dereference(document), "registry");
  const info = document["info"] as { version?: unknown } | undefined;
  return { version: String(info?.version ?? "?"), match: operationMatcher([...registry, ...operationsOf("sandbox")]) };
}

/** What a recording was found to hold. */
export interface DriftReport {
  readonly spec_version: string;
  readonly exchanges: number;
  /** Exchanges that addressed an operation of the spec. */
  readonly matched: number;
  readonly findings: readonly Finding[];
}

/** Judges every exchange, then the behaviour rules across them: the findings in the recording's order. */
export function drift(spec: DriftSpec, exchanges: readonly Exchange[]): DriftReport {
  const judged: Judged[] = [];
  const findings: Finding[] = [];
  for (const exchange of exchanges) {
    const one = judgeExchange(spec, exchange);
    judged.push(one.judged);
    findings.push(...one.findings);
  }
  // A rule across exchanges says nothing twice: a pointer of an exchange already found is not reported again.
  const seen = new Set(findings.map((f) => `${f.exchange} ${f.pointer}`));
  for (const rule of behaviourRules)
    for (const found of rule(judged)) {
      const key = `${found.exchange} ${found.pointer}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(found);
    }
  findings.sort((a, b) => a.exchange - b.exchange);
  return {
    spec_version: spec.version,
    exchanges: exchanges.length,
    matched: judged.filter((j) => j.operation !== undefined).length,
    findings,
  };
}
