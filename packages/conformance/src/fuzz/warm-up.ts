// The warm-up of a fuzzing run: before anything is drawn from the seed, every operation in scope is sent as its
// examples and the records set up so far allow, each candidate in turn until one succeeds, in an order where an
// operation comes after those whose answers carry the records it names. So each operation's success path is reached
// whatever the seed, and a new operation is covered as soon as the spec has it.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { Operation, Parameter, SpecNode } from "@lrg/spec";
import { parameterText, validValue } from "../bad-input/index.js";
import { HARVESTED, Ref, type PoolName } from "./context.js";
import {
  allowedIn,
  correctUpload,
  FUZZ_VALUES,
  flowOf,
  PATH_POOLS,
  type Auth,
  type BodyPlan,
  type Flow,
  type FuzzScope,
  type Plan,
} from "./plans.js";

/** The warm-up sends what a run of its scope may send. */
export const warmUpFilter = (scope: FuzzScope): ((plan: Plan) => boolean) => allowedIn(scope);

/** The pools of records an operation names: in its path, or in its request body's members. */
export function poolsNamedBy(operation: Operation): Set<PoolName> {
  const pools = new Set<PoolName>();
  for (const parameter of operation.parameters) {
    const pool = parameter.in === "path" ? PATH_POOLS[parameter.name] : undefined;
    if (pool !== undefined) pools.add(pool);
  }
  for (const schema of operation.requestBody?.content.values() ?? []) memberPools(schema, pools);
  return pools;
}

/** The pools of records an operation's successful answers carry (members named like a pool's identifiers). */
export function poolsAnsweredBy(operation: Operation): Set<PoolName> {
  const pools = new Set<PoolName>();
  for (const [status, response] of operation.responses)
    if (status < 300) for (const schema of response.content.values()) memberPools(schema, pools);
  return pools;
}

/** Adds the pools whose identifiers a schema's members (at any depth) are named after. */
function memberPools(schema: SpecNode | undefined, pools: Set<PoolName>, depth = 0): void {
  if (schema === undefined || depth > 16) return;
  for (const [name, member] of Object.entries((schema["properties"] ?? {}) as Record<string, SpecNode>)) {
    const pool = HARVESTED[name];
    if (pool !== undefined) pools.add(pool);
    memberPools(member, pools, depth + 1);
  }
  for (const key of ["items", "additionalProperties"]) {
    const nested = schema[key];
    if (nested !== null && typeof nested === "object") memberPools(nested as SpecNode, pools, depth + 1);
  }
  for (const key of ["oneOf", "anyOf", "allOf"])
    for (const part of (schema[key] ?? []) as SpecNode[]) memberPools(part, pools, depth + 1);
}

/**
 * The operations in the order the warm-up sends them: those that leave the gateway as it is first, each after the
 * operations whose answers carry records it names (in the spec's order where nothing decides), then those that
 * change it for everyone (`exclusive`), which the caller follows by putting the settings back.
 */
export function warmUpOrder(inScope: readonly Operation[], exclusive: (operation: Operation) => boolean): Operation[] {
  const shared = inScope.filter((operation) => !exclusive(operation));
  const ordered: Operation[] = [];
  const pending = [...shared];
  while (pending.length > 0) {
    // The first operation none of whose named pools is answered by another operation still pending; when every
    // one waits on another (a cycle), the first in the spec's order.
    const ready =
      pending.find((operation) => {
        const named = poolsNamedBy(operation);
        return !pending.some(
          (other) => other !== operation && [...poolsAnsweredBy(other)].some((pool) => named.has(pool)),
        );
      }) ?? pending[0];
    if (ready === undefined) break;
    ordered.push(ready);
    pending.splice(pending.indexOf(ready), 1);
  }
  return [...ordered, ...inScope.filter(exclusive)];
}

/** One value of an arbitrary, the same every time. */
const first = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: 0, numRuns: 1 })[0] as T;

/** A parameter's example, else a value its schema admits. */
const exampleText = (parameter: Parameter): string =>
  parameterText(parameter.example ?? parameter.schema["example"] ?? first(validValue(parameter.schema, FUZZ_VALUES)));

/** The request bodies to try: each example, else one value of the schema; none when the body is optional. */
function candidateBodies(operation: Operation): (BodyPlan | undefined)[] {
  const requestBody = operation.requestBody;
  const schema = requestBody?.content.get("application/json");
  if (requestBody === undefined || schema === undefined) return [undefined];
  const values = requestBody.examples.length > 0 ? requestBody.examples : [first(validValue(schema, FUZZ_VALUES))];
  const bodies: (BodyPlan | undefined)[] = values.map((value) => ({
    kind: "json",
    value,
    contentType: "application/json",
  }));
  return requestBody.required ? bodies : [...bodies, undefined];
}

/** Who may ask: the operation's own credentials (for the control plane, the admin token, then unit a's token). */
function candidateAuths(operation: Operation): Auth[] {
  switch (operation.security) {
    case "basic":
      return ["unit"];
    case "bearer":
      return ["bearer", "unit-token"];
    default:
      return ["none"];
  }
}

/**
 * The requests the warm-up tries for one operation, in turn until one succeeds: for a flow through a signed address,
 * one correct flow; otherwise every pairing of the operation's credentials and example bodies, its path naming the
 * first record of each pool (the set-up's), its other parameters their examples.
 */
export function warmUpPlans(operation: Operation): Plan[] {
  const flowKind = flowOf(operation);
  const base = {
    operationId: operation.operationId,
    variant: "warm-up",
    method: operation.method,
    prefix: "",
    path: operation.path,
  };
  const flowPlan = (flow: Flow): Plan => ({ ...base, pathParams: {}, query: [], headers: {}, auth: "unit", flow });
  if (flowKind === "upload") return [flowPlan(correctUpload(0))];
  if (flowKind === "download")
    return [flowPlan({ kind: "download", id: new Ref("download", 0), mutation: "none", other: false })];
  const pathParams: Record<string, string | Ref> = {};
  const query: [string, string][] = [];
  for (const parameter of operation.parameters) {
    const pool = PATH_POOLS[parameter.name];
    if (parameter.in === "path") pathParams[parameter.name] = pool ? new Ref(pool, 0) : exampleText(parameter);
    if (parameter.in === "query" && parameter.required) query.push([parameter.name, exampleText(parameter)]);
  }
  return candidateAuths(operation).flatMap((auth) =>
    candidateBodies(operation).map((body): Plan => {
      // Every required header anew: an idempotency key must not be one an earlier request used.
      const headers = Object.fromEntries(
        operation.parameters
          .filter((p) => p.in === "header" && p.required)
          .map((p) => [p.name.toLowerCase(), `fuzz-warm-up-${randomUUID()}`]),
      );
      return { ...base, pathParams, query, headers, auth, realIds: 0, ...(body !== undefined ? { body } : {}) };
    }),
  );
}
