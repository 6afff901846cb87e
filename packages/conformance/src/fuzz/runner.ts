// The fuzzing run: requests drawn by fast-check from a seed (plans.ts), sent to one gateway a few at a time, every
// answer checked against the spec (`@lrg/spec/check`), plus a few oracles of our own: no 5xx except the sandbox's
// injected 503s, no answer about another business unit's records, a correct upload accepted and a mismatched one
// refused. Epochs of a few hundred requests each start from known settings (faults injected in some).
import { createHash, randomUUID } from "node:crypto";
import fc from "fast-check";
import { erasesRecords, operationFor, operations, signedAddressOf, type Operation } from "@lrg/spec";
import { violationsOf, type Answer } from "@lrg/spec/check";
import { errorOf } from "../driver.js";
import type { TargetName } from "../session.js";
import { acknowledges, isolationApplies, operationOfFlow, valueAt } from "../operation-facts.js";
import { FuzzContext, Ref, recordsIn, stringsIn, type Credentials, type Named, type PoolName } from "./context.js";
import { KNOWN_DEPARTURES, knownDepartureOf } from "./known-departures.js";
import { WireClient, type WireAnswer, type WireRequest } from "./http.js";
import {
  allRequests,
  environments,
  isExclusive,
  operationsIn,
  type BodyPlan,
  type Environment,
  type FuzzScope,
  type Plan,
} from "./plans.js";
import { warmUpFilter, warmUpOrder, warmUpPlans } from "./warm-up.js";

export type { FuzzScope } from "./plans.js";

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

/** Which check found a violation. */
export type Oracle = "spec" | "server-error" | "no-answer" | "isolation" | "upload" | "download";

