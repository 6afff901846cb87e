// What the fuzzer sends, as fast-check arbitraries: per operation of both spec documents, valid requests (from the
// schemas and the spec's examples, naming real records through pool references) and invalid ones (a parameter or
// body member broken, unknown or repeated query parameters, malformed JSON, wrong content types, bodies past the
// size limit, missing or wrong credentials, odd path segments, methods the path does not have), plus the two
// flows that need a prior call (upload to a freshly signed address, download through the signed redirect) and
// routes no operation answers.
import fc from "fast-check";
import { changesRegistry, fuzzWeightOf, operations, type Operation, type Parameter } from "@lrg/spec";
import { signedFlowOf } from "../operation-facts.js";
import {
  badBody,
  badParameterText,
  jsonBodySchemaOf,
  junkText,
  malformedJson,
  notJsonContentTypes,
  parameterText as valueText,
  unknownQueryNames,
  validValue,
  type ValueOverrides,
} from "../bad-input/index.js";
import { Ref, type PoolName } from "./context.js";

/** Who the request claims to be. */
export type Auth =
  | "unit"
  | "other"
  | "none"
  | "wrong-password"
  | "malformed"
  | "bearer"
  | "bearer-wrong"
  /** Unit a's token of the control plane. */
  | "unit-token"
  /** Unit b's token of the control plane (b asking about a's records must not find them). */
  | "other-token";

/** A request body. JSON values may hold `Ref`s, resolved when the request is sent. */
export type BodyPlan =
  | { kind: "json"; value: unknown; contentType: string }
  | { kind: "text"; text: string; contentType: string | undefined }
  /** A JSON document padded to `bytes` bytes (the limit is 1 MiB). */
  | { kind: "padded-json"; bytes: number };

/** Changes to an upload that break what was signed: the upload must be refused. */
export const REFUSED_UPLOAD_MUTATIONS = [
  "checksum",
  "no-checksum",
  "bytes",
  "length",
  "signature",
  "expires",
  "declared-too-large",
  "empty",
] as const;

/** How an upload to a freshly signed address departs from what was signed (`none`: it does not). */
export const UPLOAD_MUTATIONS = [
  "none",
  ...REFUSED_UPLOAD_MUTATIONS,
  "junk-query",
  "chunked",
  "content-type",
  "replay",
  "with-credentials",
] as const;
export type UploadMutation = (typeof UPLOAD_MUTATIONS)[number];

/** Changes to a signed download address that break its signature: the download must be refused. */
export const REFUSED_DOWNLOAD_MUTATIONS = ["signature", "expires", "no-signature", "other-id"] as const;

/** How a request for a signed download address departs from the address given (`none`: it does not). */
export const DOWNLOAD_MUTATIONS = ["none", ...REFUSED_DOWNLOAD_MUTATIONS, "junk-query", "head"] as const;
export type DownloadMutation = (typeof DOWNLOAD_MUTATIONS)[number];

export type Flow =
  | {
      kind: "upload";
      size: number;
      fill: number;
      documentType: string;
      filter: string | undefined;
      mutation: UploadMutation;
    }
  | { kind: "download"; id: Ref; mutation: DownloadMutation; other: boolean };

/** A correct upload of a small PDF (its size and filler by `fill`), as the set-up and the warm-up send. */
export function correctUpload(fill: number): Extract<Flow, { kind: "upload" }> {
  return { kind: "upload", size: 2048 + fill, fill, documentType: "TR1", filter: undefined, mutation: "none" };
}

/** One request of the run, before its references are resolved. */
export interface Plan {
  /** The operation addressed, or `(unmatched)`. */
  operationId: string;
  /** What kind of request this is (valid, broken-body, junk-query...), for the summary. */
  variant: string;
  method: string;
  /** `/api` for the notification services' alias, else empty. */
  prefix: string;
  /** The path template (`{name}` for parameters). */
  path: string;
  pathParams: Record<string, string | Ref>;
  query: [string, string | Ref][];
  headers: Record<string, string>;
  auth: Auth;
  body?: BodyPlan;
  /** Body members named like pool identifiers take real values (`document_id`, `title_number`, ack ids). */
  realIds?: number;
  /** A path parameter the router may not take: an unmatched-route answer is acceptable. */
  pathMayMiss?: boolean;
  /** Changes the gateway for everyone (reset, clock, settings, day list): sent with nothing else in flight. */
  exclusive?: boolean;
  /** A request that needs a call before it (its own requests are checked too). */
  flow?: Flow;
}

