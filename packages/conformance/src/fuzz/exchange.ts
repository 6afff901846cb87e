// One exchange of the fuzzer: the request sent, its answer counted and put to every oracle (a departure already known
// is counted apart), and the identifiers in it collected for later requests to name.
import { operationFor, type Operation } from "@lrg/spec";
import type { WireAnswer, WireClient, WireRequest } from "../http.js";
import { isolationApplies } from "../operation-facts.js";
import type { TargetName } from "../session.js";
import { recordsIn, type Credentials, type FuzzContext, type Named } from "./context.js";
import { knownDepartureOf } from "./known-departures.js";
import { isolationFindings, jsonOf, serverErrorOf, specProblems, valuesSentIn, type Answered } from "./oracles.js";
import type { Plan } from "./plans.js";
import { jsonRequest, type Owner } from "./request.js";
import { basic } from "../session.js";
import { exchangeDetail, type Oracle, type Position, type Tally, type Violation } from "./summary.js";

/** What else an exchange needs to be judged: a path the router may not take, the records its path names. */
export interface ExchangeOptions {
  pathMayMiss?: boolean;
  named?: Named[];
}

/** A violation as an oracle found it, before the tally says where in the run. */
function found(
  oracle: Oracle,
  plan: Plan | undefined,
  wire: WireRequest,
  answer: WireAnswer | undefined,
  problems: string[],
): Omit<Violation, "request" | "epoch" | "plan"> {
  return {
    oracle,
    operationId: plan?.operationId ?? "(set-up)",
    variant: plan?.variant ?? "set-up",
    ...exchangeDetail(wire, answer),
    problems,
  };
}

/** Sends the fuzzer's requests and judges their answers. */
export class Exchanger {
  /** The sandbox's settings inject faults (an `error_rate` above 0): a 503-01 is then by design. */
  settingsFaults = false;
  /**
   * An operation that turns on the sandbox's own faults for a unit succeeded (`x-lrg-injects-faults`: a readiness
   * run's 503-01s and expired upload addresses); they stay possible for the rest of the fuzzing run.
   */
  unitFaults = false;

  /** Whether the sandbox may be injecting faults now. */
  get faultsPossible(): boolean {
    return this.settingsFaults || this.unitFaults;
  }
  /** Where the run is, for the violations found. */
  readonly at: Position = { epoch: 0, plan: -1 };

  constructor(
    private readonly client: Pick<WireClient, "send">,
    private readonly tally: Tally,
    readonly context: FuzzContext,
    private readonly target: TargetName,
    private readonly onExchange: () => void = () => {},
  ) {}

  /** Records a violation of one oracle (nothing when it found no problem). */
  report(
    oracle: Oracle,
    plan: Plan | undefined,
    wire: WireRequest,
    answer: WireAnswer | undefined,
    problems: string[],
  ) {
    if (problems.length > 0) this.tally.violation(found(oracle, plan, wire, answer, problems), this.at);
  }

  /** Sends one request as `owner`, checks its answer, counts it, and collects identifiers from it. */
  async send(
    wire: WireRequest,
    plan: Plan | undefined,
    owner: Owner,
    options: ExchangeOptions = {},
  ): Promise<WireAnswer> {
    if (owner !== "s") this.context.sent(owner, valuesSentIn(wire));
    const answer = await this.client.send(wire);
    const addressed = operationFor(wire.method, wire.target.split("?")[0] ?? wire.target);
    this.tally.exchange(addressed?.operationId ?? "(unmatched)", answer);
    if (answer.kind === "no-answer") this.report("no-answer", plan, wire, answer, [`no answer: ${answer.reason}`]);
    else this.#judge(wire, plan, owner, options, addressed, answer);
    this.onExchange();
    return answer;
  }

  #judge(
    wire: WireRequest,
    plan: Plan | undefined,
    owner: Owner,
    options: ExchangeOptions,
    addressed: Operation | undefined,
    answer: Answered,
  ): void {
    const json = jsonOf(answer.body);
    const problems = specProblems(wire, answer, options.pathMayMiss ?? false);
    const serverError = serverErrorOf(wire, answer, json, this.faultsPossible);
    if (serverError === "injected") this.tally.summary.injected503 += 1;
    else if (serverError !== undefined) {
      this.tally.summary.serverErrors += 1;
      problems.push(serverError);
    }
    const oracle = serverError === undefined || serverError === "injected" ? "spec" : "server-error";
    this.#reportUnlessKnown(oracle, { plan, wire, answer, json, ...(addressed ? { addressed } : {}) }, problems);
    if (owner === "b" && addressed !== undefined && isolationApplies(addressed)) {
      const isolation = isolationFindings(this.context, addressed, wire, options.named ?? [], answer, json);
      if (isolation.checked) this.tally.isolationChecked(addressed.operationId);
      this.report("isolation", plan, wire, answer, isolation.problems);
    }
    if (answer.status < 300 && owner !== "s")
      this.context.named(owner, [...(options.named ?? []), ...recordsIn(jsonOf(wire.body))]);
    if (answer.status < 300 && json !== undefined) {
      // What the admin token is answered belongs to no unit in particular: its records go to unit a's pools, for
      // requests to name, but not as a's own (the isolation check counts only what a unit was answered itself).
      this.context.harvest(owner === "s" ? "a" : owner, json, owner !== "s");
      this.context.renewToken(json);
    }
  }

  /** Reports the problems of the spec's or the 5xx oracle, or counts them apart as a departure already known. */
  #reportUnlessKnown(
    oracle: Oracle,
    exchange: { plan: Plan | undefined; wire: WireRequest; answer: Answered; json: unknown; addressed?: Operation },
    problems: string[],
  ): void {
    const { plan, wire, answer, json, addressed } = exchange;
    if (problems.length === 0) return;
    const known = knownDepartureOf({
      target: this.target,
      operation: addressed,
      method: wire.method,
      pathname: wire.target.split("?")[0] ?? wire.target,
      status: answer.status,
      contentType: String(answer.headers["content-type"] ?? ""),
      json,
      problems,
      faultsPossible: this.faultsPossible,
    });
    const detail = found(oracle, plan, wire, answer, problems);
    if (known === undefined || !this.tally.known(known.id, detail, this.at)) this.tally.violation(detail, this.at);
  }

  /** A request of the control plane, with the admin token or a unit's. */
  sandbox(method: string, target: string, value: unknown, token = this.context.sandboxToken): Promise<WireAnswer> {
    return this.send(jsonRequest(method, target, value, { authorization: `Bearer ${token}` }), undefined, "s");
  }

  /** A request of JSON as a unit's user (HTTP Basic), for the plan given (the set-up's when none). */
  asUnit(
    who: Credentials,
    method: string,
    target: string,
    value?: unknown,
    headers: Record<string, string> = {},
    plan?: Plan,
  ): Promise<WireAnswer> {
    const owner = who === this.context.units?.b ? "b" : "a";
    return this.send(jsonRequest(method, target, value, { authorization: basic(who), ...headers }), plan, owner);
  }
}
