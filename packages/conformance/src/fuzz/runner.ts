// The fuzzing run: a set-up and a warm-up that reach every operation's success whatever the seed, then requests drawn
// by fast-check from the seed (plans.ts), sent to one target a few at a time, every answer put to the oracles
// (oracles.ts: the spec's, no 5xx but injected 503s, business-unit isolation, the signed flows'). Epochs of a few
// hundred requests each start from settings of their own (faults injected in some). The pieces: request building
// (request.ts), an exchange and its judging (exchange.ts), the flows (flows.ts), the set-up (set-up.ts), the summary
// (summary.ts).
import fc from "fast-check";
import { erasesRecords, injectsFaults, operations, type Operation } from "@lrg/spec";
import { WireClient, type WireAnswer } from "../http.js";
import { acknowledges, isolationApplies } from "../operation-facts.js";
import type { TargetName } from "../session.js";
import { FuzzContext } from "./context.js";
import { Exchanger } from "./exchange.js";
import { download, upload } from "./flows.js";
import { jsonOf } from "./oracles.js";
import {
  allRequests,
  environments,
  isExclusive,
  operationsIn,
  type Environment,
  type FuzzScope,
  type Plan,
} from "./plans.js";
import { ownerOf, wireOf } from "./request.js";
import { prepare, QUIET, startEpoch, type SetUp } from "./set-up.js";
import { Tally, type FuzzSummary } from "./summary.js";
import { warmUpFilter, warmUpOrder, warmUpPlans } from "./warm-up.js";

export type { FuzzScope } from "./plans.js";
export { describeFuzz, type FuzzSummary, type Oracle, type Violation } from "./summary.js";

/** Options of a run. */
export interface FuzzOptions {
  /** The target's address. */
  url: string;
  /** What kind of target it is (default `gateway`): known departures may hold for one kind only. */
  target?: TargetName;
  /** How much of the interface the run touches (default `full`, which needs the control plane). */
  scope?: FuzzScope;
  /** The control plane's bearer token (scope `full`). */
  sandboxToken?: string;
  /** The user the requests run as, where there is no control plane to create business units. */
  credentials?: { username: string; password: string };
  /** HTTP requests to send in all (set-up and the calls of two-step flows included). */
  requests: number;
  seed: number;
  /** Requests in flight at once (exclusive ones go alone). */
  concurrency?: number;
  /** Requests drawn per epoch (each epoch starts from its own settings). */
  epochSize?: number;
  timeoutMs?: number;
  /** Called about every `progressEvery` requests, and at the end. */
  onProgress?: (progress: FuzzProgress) => void;
  progressEvery?: number;
}

export interface FuzzProgress {
  requests: number;
  target: number;
  seconds: number;
  violations: number;
  injected503: number;
}

/** Title numbers the spec's own examples name (the sandbox's scenario titles), for title enquiries that find one. */
export function exampleTitles(): string[] {
  const titles = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (depth > 12 || value === null || typeof value !== "object") return;
    for (const [name, member] of Object.entries(value)) {
      if (name === "title_number" && typeof member === "string") titles.add(member);
      else walk(member, depth + 1);
    }
  };
  for (const operation of operations) {
    walk(operation.requestBody?.examples, 0);
    for (const parameter of operation.parameters)
      if (parameter.name === "title_number" && typeof parameter.example === "string") titles.add(parameter.example);
  }
  return [...titles];
}

/** A run under way: what it sends with, what it counts into, the operations it covers. */
interface Run extends SetUp {
  options: FuzzOptions;
  tally: Tally;
  inScope: readonly Operation[];
}

const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

/**
 * One plan: its request(s), their checks, and what follows a success (a reset makes the fuzzer's records anew);
 * answers whether the operation it addresses answered success.
 */
async function execute(run: Run, plan: Plan): Promise<boolean> {
  const { exchanger } = run;
  run.tally.plan(plan);
  if (plan.flow?.kind === "upload") return (await upload(exchanger, run.baseUrl, plan, plan.flow)) !== undefined;
  if (plan.flow?.kind === "download") return download(exchanger, run.baseUrl, plan, plan.flow);
  const operation = byId.get(plan.operationId);
  const { wire, named } = wireOf(exchanger.context, plan, operation !== undefined && acknowledges(operation));
  const owner = ownerOf(plan.auth);
  const answer = await exchanger.send(wire, plan, owner, { pathMayMiss: plan.pathMayMiss ?? false, named });
  if (answer.kind !== "answer") return false;
  // Identifiers the client makes up (a title enquiry's message_id) are the caller's once it sent them, answered or
  // refused: a unit's readiness evidence echoes its own refused search, message_id included (seed 778062558).
  exchanger.context.harvestChosen(owner === "b" ? "b" : "a", jsonOf(wire.body), owner !== "s");
  if (answer.status >= 400) return false;
  // Settings whose answer injects faults (the global ones, or a unit's own): a 503-01 may follow.
  const errorRate = (jsonOf(answer.body) as { error_rate?: unknown } | undefined)?.error_rate;
  if (typeof errorRate === "number" && errorRate > 0) exchanger.settingsFaults = true;
  // An operation whose success turns on the sandbox's own faults for a unit (a readiness run's).
  if (operation !== undefined && injectsFaults(operation)) exchanger.unitFaults = true;
  if (operation !== undefined && erasesRecords(operation)) await prepare(run);
  return true;
}