/** Path parameters that name records the fuzzer collects. */
export const PATH_POOLS: Record<string, PoolName> = {
  id: "application",
  business_unit_id: "business_unit",
  message_id: "message",
  title_number: "title",
  download_id: "download",
  document_id: "document",
  run_id: "readiness_run",
};

/** Whether the operation changes the gateway for every caller (it goes alone). */
export const isExclusive = (operation: Operation): boolean => changesRegistry(operation);

/** The fuzzer's own generators: settings stay usable for the rest of a run (a latency of a millisecond or two). */
export const FUZZ_VALUES: ValueOverrides = { latency_ms: fc.integer({ min: 0, max: 2 }) };

function parameterValue(parameter: Parameter): fc.Arbitrary<string | Ref> {
  const pool = parameter.in === "path" ? PATH_POOLS[parameter.name] : undefined;
  const fromSchema = validValue(parameter.schema, FUZZ_VALUES).map(valueText);
  const example = parameter.example !== undefined ? fc.constant(valueText(parameter.example)) : fromSchema;
  if (pool === undefined) return fc.oneof({ weight: 4, arbitrary: fromSchema }, { weight: 1, arbitrary: example });
  return fc.oneof(
    { weight: 6, arbitrary: fc.nat().map((pick) => new Ref(pool, pick)) },
    { weight: 2, arbitrary: fromSchema },
    { weight: 1, arbitrary: example },
  );
}

const parametersIn = (operation: Operation, place: Parameter["in"]) =>
  operation.parameters.filter((p) => p.in === place);

function validPathParams(operation: Operation): fc.Arbitrary<Record<string, string | Ref>> {
  return fc.record(Object.fromEntries(parametersIn(operation, "path").map((p) => [p.name, parameterValue(p)])));
}

function validQuery(operation: Operation): fc.Arbitrary<[string, string | Ref][]> {
  const query = parametersIn(operation, "query");
  if (query.length === 0) return fc.constant([]);
  return fc
    .tuple(
      ...query.map((p) =>
        p.required
          ? parameterValue(p).map((v) => [v])
          : fc.option(parameterValue(p), { freq: 2, nil: undefined }).map((v) => (v === undefined ? [] : [v])),
      ),
    )
    .map((values) =>
      values.flatMap((value, index) => value.map((v): [string, string | Ref] => [(query[index] as Parameter).name, v])),
    );
}

function validHeaders(operation: Operation): fc.Arbitrary<Record<string, string>> {
  const headers = parametersIn(operation, "header");
  if (headers.length === 0) return fc.constant({});
  return fc.record(
    Object.fromEntries(
      headers.map((p) => {
        const value =
          p.name.toLowerCase() === "idempotency-key"
            ? fc.oneof(
                { weight: 6, arbitrary: fc.uuid().map((id) => `fuzz-${id}`) },
                { weight: 1, arbitrary: fc.constantFrom("fuzz-fixed-key-1", "fuzz-fixed-key-2") },
              )
            : validValue(p.schema, FUZZ_VALUES).map(valueText);
        return [p.name.toLowerCase(), value];
      }),
    ),
    { requiredKeys: headers.filter((p) => p.required).map((p) => p.name.toLowerCase()) },
  );
}

function validBody(operation: Operation): fc.Arbitrary<BodyPlan | undefined> {
  const schema = jsonBodySchemaOf(operation);
  const requestBody = operation.requestBody;
  if (requestBody === undefined || schema === undefined) return fc.constant(undefined);
  const examples = requestBody.examples;
  const values =
    examples.length > 0
      ? fc.oneof(
          { weight: 2, arbitrary: validValue(schema, FUZZ_VALUES) },
          { weight: 1, arbitrary: fc.constantFrom(...examples) },
        )
      : validValue(schema, FUZZ_VALUES);
  const body = values.map((value): BodyPlan => ({ kind: "json", value, contentType: "application/json" }));
  // A body the spec calls optional may be left out.
  return requestBody.required ? body : fc.option(body, { freq: 3, nil: undefined });
}

