// What a fuzzing run did, counted as it goes (requests, statuses, operations, variants, violations, known departures,
// isolation checks) and told at the end as lines of text.
import type { Operation } from "@lrg/spec";
import type { WireAnswer, WireRequest } from "../http.js";
import { KNOWN_DEPARTURES } from "./known-departures.js";
import type { Plan } from "./plans.js";

/** Which check found a violation. */
export type Oracle = "spec" | "server-error" | "no-answer" | "isolation" | "upload" | "download";

/** A departure from the spec or from an oracle, with what it takes to look into it. */
export interface Violation {
  /** The check that found it: the spec's answers, no 5xx, an answer at all, business-unit isolation, the flows. */
  oracle: Oracle;
  /** Which request of the run (1-based, counting every HTTP request). */
  request: number;
  /** The epoch (0: the set-up and the warm-up, drawn from no seed). */
  epoch: number;
  /** Index of the plan within its epoch (regenerate with the seed). */
  plan: number;
  operationId: string;
  variant: string;
  method: string;
  target: string;
  requestBody: string;
  status: number | undefined;
  answer: string;
  problems: string[];
}

/** Requests and answers by status class of one operation (as the request's method and path address it). */
export interface OperationTally {
  requests: number;
  classes: Record<string, number>;
  totalMs: number;
}

/** What a run did. */
export interface FuzzSummary {
  seed: number;
  requests: number;
  plans: number;
  seconds: number;
  epochs: number;
  /** Answers by status (and "no answer"). */
  statuses: Record<string, number>;
  /** Per operation (as the request's method and path address it): requests and answers by status class. */
  operations: Record<string, OperationTally>;
  /** Plans by variant. */
  variants: Record<string, number>;
  /** 503-01 answers while the sandbox's fault injection was on: by design, not counted as 5xx. */
  injected503: number;
  /** 5xx answers that fault injection does not explain. */
  serverErrors: number;
  violationCount: number;
  /** The first violations in detail (at most 200). */
  violations: Violation[];
  /** Departures already known (known-departures.ts): counts and a few examples of each. */
  known: Record<string, { summary: string; count: number; examples: Violation[] }>;
  /** Operations of the spec that no request addressed, and those that never answered 2xx or 3xx. */
  unaddressed: string[];
  neverSucceeded: string[];
  /** Operations whose isolation was checked: another business unit asked, and could have been shown unit a's records. */
  isolationChecked: string[];
}

const MAX_KEPT_VIOLATIONS = 200;
const MAX_KEPT_EXAMPLES = 3;

/** Where the run is: the epoch and the plan within it, for the violations found there. */
export interface Position {
  epoch: number;
  plan: number;
}

/** The summary of a run as it goes. */
export class Tally {
  readonly summary: FuzzSummary;
  readonly #isolationChecked = new Set<string>();

  constructor(seed: number, inScope: readonly Operation[]) {
    const operations = [...inScope.map((o) => o.operationId), "(unmatched)"];
    this.summary = {
      seed,
      requests: 0,
      plans: 0,
      seconds: 0,
      epochs: 0,
      statuses: {},
      operations: Object.fromEntries(operations.map((id) => [id, { requests: 0, classes: {}, totalMs: 0 }])),
      variants: {},
      injected503: 0,
      serverErrors: 0,
      violationCount: 0,
      violations: [],
      known: Object.fromEntries(KNOWN_DEPARTURES.map((k) => [k.id, { summary: k.summary, count: 0, examples: [] }])),
      unaddressed: [],
      neverSucceeded: [],
      isolationChecked: [],
    };
  }

  /** Counts a plan drawn or built. */
  plan(plan: Plan): void {
    this.summary.plans += 1;
    this.summary.variants[plan.variant] = (this.summary.variants[plan.variant] ?? 0) + 1;
  }

  /** Counts one exchange, by the operation it addressed and by what came back. */
  exchange(operationId: string, answer: WireAnswer): void {
    const { summary } = this;
    summary.requests += 1;
    const tally = summary.operations[operationId] ?? { requests: 0, classes: {}, totalMs: 0 };
    summary.operations[operationId] = tally;
    tally.requests += 1;
    tally.totalMs += answer.ms;
    const status = answer.kind === "answer" ? String(answer.status) : "no answer";
    const statusClass = answer.kind === "answer" ? `${status[0] ?? "?"}xx` : status;
    summary.statuses[status] = (summary.statuses[status] ?? 0) + 1;
    tally.classes[statusClass] = (tally.classes[statusClass] ?? 0) + 1;
  }