/** The same request as the other business unit, naming unit a's records: they must not be found. */
export function asOther(plan: Plan): Plan | undefined {
  if (plan.flow?.kind === "download") return { ...plan, flow: { ...plan.flow, other: true } };
  if (plan.flow !== undefined) return undefined;
  if (plan.auth === "unit") return { ...plan, auth: "other" };
  if (plan.auth === "unit-token" || plan.auth === "bearer") return { ...plan, auth: "other-token" };
  return undefined;
}

/**
 * Every operation in scope, before anything is drawn from the seed: its candidates in turn until one succeeds,
 * then, where isolation applies, that request again as the other business unit. Settings are put back after each
 * operation that changes them for everyone.
 */
async function warmUp(run: Run): Promise<void> {
  const allowed = warmUpFilter(run.scope);
  for (const operation of warmUpOrder(run.inScope, isExclusive)) {
    for (const [index, plan] of warmUpPlans(operation).filter(allowed).entries()) {
      run.exchanger.at.plan = index;
      if (!(await execute(run, plan))) continue;
      const other = asOther(plan);
      if (other !== undefined && allowed(other) && isolationApplies(operation)) await execute(run, other);
      break;
    }
    if (isExclusive(operation)) await startEpoch(run, QUIET);
  }
}

/** One epoch: its settings, then its plans drawn from the seed, a few in flight at once, exclusive ones alone. */
async function runEpoch(run: Run, epoch: number, generator: fc.Arbitrary<Plan>): Promise<void> {
  const { options, tally, exchanger } = run;
  exchanger.at.epoch = epoch;
  tally.summary.epochs = epoch;
  const [environment] = fc.sample(environments, { seed: options.seed + epoch * 7919, numRuns: 1 });
  await startEpoch(run, environment as Environment);
  const plans = fc.sample(generator, { seed: options.seed + epoch, numRuns: options.epochSize ?? 250 });
  const inFlight = new Set<Promise<unknown>>();
  for (const [index, plan] of plans.entries()) {
    if (tally.summary.requests >= options.requests) break;
    exchanger.at.plan = index;
    if (plan.exclusive === true) {
      await Promise.all(inFlight);
      await execute(run, plan);
      continue;
    }
    while (inFlight.size >= (options.concurrency ?? 4)) await Promise.race(inFlight);
    const running: Promise<unknown> = execute(run, plan).finally(() => inFlight.delete(running));
    inFlight.add(running);
  }
  await Promise.all(inFlight);
}

/** Puts a gateway given by address back as it was found: its settings, its clock at real time, its day list open. */
async function restore(run: Run, settingsBefore: WireAnswer | undefined): Promise<void> {
  if (settingsBefore?.kind !== "answer" || settingsBefore.status !== 200) return;
  await run.exchanger.sandbox("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
  await run.exchanger.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
  await run.exchanger.sandbox("PUT", "/sandbox/v1/settings", jsonOf(settingsBefore.body));
}

/** The run's parts, from its options (throws when the scope lacks what it needs). */
function startRun(options: FuzzOptions, client: WireClient, started: number): Run {
  const scope = options.scope ?? "full";
  if (scope === "full" && options.sandboxToken === undefined)
    throw new Error("a full fuzzing run needs the control plane's token");
  if (scope !== "full" && options.credentials === undefined)
    throw new Error(`a ${scope} fuzzing run needs the credentials of a user`);
  const inScope = operationsIn(scope);
  const tally = new Tally(options.seed, inScope);
  let reported = 0;
  const progress = () => {
    if (tally.summary.requests - reported < (options.progressEvery ?? 1000)) return;
    reported = tally.summary.requests;
    report(options, tally, started);
  };
  const context = new FuzzContext(options.sandboxToken ?? "", exampleTitles());
  const exchanger = new Exchanger(client, tally, context, options.target ?? "gateway", progress);
  return { options, tally, inScope, exchanger, baseUrl: options.url, scope, credentials: options.credentials };
}

function report(options: FuzzOptions, tally: Tally, started: number): void {
  options.onProgress?.({
    requests: tally.summary.requests,
    target: options.requests,
    seconds: (performance.now() - started) / 1000,
    violations: tally.summary.violationCount,
    injected503: tally.summary.injected503,
  });
}

/** Runs the fuzzer against a target; resolves with the summary (it never throws for what it finds). */
export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const started = performance.now();
  const client = new WireClient(options.url, (options.concurrency ?? 4) + 2, options.timeoutMs ?? 20_000);
  const run = startRun(options, client, started);
  const full = run.scope === "full";
  const settingsBefore = full ? await run.exchanger.sandbox("GET", "/sandbox/v1/settings", undefined) : undefined;
  // From a reset sandbox: what an earlier run left (system errors scheduled for every unit's next submissions, a
  // closed day list) must not keep an operation from succeeding.
  if (full) await run.exchanger.sandbox("POST", "/sandbox/v1/reset", undefined);
  await prepare(run);
  await warmUp(run);
  const generator = allRequests(run.scope);
  for (let epoch = 1; run.tally.summary.requests < options.requests; epoch += 1) await runEpoch(run, epoch, generator);
  await restore(run, settingsBefore);
  client.close();
  const summary = run.tally.finish(run.inScope, (performance.now() - started) / 1000);
  report(options, run.tally, started);
  return summary;
}