/** Credentials as the operation's security wants them, mostly; sometimes missing or wrong. */
function authFor(operation: Operation): fc.Arbitrary<Auth> {
  switch (operation.security) {
    case "basic":
      // A wrong password costs the gateway an scrypt run (tens of milliseconds): it is drawn in badAuth only.
      return fc.constantFrom<Auth>(...Array<Auth>(14).fill("unit"), "other", "other", "none", "malformed", "bearer");
    case "bearer":
      return fc.constantFrom<Auth>(
        ...Array<Auth>(12).fill("bearer"),
        "unit-token",
        "unit-token",
        "other-token",
        "none",
        "bearer-wrong",
        "unit",
      );
    default:
      return fc.constantFrom<Auth>(...Array<Auth>(8).fill("none"), "unit");
  }
}

interface Parts {
  prefix: string;
  pathParams: Record<string, string | Ref>;
  query: [string, string | Ref][];
  headers: Record<string, string>;
  auth: Auth;
  body: BodyPlan | undefined;
  realIds: number;
}

function validParts(operation: Operation): fc.Arbitrary<Parts> {
  return fc.record({
    prefix: operation.aliases.length > 0 ? fc.constantFrom("", "", "", ...operation.aliases) : fc.constant(""),
    pathParams: validPathParams(operation),
    query: validQuery(operation),
    headers: validHeaders(operation),
    auth: authFor(operation),
    body: validBody(operation),
    realIds: fc.nat(),
  });
}

function planOf(operation: Operation, variant: string, parts: Parts, extra: Partial<Plan> = {}): Plan {
  return {
    operationId: operation.operationId,
    variant,
    method: operation.method,
    prefix: parts.prefix,
    path: operation.path,
    pathParams: parts.pathParams,
    query: parts.query,
    headers: parts.headers,
    auth: parts.auth,
    ...(parts.body !== undefined ? { body: parts.body } : {}),
    ...(parts.realIds % 4 !== 0 ? { realIds: parts.realIds } : {}),
    ...(isExclusive(operation) ? { exclusive: true } : {}),
    ...extra,
  };
}

/** Breaks one parameter (path, query or header) of an otherwise valid request. */
function brokenParameter(operation: Operation, valid: fc.Arbitrary<Parts>): fc.Arbitrary<Plan> | undefined {
  const parameters = operation.parameters.filter((p) => p.in !== "cookie");
  if (parameters.length === 0) return undefined;
  return fc.tuple(valid, fc.constantFrom(...parameters)).chain(([parts, parameter]) =>
    // Unchecked: a parameter whose schema admits any text has no invalid value to find.
    badParameterText(parameter.schema, { unchecked: true }).map((bad) => {
      const text = bad || "x";
      if (parameter.in === "path") {
        return planOf(
          operation,
          "broken-path-parameter",
          { ...parts, pathParams: { ...parts.pathParams, [parameter.name]: text } },
          { pathMayMiss: true },
        );
      }
      if (parameter.in === "query") {
        return planOf(operation, "broken-query-parameter", {
          ...parts,
          query: [...parts.query.filter(([name]) => name !== parameter.name), [parameter.name, text]],
        });
      }
      return planOf(operation, "broken-header", {
        ...parts,
        headers: { ...parts.headers, [parameter.name.toLowerCase()]: text },
      });
    }),
  );
}

function brokenBody(operation: Operation, valid: fc.Arbitrary<Parts>): fc.Arbitrary<Plan> | undefined {
  const schema = jsonBodySchemaOf(operation);
  const requestBody = operation.requestBody;
  if (schema === undefined || requestBody === undefined) return undefined;
  const bad = badBody(schema, requestBody.examples[0], requestBody.required).map(({ value }) => value);
  return fc
    .tuple(valid, fc.oneof({ weight: 4, arbitrary: bad }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }))
    .map(([parts, value]) =>
      planOf(operation, "broken-body", { ...parts, body: { kind: "json", value, contentType: "application/json" } }),
    );
}