  /** Records a violation (the first ones in detail). */
  violation(found: Omit<Violation, "request" | "epoch" | "plan">, at: Position): void {
    this.summary.violationCount += 1;
    if (this.summary.violations.length < MAX_KEPT_VIOLATIONS) this.summary.violations.push(this.#detail(found, at));
  }

  /** Counts a departure already known (with a few examples); false when no such departure is listed. */
  known(id: string, found: Omit<Violation, "request" | "epoch" | "plan">, at: Position): boolean {
    const known = this.summary.known[id];
    if (known === undefined) return false;
    known.count += 1;
    if (known.examples.length < MAX_KEPT_EXAMPLES) known.examples.push(this.#detail(found, at));
    return true;
  }

  /** Notes that an operation's isolation was checked. */
  isolationChecked(operationId: string): void {
    this.#isolationChecked.add(operationId);
  }

  #detail(found: Omit<Violation, "request" | "epoch" | "plan">, at: Position): Violation {
    return { ...found, request: this.summary.requests, epoch: at.epoch, plan: at.plan };
  }

  /** The summary at the end: which operations were never addressed, never succeeded, had their isolation checked. */
  finish(inScope: readonly Operation[], seconds: number): FuzzSummary {
    const { summary } = this;
    const ids = inScope.map((o) => o.operationId);
    const succeeded = (id: string) => {
      const classes = summary.operations[id]?.classes ?? {};
      return (classes["2xx"] ?? 0) + (classes["3xx"] ?? 0) > 0;
    };
    summary.seconds = seconds;
    summary.unaddressed = ids.filter((id) => (summary.operations[id]?.requests ?? 0) === 0);
    summary.neverSucceeded = ids.filter((id) => !succeeded(id));
    summary.isolationChecked = ids.filter((id) => this.#isolationChecked.has(id));
    return summary;
  }
}

/** What a violation records of the request and its answer (the first bytes of each). */
export function exchangeDetail(
  wire: WireRequest,
  answer: WireAnswer | undefined,
): Pick<Violation, "method" | "target" | "requestBody" | "status" | "answer"> {
  return {
    method: wire.method,
    target: wire.target.slice(0, 300),
    requestBody: (wire.body ?? Buffer.alloc(0)).subarray(0, 300).toString("utf8"),
    status: answer?.kind === "answer" ? answer.status : undefined,
    answer: answer?.kind === "answer" ? answer.body.subarray(0, 400).toString("utf8") : (answer?.reason ?? ""),
  };
}

const n = (value: number) => value.toLocaleString("en");

/** Counts as `name count, ...`, sorted by name. */
const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} ${n(count)}`)
    .join(", ");

/** The head of the summary: how much, how fast, what was found, by status. */
function headLines(summary: FuzzSummary): string[] {
  const known = Object.values(summary.known).reduce((total, k) => total + k.count, 0);
  const rate = Math.round(summary.requests / Math.max(summary.seconds, 0.001));
  return [
    `fuzz: ${n(summary.requests)} requests (${n(summary.plans)} drawn, ${summary.epochs} epochs) in ${summary.seconds.toFixed(0)} s, ` +
      `${n(rate)}/s; seed ${summary.seed}`,
    `violations: ${n(summary.violationCount)}; known departures: ${n(known)}; ` +
      `5xx not explained by fault injection: ${n(summary.serverErrors)}; injected 503-01: ${n(summary.injected503)}`,
    `statuses: ${counts(summary.statuses)}`,
    "per operation (requests: answers by class):",
    ...Object.entries(summary.operations).map(
      ([operation, tally]) =>
        `  ${operation.padEnd(32)} ${n(tally.requests).padStart(8)} ` +
        `(mean ${(tally.totalMs / Math.max(1, tally.requests)).toFixed(1)} ms): ${counts(tally.classes)}`,
    ),
  ];
}

/** The known departures met, each with an example. */
function knownLines(summary: FuzzSummary): string[] {
  return Object.entries(summary.known)
    .filter(([, known]) => known.count > 0)
    .map(([id, known]) => {
      const example = known.examples[0];
      const shown = example
        ? `\n    e.g. ${example.method} ${example.target.slice(0, 120)} -> ${example.status ?? "nothing"}: ` +
          example.problems.join("; ").slice(0, 200)
        : "";
      return `KNOWN DEPARTURE ${id}: ${n(known.count)} answers. ${known.summary}${shown}`;
    });
}

/** Each violation kept, with its request and answer. */
function violationLines(summary: FuzzSummary): string[] {
  const lines = summary.violations.map(
    (v) =>
      `VIOLATION #${v.request} (epoch ${v.epoch}, plan ${v.plan}) ${v.operationId} [${v.variant}] ${v.method} ${v.target}` +
      `${v.requestBody ? `\n    body: ${v.requestBody.slice(0, 200)}` : ""}` +
      `\n    answered ${v.status ?? "nothing"}: ${v.answer.slice(0, 300)}\n    ${v.problems.join("\n    ")}`,
  );
  if (summary.violationCount > summary.violations.length)
    lines.push(`... and ${n(summary.violationCount - summary.violations.length)} more violations`);
  return lines;
}

/** The summary as lines of text: counts, statuses, operations, known departures, coverage, violations. */
export function describeFuzz(summary: FuzzSummary): string {
  const coverage = [
    ...(summary.unaddressed.length > 0 ? [`operations never addressed: ${summary.unaddressed.join(", ")}`] : []),
    ...(summary.neverSucceeded.length > 0
      ? [`operations that never answered 2xx/3xx: ${summary.neverSucceeded.join(", ")}`]
      : []),
  ];
  return [...headLines(summary), ...knownLines(summary), ...coverage, ...violationLines(summary)].join("\n");
}