/** A departure from the spec or from an oracle, with what it takes to look into it. */
export interface Violation {
  /** The check that found it: the spec's answers, no 5xx, an answer at all, business-unit isolation, the flows. */
  oracle: Oracle;
  /** Which request of the run (1-based, counting every HTTP request). */
  request: number;
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

export interface FuzzProgress {
  requests: number;
  target: number;
  seconds: number;
  violations: number;
  injected503: number;
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
  operations: Record<string, { requests: number; classes: Record<string, number>; totalMs: number }>;
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
  /** Operations whose isolation was checked: another business unit asked for one of unit a's records. */
  isolationChecked: string[];
}

const MAX_KEPT_VIOLATIONS = 200;
const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

/** Settings in which every operation can succeed: no faults, no duplicates, no latency, decisions made by hand. */
const QUIET: Environment = { processing: "manual", error_rate: 0, latency_ms: 0, duplicate_rate: 0 };
const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte of the UTF-8 text except the unreserved characters (and `keep`). */
function percentEncode(text: string, keep: RegExp = UNRESERVED): string {
  let out = "";
  for (const char of text) {
    if (keep.test(char) && char.length === 1 && char.charCodeAt(0) < 128) out += char;
    else for (const byte of Buffer.from(char, "utf8")) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Header values are visible ASCII; anything else is replaced so that the request can be sent at all. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7E\t]/g, "?");

/**
 * Title numbers the spec's own examples name (the sandbox's scenario titles), for title enquiries that find
 * something: read from the spec, not from the gateway's files, so any target can be fuzzed.
 */
function exampleTitles(): string[] {
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

/** A small document: a PDF header and filler, or (for some fills) bytes the type check refuses. */
function documentBytes(size: number, fill: number): Buffer {
  const bytes = Buffer.alloc(size, 0x20 + (fill % 90));
  const header = fill % 7 === 0 ? Buffer.from("GIF87a-not-really") : Buffer.from("%PDF-1.7\n");
  header.copy(bytes, 0, 0, Math.min(size, header.length));
  return bytes;
}

const sha256Base64 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("base64");

function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** Runs the fuzzer against a gateway; resolves with the summary (it never throws for what it finds). */
export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const concurrency = options.concurrency ?? 4;
  const epochSize = options.epochSize ?? 250;
  const client = new WireClient(options.url, concurrency + 2, options.timeoutMs ?? 20_000);
  const scope = options.scope ?? "full";
  const inScope = operationsIn(scope);
  if (scope === "full" && options.sandboxToken === undefined)
    throw new Error("a full fuzzing run needs the control plane's token");
  if (scope !== "full" && options.credentials === undefined)
    throw new Error(`a ${scope} fuzzing run needs the credentials of a user`);
  const context = new FuzzContext(options.sandboxToken ?? "", exampleTitles());
  const started = performance.now();
  const summary: FuzzSummary = {
    seed: options.seed,
    requests: 0,
    plans: 0,
    seconds: 0,
    epochs: 0,
    statuses: {},
    operations: Object.fromEntries(inScope.map((o) => [o.operationId, { requests: 0, classes: {}, totalMs: 0 }])),
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
  const isolationChecked = new Set<string>();
  summary.operations["(unmatched)"] = { requests: 0, classes: {}, totalMs: 0 };
  let faultsPossible = false;
  let epoch = 0;
  let planIndex = -1;
  let lastProgress = 0;
  const progressEvery = options.progressEvery ?? 1000;
  const report = () =>
    options.onProgress?.({
      requests: summary.requests,
      target: options.requests,
      seconds: (performance.now() - started) / 1000,
      violations: summary.violationCount,
      injected503: summary.injected503,
    });

  const units = (): { a: Credentials; b: Credentials } => {
    if (context.units === undefined) throw new Error("the fuzzer has no business units");
    return context.units;
  };

  const detail = (
    oracle: Oracle,
    plan: Plan | undefined,
    wire: WireRequest,
    answer: WireAnswer | undefined,
    problems: string[],
  ): Violation => ({
    oracle,
    request: summary.requests,
    epoch,
    plan: planIndex,
    operationId: plan?.operationId ?? "(set-up)",
    variant: plan?.variant ?? "set-up",
    method: wire.method,
    target: wire.target.slice(0, 300),
    requestBody: (wire.body ?? Buffer.alloc(0)).subarray(0, 300).toString("utf8"),
    status: answer?.kind === "answer" ? answer.status : undefined,
    answer: answer?.kind === "answer" ? answer.body.subarray(0, 400).toString("utf8") : (answer?.reason ?? ""),
    problems,
  });
  const violation = (
    oracle: Oracle,
    plan: Plan | undefined,
    wire: WireRequest,
    answer: WireAnswer | undefined,
    problems: string[],
  ) => {
    summary.violationCount += 1;
    if (summary.violations.length < MAX_KEPT_VIOLATIONS)
      summary.violations.push(detail(oracle, plan, wire, answer, problems));
  };

  /** Sends one request, checks its answer, counts it, and collects identifiers from it. */
  const exchange = async (
    wire: WireRequest,
    plan: Plan | undefined,
    owner: "a" | "b" | "s" = "a",
    extra: { pathMayMiss?: boolean; named?: Named[] } = {},
  ): Promise<WireAnswer> => {
    const answer = await client.send(wire);
    summary.requests += 1;
    const pathname = wire.target.split("?")[0] ?? wire.target;
    const addressed = operationFor(wire.method, pathname);
    const operationId = addressed?.operationId ?? "(unmatched)";
    const tally = summary.operations[operationId] ?? { requests: 0, classes: {}, totalMs: 0 };
    summary.operations[operationId] = tally;
    tally.requests += 1;
    tally.totalMs += answer.ms;
    if (answer.kind === "no-answer") {
      summary.statuses["no answer"] = (summary.statuses["no answer"] ?? 0) + 1;
      tally.classes["no answer"] = (tally.classes["no answer"] ?? 0) + 1;
      violation("no-answer", plan, wire, answer, [`no answer: ${answer.reason}`]);
    } else {
      const status = String(answer.status);
      summary.statuses[status] = (summary.statuses[status] ?? 0) + 1;
      const statusClass = `${status[0] ?? "?"}xx`;
      tally.classes[statusClass] = (tally.classes[statusClass] ?? 0) + 1;
      const checked: Answer = { status: answer.status, headers: answer.headers, body: answer.body };
      const problems = violationsOf(
        { method: wire.method, pathname, pathMayMiss: extra.pathMayMiss ?? false },
        checked,
      );
      const json = jsonOf(answer.body);
      let oracle: Oracle = "spec";
      if (answer.status >= 500) {
        // problem+json's code, or the code of a registry envelope's first item.
        const code = errorOf({ body: json }).code;
        const head = wire.method === "HEAD"; // no body to read the code from
        if (answer.status === 503 && (code === "503-01" || head) && faultsPossible) summary.injected503 += 1;
        else {
          summary.serverErrors += 1;
          oracle = "server-error";
          problems.push(`server error ${answer.status}${code === undefined ? "" : ` (${String(code)})`}`);
        }
      }
      if (problems.length > 0) {
        const contentType = String(answer.headers["content-type"] ?? "");
        const known = knownDepartureOf({
          target: options.target ?? "gateway",
          operation: addressed,
          method: wire.method,
          pathname,
          status: answer.status,
          contentType,
          json,
          problems,
          faultsPossible,
        });
        const tallyKnown = known === undefined ? undefined : summary.known[known.id];
        if (tallyKnown === undefined) violation(oracle, plan, wire, answer, problems);
        else {
          tallyKnown.count += 1;
          if (tallyKnown.examples.length < 3) tallyKnown.examples.push(detail(oracle, plan, wire, answer, problems));
        }
      }
      if (owner === "b" && addressed !== undefined && isolationApplies(addressed))
        checkIsolation(addressed, plan, wire, extra.named ?? [], answer, json);
      if (answer.status < 300 && json !== undefined) {
        // What the admin token is answered belongs to no unit in particular: its records go to unit a's pools, for
        // requests to name, but not as a's own (the isolation check counts only what a unit was answered itself).
        context.harvest(owner === "s" ? "a" : owner, json, owner !== "s");
        context.renewToken(json);
      }
    }
    if (summary.requests - lastProgress >= progressEvery) {
      lastProgress = summary.requests;
      report();
    }
    return answer;
  };

  const authorization = (auth: Plan["auth"], pick: number): string | undefined => {
    const { a, b } = units();
    switch (auth) {
      case "unit":
        return basic(a.username, a.password);
      case "other":
        return basic(b.username, b.password);
      case "wrong-password":
        return basic(a.username, `${a.password}-wrong`);
      case "malformed":
        return [
          "Basic",
          "Basic !!!",
          `Basic ${Buffer.from("no-colon").toString("base64")}`,
          "Digest username=x",
          `Basic ${"A".repeat(2000)}`,
          `basic ${Buffer.from(":").toString("base64")}`,
        ][pick % 6];
      case "bearer":
        return `Bearer ${context.sandboxToken}`;
      case "unit-token":
        return `Bearer ${a.sandboxToken}`;
      case "other-token":
        return `Bearer ${b.sandboxToken}`;
      case "bearer-wrong":
        return "Bearer not-the-token";
      default:
        return undefined;
    }
  };

  /** Names real records in a JSON body: document ids, title numbers, business units, ids to acknowledge. */
  const withRealIds = (plan: Plan, value: unknown): unknown => {
    let next = plan.realIds ?? 0;
    const take = (pool: "document" | "title" | "notification" | "business_unit") =>
      context.resolve(new Ref(pool, next++));
    const walk = (node: unknown, depth: number): unknown => {
      if (depth > 12 || node === null || typeof node !== "object") return node;
      if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
      return Object.fromEntries(
        Object.entries(node as Record<string, unknown>).map(([name, member]) => {
          if (name === "document_id" && typeof member === "string") return [name, take("document")];
          if (name === "title_number" && typeof member === "string") return [name, take("title")];
          if (name === "business_unit_id" && typeof member === "string") return [name, take("business_unit")];
          return [name, walk(member, depth + 1)];
        }),
      );
    };
    const operation = byId.get(plan.operationId);
    const acknowledging = operation !== undefined && acknowledges(operation);
    const data = (value as { data?: unknown } | null)?.data;
    if (acknowledging && Array.isArray(data))
      return { ...(value as object), data: data.map(() => take("notification")) };
    return walk(value, 0);
  };

  const resolveRefs = (value: unknown): unknown => {
    if (value instanceof Ref) return context.resolve(value);
    if (Array.isArray(value)) return value.map(resolveRefs);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v)]));
    return value;
  };

  /** A latency the settings accept stays a millisecond or two (the spec's example asks for 250 ms on every request). */
  const shortLatency = (value: unknown): unknown => {
    const latency = (value as { latency_ms?: unknown } | null)?.latency_ms;
    if (typeof latency !== "number" || !Number.isInteger(latency) || latency <= 2 || latency > 60_000) return value;
    return { ...(value as object), latency_ms: latency % 3 };
  };

  const bodyBytes = (body: BodyPlan, plan: Plan): { bytes: Buffer; contentType: string | undefined } => {
    switch (body.kind) {
      case "json": {
        const value = shortLatency(
          plan.realIds !== undefined ? withRealIds(plan, resolveRefs(body.value)) : resolveRefs(body.value),
        );
        return { bytes: Buffer.from(JSON.stringify(value) ?? "null", "utf8"), contentType: body.contentType };
      }
      case "text":
        return { bytes: Buffer.from(body.text, "utf8"), contentType: body.contentType };
      case "padded-json":
        return {
          bytes: Buffer.from(`{"data":["${"x".repeat(Math.max(0, body.bytes - 12))}"]}`),
          contentType: "application/json",
        };
    }
  };

  /** The wire request of a plain plan, and the records its path names. */
  const wireOf = (plan: Plan): { wire: WireRequest; named: { pool: PoolName; value: string }[] } => {
    const odd = plan.variant === "odd-path";
    const named: { pool: PoolName; value: string }[] = [];
    const path = plan.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = plan.pathParams[name];
      const text = value instanceof Ref ? context.resolve(value) : (value ?? "");
      if (value instanceof Ref) named.push({ pool: value.pool, value: text });
      return odd ? percentEncode(text, /[A-Za-z0-9\-._~%]/) : percentEncode(text);
    });
    const query = plan.query
      .map(
        ([name, value]) =>
          `${percentEncode(name)}=${percentEncode(value instanceof Ref ? context.resolve(value) : value)}`,
      )
      .join("&");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(plan.headers)) headers[name] = headerSafe(value);
    const auth = authorization(plan.auth, plan.realIds ?? 0);
    if (auth !== undefined) headers["authorization"] = auth;
    let body: Buffer | undefined;
    if (plan.body !== undefined) {
      const { bytes, contentType } = bodyBytes(plan.body, plan);
      body = bytes;
      if (contentType !== undefined) headers["content-type"] = contentType;
      headers["content-length"] = String(bytes.length);
    }
    return {
      wire: {
        method: plan.method,
        target: `${plan.prefix}${path}${query ? `?${query}` : ""}`,
        headers,
        ...(body !== undefined ? { body } : {}),
      },
      named,
    };
  };

  /** Whose records an answer holds: a unit's own credentials are answered only its records. */
  const ownerOf = (auth: Plan["auth"]): "a" | "b" | "s" =>
    auth === "other" || auth === "other-token" ? "b" : auth === "unit" || auth === "unit-token" ? "a" : "s";

  /**
   * Another business unit (its user or its token) asking about unit a's records must not find them: a record of a
   * named in the path is not found, none of a's notifications is acknowledged, and no answer carries a record of a
   * that the request did not name itself. Title numbers name the register's titles, which every unit reads.
   */
  const checkIsolation = (
    operation: Operation,
    plan: Plan | undefined,
    wire: WireRequest,
    named: Named[],
    answer: Extract<WireAnswer, { kind: "answer" }>,
    json: unknown,
  ) => {
    const ofA = ({ pool, value }: Named) =>
      pool !== "title" && context.has("a", pool, value) && !context.has("b", pool, value);
    const breach = (problem: string) => violation("isolation", plan, wire, answer, [problem]);
    const sent = new Set([...named.map((record) => record.value), ...stringsIn(jsonOf(wire.body ?? Buffer.alloc(0)))]);
    if (named.some(ofA)) {
      isolationChecked.add(operation.operationId);
      if (answer.status < 400) breach(`another business unit's record answered ${answer.status}`);
    }
    if (acknowledges(operation) && answer.status === 200) {
      const ids = [...sent].map((value): Named => ({ pool: "notification", value }));
      if (ids.some(ofA)) isolationChecked.add(operation.operationId);
      const acknowledged = (json as { data?: { acknowledged?: unknown } } | undefined)?.data?.acknowledged;
      const taken = (Array.isArray(acknowledged) ? acknowledged : []).filter(
        (id) => typeof id === "string" && ofA({ pool: "notification", value: id }),
      );
      if (taken.length > 0) breach(`another business unit acknowledged ${taken.length} of unit a's notifications`);
    }
    if (answer.status < 300 && json !== undefined) {
      isolationChecked.add(operation.operationId);
      const leaked = recordsIn(json).filter((record) => ofA(record) && !sent.has(record.value));
      if (leaked.length > 0)
        breach(
          `an answer to another business unit carries unit a's ${leaked.map((r) => `${r.pool} ${r.value}`).join(", ")}`,
        );
    }
  };

  /** Asks for an upload address as unit a and uploads to it, changed as the mutation says. */
  const upload = async (
    plan: Plan | undefined,
    flow: Extract<NonNullable<Plan["flow"]>, { kind: "upload" }>,
    owner: "a" | "b" = "a",
  ): Promise<string | undefined> => {
    const a = units()[owner];
    const bytes = documentBytes(flow.size, flow.fill);
    const sha256 = sha256Base64(bytes);
    const ask = Buffer.from(
      JSON.stringify({
        data: {
          document_type: flow.documentType,
          file_length: flow.size,
          file_sha256: sha256,
          ...(flow.filter !== undefined ? { additional_provider_filter: flow.filter } : {}),
        },
      }),
    );
    const issuer = signedAddressOf(operationOfFlow("upload"));
    if (issuer === undefined) return undefined;
    const asked = await exchange(
      {
        method: issuer.issuedBy.method,
        target: issuer.issuedBy.path,
        headers: {
          authorization: basic(a.username, a.password),
          "content-type": "application/json",
          "content-length": String(ask.length),
        },
        body: ask,
      },
      plan,
      owner,
    );
    if (asked.kind !== "answer" || asked.status !== 200) return undefined;
    const json = jsonOf(asked.body);
    const given = valueAt(issuer.address, { headers: asked.headers, json });
    if (given === undefined) return undefined;
    const documentId = (json as { data?: { document_id?: string } } | undefined)?.data?.document_id;
    const address = new URL(given, options.url);
    let target = `${address.pathname}${address.search}`;
    let body: Buffer = bytes;
    const headers: Record<string, string> = {
      "content-type": "application/octet-stream",
      "content-length": String(bytes.length),
      "x-provider-checksum-sha256": sha256,
    };
    let stallAfter: number | undefined;
    switch (flow.mutation) {
      case "checksum":
        headers["x-provider-checksum-sha256"] = sha256Base64(Buffer.concat([bytes, Buffer.from("x")]));
        break;
      case "no-checksum":
        delete headers["x-provider-checksum-sha256"];
        break;
      case "bytes":
        body = Buffer.from(bytes);
        body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0xff;
        break;
      case "length":
        body = bytes.subarray(0, bytes.length - 1);
        headers["content-length"] = String(body.length);
        break;
      case "signature":
        address.searchParams.set(
          "signature",
          `${(address.searchParams.get("signature") ?? "").slice(0, -1)}${(address.searchParams.get("signature") ?? "0").endsWith("0") ? "1" : "0"}`,
        );
        target = `${address.pathname}${address.search}`;
        break;
      case "expires":
        address.searchParams.set("expires", String(Number(address.searchParams.get("expires") ?? "0") + 3600));
        target = `${address.pathname}${address.search}`;
        break;
      case "junk-query":
        target += "&colour=red";
        break;
      case "chunked":
        delete headers["content-length"];
        headers["transfer-encoding"] = "chunked";
        break;
      case "content-type":
        headers["content-type"] = "application/pdf";
        break;
      case "declared-too-large":
        headers["content-length"] = String(41_943_041);
        stallAfter = Math.min(body.length, 1024);
        break;
      case "empty":
        body = Buffer.alloc(0);
        headers["content-length"] = "0";
        break;
      case "with-credentials":
        headers["authorization"] = basic(a.username, a.password);
        break;
      default:
        break;
    }
    const wire: WireRequest = {
      method: "PUT",
      target,
      headers,
      body,
      fresh: true,
      ...(stallAfter !== undefined ? { stallAfter } : {}),
    };
    const answer = await exchange(wire, plan);
    if (answer.kind !== "answer") return undefined;
    const mustFail = [
      "checksum",
      "no-checksum",
      "bytes",
      "length",
      "signature",
      "expires",
      "declared-too-large",
      "empty",
    ].includes(flow.mutation);
    const injected = answer.status === 503 && faultsPossible;
    if (flow.mutation === "none" && answer.status !== 200 && !injected)
      violation("upload", plan, wire, answer, [
        `a correct upload to a fresh address was refused with ${answer.status}`,
      ]);
    if (mustFail && answer.status < 300)
      violation("upload", plan, wire, answer, [
        `an upload that departs from its signed address (${flow.mutation}) was accepted`,
      ]);
    if (flow.mutation === "replay" && answer.status === 200) {
      const again = await exchange({ ...wire }, plan);
      if (again.kind === "answer" && again.status < 300)
        violation("upload", plan, wire, again, ["an upload address accepted a second upload"]);
    }
    return answer.status === 200 ? documentId : undefined;
  };

  /** Follows a download id to its signed address and fetches it, changed as the mutation says. */
  const download = async (
    plan: Plan,
    flow: Extract<NonNullable<Plan["flow"]>, { kind: "download" }>,
  ): Promise<boolean> => {
    const issuer = signedAddressOf(operationOfFlow("download"));
    if (issuer === undefined) return false;
    const { a, b } = units();
    const who = flow.other ? b : a;
    const id = context.resolve(flow.id);
    const first = await exchange(
      {
        method: issuer.issuedBy.method,
        target: issuer.issuedBy.path.replace(/\{\w+\}/, id),
        headers: { authorization: basic(who.username, who.password) },
      },
      plan,
      flow.other ? "b" : "a",
      { named: [{ pool: flow.id.pool, value: id }] },
    );
    if (first.kind !== "answer") return false;
    const location = valueAt(issuer.address, { headers: first.headers, json: undefined });
    if (first.status !== 302 || location === undefined) return false;
    const address = new URL(location, options.url);
    let method = "GET";
    switch (flow.mutation) {
      case "signature":
        address.searchParams.set(
          "signature",
          `${(address.searchParams.get("signature") ?? "").slice(0, -1)}${(address.searchParams.get("signature") ?? "0").endsWith("0") ? "1" : "0"}`,
        );
        break;
      case "expires":
        address.searchParams.set("expires", String(Number(address.searchParams.get("expires") ?? "0") + 3600));
        break;
      case "no-signature":
        address.searchParams.delete("signature");
        break;
      case "junk-query":
        address.searchParams.append("colour", "red");
        break;
      case "head":
        method = "HEAD";
        break;
      case "other-id":
        address.pathname = address.pathname.replace(/[0-9a-f]{64}$/, createHash("sha256").update(id).digest("hex"));
        break;
      default:
        break;
    }
    const wire: WireRequest = { method, target: `${address.pathname}${address.search}`, headers: {} };
    const answer = await exchange(wire, plan);
    if (answer.kind !== "answer") return false;
    const injected = answer.status === 503 && faultsPossible;
    if (flow.mutation === "none" && answer.status !== 200 && !injected)
      violation("download", plan, wire, answer, [`a fresh signed download address answered ${answer.status}`]);
    if (["signature", "expires", "no-signature", "other-id"].includes(flow.mutation) && answer.status < 300) {
      violation("download", plan, wire, answer, [
        `a download address that departs from the signed one (${flow.mutation}) answered ${answer.status}`,
      ]);
    }
    return answer.status === 200;
  };

  /** A request of the control plane with the admin token, or with a unit's. */
  const sandboxJson = (method: string, target: string, value: unknown, token = context.sandboxToken) => {
    const bearer = () => ({ authorization: `Bearer ${token}` });
    if (value === undefined) return exchange({ method, target, headers: bearer() }, undefined, "s");
    const body = Buffer.from(JSON.stringify(value));
    return exchange(
      {
        method,
        target,
        headers: { ...bearer(), "content-type": "application/json", "content-length": String(body.length) },
        body,
      },
      undefined,
      "s",
    );
  };
  const asUnit = (
    who: Credentials,
    method: string,
    target: string,
    value?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const body = value === undefined ? undefined : Buffer.from(JSON.stringify(value));
    return exchange(
      {
        method,
        target,
        headers: {
          authorization: basic(who.username, who.password),
          ...headers,
          ...(body !== undefined ? { "content-type": "application/json", "content-length": String(body.length) } : {}),
        },
        ...(body !== undefined ? { body } : {}),
      },
      undefined,
      who === context.units?.b ? "b" : "a",
    );
  };

  /** Submits the spec's example application as a unit, naming its documents; answers the application's id. */
  const submit = async (owner: "a" | "b", documents: string[], attempt: number): Promise<string | undefined> => {
    const example = structuredClone(operationFor("POST", "/v0/applications")?.requestBody?.examples[0]) as {
      documents: Record<string, { document_id: string }>;
    };
    Object.values(example.documents).forEach(
      (document, index) => (document.document_id = documents[index] ?? document.document_id),
    );
    const answer = await asUnit(units()[owner], "POST", "/v0/applications", example, {
      "idempotency-key": `fuzz-setup-${owner}-${attempt}-${randomUUID()}`,
    });
    if (answer.kind !== "answer") return undefined;
    return (jsonOf(answer.body) as { data?: { application_request_id?: string } } | undefined)?.data
      ?.application_request_id;
  };

  /** A unit's records: two uploads, two applications, and for unit a correspondence on the first; a search. */
  const recordsOf = async (owner: "a" | "b") => {
    const documents: string[] = [];
    for (const fill of [1, 2]) {
      const id = await upload(
        undefined,
        { kind: "upload", size: 2048 + fill, fill, documentType: "TR1", filter: undefined, mutation: "none" },
        owner,
      );
      if (id !== undefined) {
        documents.push(id);
        context.add(owner, "document", id);
      }
    }
    const applications: string[] = [];
    for (const attempt of [0, 1]) {
      const id = await submit(owner, documents, attempt);
      if (id !== undefined) applications.push(id);
    }
    const [first] = applications;
    if (owner === "a" && first !== undefined) {
      // On the day list, so that it has a registry reference and can receive correspondence; its documents' download
      // ids come with the application's information.
      await sandboxJson("POST", `/sandbox/v1/applications/${first}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
      await sandboxJson("POST", `/sandbox/v1/applications/${first}/correspondence`, { documents: ["LTR", "OCR"] });
      await asUnit(units().a, "GET", `/v0/applications/${first}/information`);
    }
    const search = structuredClone(
      operationFor("POST", "/api/v1/official-searches-of-whole")?.requestBody?.examples[0],
    ) as {
      message_id: string;
    };
    search.message_id = `fuzz-setup-${owner}-${randomUUID()}`;
    const searched = await asUnit(units()[owner], "POST", "/api/v1/official-searches-of-whole", search);
    if (searched.kind === "answer" && searched.status < 300) context.add(owner, "message", search.message_id);
    await asUnit(units()[owner], "GET", "/v1/notifications?limit=100");
  };

  /** Two business units and a few records of each, in quiet settings. */
  const prepare = async () => {
    context.clear();
    if (scope !== "full") {
      const user = {
        ...(options.credentials as { username: string; password: string }),
        businessUnitId: "",
        sandboxToken: "",
      };
      context.units = { a: user, b: user };
      return;
    }
    const created: Credentials[] = [];
    for (const [owner, name] of [
      ["a", "Fuzz unit A"],
      ["b", "Fuzz unit B"],
    ] as const) {
      const answer = await sandboxJson("POST", "/sandbox/v1/business-units", { name });
      const body =
        answer.kind === "answer" && answer.status === 201
          ? (jsonOf(answer.body) as {
              username: string;
              password: string;
              business_unit_id: string;
              sandbox_token: string;
            })
          : undefined;
      if (body === undefined)
        throw new Error(
          `the fuzzer could not create a business unit: ${answer.kind === "answer" ? `${answer.status} ${answer.body.toString("utf8")}` : answer.reason}`,
        );
      created.push({
        username: body.username,
        password: body.password,
        businessUnitId: body.business_unit_id,
        sandboxToken: body.sandbox_token,
      });
      context.add(owner, "business_unit", body.business_unit_id);
    }
    context.units = { a: created[0] as Credentials, b: created[1] as Credentials };
    await startEpoch(QUIET);
    for (const owner of ["a", "b"] as const) await recordsOf(owner);
  };

  /**
   * Puts the gateway in an epoch's settings, the clock back to now and the day list open: the global ones, and each
   * unit's own (a request with a unit's token may have set them).
   */
  const startEpoch = async (environment: Environment) => {
    if (scope !== "full") return;
    await sandboxJson("PUT", "/sandbox/v1/day-list", { open: true });
    faultsPossible = environment.error_rate > 0;
    const tokens = [context.sandboxToken, ...[context.units?.a, context.units?.b].map((unit) => unit?.sandboxToken)];
    for (const token of tokens) {
      if (token === undefined) continue;
      await sandboxJson("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() }, token);
      const answer = await sandboxJson("PUT", "/sandbox/v1/settings", environment, token);
      faultsPossible ||= answer.kind !== "answer" || answer.status !== 200;
      // Title enquiries over the fuzzer's plain HTTP and at any hour, so that they get past the 403 (mutual TLS and
      // the service hours have tests of their own).
      await sandboxJson(
        "PUT",
        "/sandbox/v1/settings",
        { require_client_certificate: false, service_hours: "always-open" },
        token,
      );
    }
    if (context.units !== undefined) {
      await asUnit(context.units.a, "GET", "/v1/notifications?limit=100");
      await asUnit(context.units.a, "GET", "/v0/notifications?limit=100&status=ACKNOWLEDGED");
    }
  };

  /** One plan: its request(s), their checks, and what follows (a reset makes the fuzzer's records anew). */
  const execute = async (plan: Plan): Promise<boolean> => {
    summary.plans += 1;
    summary.variants[plan.variant] = (summary.variants[plan.variant] ?? 0) + 1;
    if (plan.flow?.kind === "upload") return (await upload(plan, plan.flow)) !== undefined;
    if (plan.flow?.kind === "download") return download(plan, plan.flow);
    const { wire, named } = wireOf(plan);
    const owner = ownerOf(plan.auth);
    const answer = await exchange(wire, plan, owner, { pathMayMiss: plan.pathMayMiss ?? false, named });
    if (answer.kind !== "answer" || answer.status >= 400) return false;
    // Identifiers the client makes up (a title enquiry's message_id) are the caller's once a request with them succeeds.
    context.harvestChosen(owner === "b" ? "b" : "a", jsonOf(wire.body ?? Buffer.alloc(0)), owner !== "s");
    // Settings whose answer injects faults (the global ones, or a unit's own): a 503-01 may follow.
    const errorRate = (jsonOf(answer.body) as { error_rate?: unknown } | undefined)?.error_rate;
    if (typeof errorRate === "number" && errorRate > 0) faultsPossible = true;
    const operation = byId.get(plan.operationId);
    if (operation !== undefined && erasesRecords(operation)) await prepare();
    return true;
  };

  /** The same request as the other business unit, naming unit a's records: they must not be found. */
  const asOther = (plan: Plan): Plan | undefined => {
    if (plan.flow?.kind === "download") return { ...plan, flow: { ...plan.flow, other: true } };
    if (plan.flow !== undefined) return undefined;
    if (plan.auth === "unit") return { ...plan, auth: "other" };
    if (plan.auth === "unit-token" || plan.auth === "bearer") return { ...plan, auth: "other-token" };
    return undefined;
  };

  /**
   * Every operation in scope, before anything is drawn from the seed: its candidates in turn until one succeeds,
   * then that request again as the other business unit. Settings are put back after each change for everyone.
   */
  const warmUp = async () => {
    const allowed = warmUpFilter(scope);
    for (const operation of warmUpOrder(inScope, isExclusive)) {
      for (const [index, plan] of warmUpPlans(operation).filter(allowed).entries()) {
        planIndex = index;
        if (!(await execute(plan))) continue;
        const other = asOther(plan);
        if (other !== undefined && allowed(other) && isolationApplies(operation)) await execute(other);
        break;
      }
      if (isExclusive(operation)) await startEpoch(QUIET);
    }
  };

  // A gateway given by address is left as it was found: its settings, its clock at real time, its day list open.
  const settingsBefore = scope === "full" ? await sandboxJson("GET", "/sandbox/v1/settings", undefined) : undefined;
  // From a reset sandbox: what an earlier run left (system errors scheduled for every unit's next submissions, a
  // closed day list) must not keep an operation from succeeding.
  if (scope === "full") await sandboxJson("POST", "/sandbox/v1/reset", undefined);
  await prepare();
  await warmUp();
  const generator = allRequests(scope);
  while (summary.requests < options.requests) {
    epoch += 1;
    summary.epochs = epoch;
    const [environment] = fc.sample(environments, { seed: options.seed + epoch * 7919, numRuns: 1 });
    await startEpoch(environment as Environment);
    const plans = fc.sample(generator, { seed: options.seed + epoch, numRuns: epochSize });
    const inFlight = new Set<Promise<void>>();
    for (const [index, plan] of plans.entries()) {
      if (summary.requests >= options.requests) break;
      planIndex = index;
      if (plan.exclusive === true) {
        await Promise.all(inFlight);
        await execute(plan);
        continue;
      }
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      const running: Promise<void> = execute(plan)
        .then(() => undefined)
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await Promise.all(inFlight);
  }
  if (settingsBefore?.kind === "answer" && settingsBefore.status === 200) {
    await sandboxJson("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
    await sandboxJson("PUT", "/sandbox/v1/day-list", { open: true });
    await sandboxJson("PUT", "/sandbox/v1/settings", jsonOf(settingsBefore.body));
  }
  client.close();
  summary.seconds = (performance.now() - started) / 1000;
  summary.unaddressed = inScope
    .filter((o) => (summary.operations[o.operationId]?.requests ?? 0) === 0)
    .map((o) => o.operationId);
  summary.isolationChecked = inScope.map((o) => o.operationId).filter((id) => isolationChecked.has(id));
  summary.neverSucceeded = inScope
    .filter((o) => {
      const classes = summary.operations[o.operationId]?.classes ?? {};
      return (classes["2xx"] ?? 0) + (classes["3xx"] ?? 0) === 0;
    })
    .map((o) => o.operationId);
  report();
  return summary;
}

/** The summary as lines of text: counts, statuses, operations, violations. */
export function describeFuzz(summary: FuzzSummary): string {
  const n = (value: number) => value.toLocaleString("en");
  const lines = [
    `fuzz: ${n(summary.requests)} requests (${n(summary.plans)} drawn, ${summary.epochs} epochs) in ${summary.seconds.toFixed(0)} s, ` +
      `${n(Math.round(summary.requests / Math.max(summary.seconds, 0.001)))}/s; seed ${summary.seed}`,
    `violations: ${n(summary.violationCount)}; known departures: ${n(Object.values(summary.known).reduce((t, k) => t + k.count, 0))}; ` +
      `5xx not explained by fault injection: ${n(summary.serverErrors)}; injected 503-01: ${n(summary.injected503)}`,
    `statuses: ${Object.entries(summary.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status} ${n(count)}`)
      .join(", ")}`,
    "per operation (requests: answers by class):",
    ...Object.entries(summary.operations).map(
      ([operation, tally]) =>
        `  ${operation.padEnd(32)} ${n(tally.requests).padStart(8)} (mean ${(tally.totalMs / Math.max(1, tally.requests)).toFixed(1)} ms): ${Object.entries(
          tally.classes,
        )
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([c, count]) => `${c} ${n(count)}`)
          .join(", ")}`,
    ),
  ];
  for (const [id, known] of Object.entries(summary.known)) {
    if (known.count === 0) continue;
    const example = known.examples[0];
    lines.push(
      `KNOWN DEPARTURE ${id}: ${n(known.count)} answers. ${known.summary}` +
        (example
          ? `\n    e.g. ${example.method} ${example.target.slice(0, 120)} -> ${example.status ?? "nothing"}: ${example.problems.join("; ").slice(0, 200)}`
          : ""),
    );
  }
  if (summary.unaddressed.length > 0) lines.push(`operations never addressed: ${summary.unaddressed.join(", ")}`);
  if (summary.neverSucceeded.length > 0)
    lines.push(`operations that never answered 2xx/3xx: ${summary.neverSucceeded.join(", ")}`);
  for (const v of summary.violations) {
    lines.push(
      `VIOLATION #${v.request} (epoch ${v.epoch}, plan ${v.plan}) ${v.operationId} [${v.variant}] ${v.method} ${v.target}` +
        `${v.requestBody ? `\n    body: ${v.requestBody.slice(0, 200)}` : ""}\n    answered ${v.status ?? "nothing"}: ${v.answer.slice(0, 300)}\n    ${v.problems.join("\n    ")}`,
    );
  }
  if (summary.violationCount > summary.violations.length)
    lines.push(`... and ${n(summary.violationCount - summary.violations.length)} more violations`);
  return lines.join("\n");
}