/** Besides names no operation defines: case variants, brackets, prototype names, an empty name, any text. */
const junkQueryNames = fc.oneof(
  unknownQueryNames,
  fc.constantFrom("LIMIT", "status[]", "__proto__", "constructor", "a.b", ""),
  fc.string({ minLength: 1, maxLength: 12 }),
);

/** Unknown query parameters, repeated known ones, or a query string that is mostly punctuation. */
function junkQuery(operation: Operation, valid: fc.Arbitrary<Parts>): fc.Arbitrary<Plan> {
  const known = parametersIn(operation, "query").map((p) => p.name);
  const repeated =
    known.length > 0
      ? fc.constantFrom(...known).map((name): [string, string][] => [
          [name, "1"],
          [name, "2"],
        ])
      : fc.constant<[string, string][]>([
          ["x", "1"],
          ["x", "2"],
        ]);
  const extra = fc.oneof(fc.array(fc.tuple(junkQueryNames, junkText), { minLength: 1, maxLength: 3 }), repeated);
  return fc
    .tuple(valid, extra)
    .map(([parts, more]) => planOf(operation, "junk-query", { ...parts, query: [...parts.query, ...more] }));
}

/** Besides JSON that does not parse: JSON that parses into something hostile (prototype keys, a lone surrogate, 1e999). */
const hostileJson = fc.oneof(
  malformedJson,
  fc.constantFrom(
    "",
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{}}}',
    '"just a string"',
    "1e999",
    '{"data":["\\ud800"]}',
  ),
);

/** Content types that are JSON in all but name, or not at all, or none. */
const oddContentTypes = fc.oneof(
  notJsonContentTypes,
  fc.constantFrom(
    "multipart/form-data; boundary=x",
    "application/json; charset=latin1",
    "application/JSON",
    "application/json-patch+json",
    "*/*",
    "",
  ),
);

/** Bodies that are not JSON, or not declared as JSON. */
function badBodies(operation: Operation, valid: fc.Arbitrary<Parts>): fc.Arbitrary<Plan> {
  return fc.oneof(
    fc.tuple(valid, hostileJson).map(([parts, text]) =>
      planOf(operation, "malformed-json", {
        ...parts,
        body: { kind: "text", text, contentType: "application/json" },
      }),
    ),
    fc.tuple(valid, oddContentTypes, fc.oneof(hostileJson, fc.constant("{}"))).map(([parts, contentType, text]) =>
      planOf(operation, "wrong-content-type", {
        ...parts,
        body: {
          kind: "text",
          text: parts.body?.kind === "json" ? JSON.stringify(parts.body.value) : text,
          contentType: contentType || undefined,
        },
      }),
    ),
    fc
      .tuple(valid, fc.constantFrom(1024 * 1024 - 64, 1024 * 1024 + 1, 1024 * 1024 + 4096, 3 * 1024 * 1024))
      .map(([parts, bytes]) => planOf(operation, "oversized-body", { ...parts, body: { kind: "padded-json", bytes } })),
  );
}

/** Requests with their credentials missing or wrong. */
function badAuth(operation: Operation, valid: fc.Arbitrary<Parts>): fc.Arbitrary<Plan> {
  const wrong: Auth[] =
    operation.security === "bearer"
      ? ["none", "bearer-wrong", "unit", "malformed"]
      : ["none", "none", "malformed", "malformed", "bearer", "bearer-wrong", "wrong-password"];
  return fc
    .tuple(valid, fc.constantFrom(...wrong))
    .map(([parts, auth]) => planOf(operation, "bad-credentials", { ...parts, auth }));
}

/** Path parameters the router may or may not take: very long, encoded slashes, dots, non-ASCII. */
function oddPath(operation: Operation, valid: fc.Arbitrary<Parts>): fc.Arbitrary<Plan> | undefined {
  const names = parametersIn(operation, "path").map((p) => p.name);
  if (names.length === 0) return undefined;
  const odd = fc.oneof(
    fc.constantFrom(
      "..",
      ".",
      "%2e%2e",
      "a%2Fb",
      "%00",
      "x".repeat(2048),
      "x".repeat(2049),
      "x".repeat(5000),
      "%",
      "%zz",
      "a b",
      "😀",
    ),
    junkText,
  );
  return fc
    .tuple(valid, fc.constantFrom(...names), odd)
    .map(([parts, name, value]) =>
      planOf(
        operation,
        "odd-path",
        { ...parts, pathParams: { ...parts.pathParams, [name]: value } },
        { pathMayMiss: true },
      ),
    );
}

/** The operation's path with a method it does not have. */
function wrongMethod(operation: Operation, valid: fc.Arbitrary<Parts>): fc.Arbitrary<Plan> {
  const taken = new Set<string>(operations.filter((o) => o.path === operation.path).map((o) => o.method));
  const others = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"].filter((method) => !taken.has(method));
  return fc.tuple(valid, fc.constantFrom(...others)).map(([parts, method]) => ({
    ...planOf(operation, "wrong-method", parts),
    operationId: "(unmatched)",
    method,
    exclusive: false,
  }));
}

/** A request that needs a call before it, as unit a: what it sends is decided when the flow runs. */
const flowPlan = (operation: Operation, variant: string, flow: Flow): Plan => ({
  operationId: operation.operationId,
  variant,
  method: operation.method,
  prefix: "",
  path: operation.path,
  pathParams: {},
  query: [],
  headers: {},
  auth: "unit",
  flow,
});

function uploadFlow(operation: Operation): fc.Arbitrary<Plan> {
  const flow = fc.record({
    size: fc.oneof(fc.integer({ min: 1, max: 2048 }), fc.integer({ min: 2049, max: 256 * 1024 }), fc.constant(1)),
    fill: fc.nat(255),
    documentType: fc.constantFrom("TR1", "AP1", "TP1", "OTHER", "PLAN", "MRTG_DEED"),
    filter: fc.option(fc.constantFrom("branch-leeds", "team a", "~"), { freq: 4, nil: undefined }),
    mutation: fc.oneof(
      { weight: 8, arbitrary: fc.constant<UploadMutation>("none") },
      { weight: 12, arbitrary: fc.constantFrom(...UPLOAD_MUTATIONS) },
    ),
  });
  return flow.map((f) =>
    flowPlan(operation, f.mutation === "none" ? "upload" : `upload-${f.mutation}`, { kind: "upload", ...f }),
  );
}

function downloadFlow(operation: Operation): fc.Arbitrary<Plan> {
  return fc
    .record({
      pick: fc.nat(),
      mutation: fc.oneof(
        { weight: 3, arbitrary: fc.constant<DownloadMutation>("none") },
        { weight: 4, arbitrary: fc.constantFrom(...DOWNLOAD_MUTATIONS) },
      ),
      other: fc.boolean(),
    })
    .map(({ pick, mutation, other }) =>
      flowPlan(operation, mutation === "none" ? "download" : `download-${mutation}`, {
        kind: "download",
        id: new Ref("download", pick),
        mutation,
        other: other && pick % 5 === 0,
      }),
    );
}

/** The flow through a signed address that reaches the operation, if it is one. */
export const flowOf = (operation: Operation): Flow["kind"] | undefined => signedFlowOf(operation);

/** Every kind of request for one operation, valid ones the most frequent. */
export function requestsFor(operation: Operation): fc.Arbitrary<Plan> {
  const valid = validParts(operation);
  const choices: fc.WeightedArbitrary<Plan>[] = [
    { weight: 10, arbitrary: valid.map((parts) => planOf(operation, "valid", parts)) },
    { weight: 2, arbitrary: junkQuery(operation, valid) },
    { weight: 2, arbitrary: badAuth(operation, valid) },
    { weight: 1, arbitrary: wrongMethod(operation, valid) },
  ];
  const optional: [number, fc.Arbitrary<Plan> | undefined][] = [
    [4, brokenParameter(operation, valid)],
    [5, brokenBody(operation, valid)],
    [1, oddPath(operation, valid)],
  ];
  for (const [weight, arbitrary] of optional) if (arbitrary !== undefined) choices.push({ weight, arbitrary });
  if (operation.requestBody !== undefined || operation.method !== "GET")
    choices.push({ weight: 3, arbitrary: badBodies(operation, valid) });
  const flow = flowOf(operation);
  if (flow === "upload") choices.push({ weight: 24, arbitrary: uploadFlow(operation) });
  if (flow === "download") choices.push({ weight: 24, arbitrary: downloadFlow(operation) });
  return fc.oneof(...choices);
}

/** Routes no operation answers: unknown versions and services, extra segments, trailing slashes, odd methods. */
export const unmatchedRoutes: fc.Arbitrary<Plan> = fc
  .record({
    path: fc.oneof(
      fc.constantFrom(
        "/",
        "/v2/notifications",
        "/v1/notification",
        "/v1/notifications/",
        "/v0/applications/",
        "/v1/notifications/acknowledge/extra",
        "/sandbox/v2/reset",
        "/api/v0/applications",
        "/api/s1/v1/titles/ZZ100001/official-copies/availability",
        "/V1/NOTIFICATIONS",
        "/v0//applications",
        "/%2e%2e/v1/notifications",
        "/v0/documents",
        "/v0/uploads",
        "/v1/documents/",
      ),
      fc
        .array(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { minLength: 1, maxLength: 4 })
        .map((segments) => `/zz-${segments.join("/")}`),
    ),
    method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
    auth: fc.constantFrom<Auth>("unit", "none", "bearer"),
  })
  .map(({ path, method, auth }) => ({
    operationId: "(unmatched)",
    variant: "unmatched-route",
    method,
    prefix: "",
    path,
    pathParams: {},
    query: [],
    headers: {},
    auth,
  }));

/**
 * How much of the interface a run touches: `full` (both documents, state changed through the control plane),
 * `stateless` (a mock: the registry interface's operations at their own paths, no request that needs a prior
 * call), `observe` (its GET requests, with the caller's own credentials or none that name a user).
 */
export type FuzzScope = "full" | "stateless" | "observe";

/** The operations a run of this scope addresses. */
export function operationsIn(scope: FuzzScope): typeof operations {
  return scope === "full"
    ? operations
    : operations.filter((o) => o.document === "registry" && (scope === "stateless" || o.method === "GET"));
}

/** Every request of a run: each operation in scope by its weight, and now and then an unmatched route. */
export function allRequests(scope: FuzzScope = "full"): fc.Arbitrary<Plan> {
  const drawn = fc.oneof(
    ...operationsIn(scope).map((operation) => ({
      weight: fuzzWeightOf(operation),
      arbitrary: requestsFor(operation),
    })),
    { weight: 6, arbitrary: unmatchedRoutes },
  );
  return scope === "full" ? drawn : drawn.filter(allowedIn(scope));
}

/** Whether a run of this scope may send a plan. */
export function allowedIn(scope: FuzzScope): (plan: Plan) => boolean {
  // Without a control plane there is no second business unit, and a wrong password would count against the user.
  const alone = (plan: Plan) =>
    plan.flow === undefined &&
    plan.exclusive !== true &&
    !["other", "other-token", "wrong-password"].includes(plan.auth);
  if (scope === "full") return () => true;
  if (scope === "observe") return (plan) => alone(plan) && plan.method === "GET";
  // Prism routes only the spec's paths (no /api alias, its own problem for an unknown route) and leaves malformed
  // JSON unanswered: the mock gets the requests it can answer at all.
  return (plan) =>
    alone(plan) &&
    plan.prefix === "" &&
    plan.operationId !== "(unmatched)" &&
    plan.variant !== "malformed-json" &&
    plan.variant !== "odd-path";
}

/** What every epoch of a run starts from: the settings in force until the next one (faults now and then). */
export interface Environment {
  processing: "automatic" | "manual";
  duplicate_rate: number;
  latency_ms: number;
  error_rate: number;
}

export const environments: fc.Arbitrary<Environment> = fc.record({
  processing: fc.constantFrom("automatic", "manual", "manual"),
  duplicate_rate: fc.constantFrom(0, 0, 0.1, 0.5),
  latency_ms: fc.constantFrom(0, 0, 0, 0, 2),
  error_rate: fc.constantFrom(0, 0, 0, 0.2),
});
