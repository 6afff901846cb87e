// Negative data for every operation: requests that break the operation's own constraints in the spec (path and
// query parameters, required headers, bodies) are answered with a documented 4xx, never a 5xx. Each generated
// request is first checked to be invalid against the spec, so a valid one is never mistaken for a bad one.
import { randomUUID } from "node:crypto";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { errorOf, expectThat } from "../driver.js";
import type { Property } from "../property.js";
import type { Answer, Session } from "../session.js";
import { errorEnvelopeOf, operations, problemCatalogue as problemCodes, problemCodesFor, type Operation as OperationInfo, type SpecNode } from "@lrg/spec";

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
const coercing = new Ajv2020({ strict: false, coerceTypes: true });
addFormats.default(coercing);
const validators = new WeakMap<SpecNode, ValidateFunction>();
const paramValidators = new WeakMap<SpecNode, ValidateFunction>();

function validBody(schema: SpecNode, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate(structuredClone(value));
}

/** Parameters arrive as text: a value is valid when the text coerces to something the schema admits. */
function validParameter(schema: SpecNode, value: string): boolean {
  let validate = paramValidators.get(schema);
  if (!validate) {
    validate = coercing.compile({ type: "object", properties: { value: schema } });
    paramValidators.set(schema, validate);
  }
  return validate({ value });
}

/** A valid request of an operation, from the spec's examples. */
interface BaseRequest {
  operation: OperationInfo;
  path: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  bodySchema: SpecNode | undefined;
  bodyRequired: boolean;
  [fc.toStringMethod]: () => string;
}

/**
 * Left out: operations authorised by a signed address (any change is a signature failure, see the upload
 * properties), the reset (it erases everything), and the settings (their partial update has its own property).
 */
const EXCLUDED = new Set(["uploadDocument", "fetchDocumentContent", "resetSandbox", "updateSettings"]);

function baseRequest(operation: OperationInfo): BaseRequest {
  const path: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const example = parameter["example"] ?? (parameter["schema"] as SpecNode | undefined)?.["example"];
    if (parameter["in"] === "path") path[String(parameter["name"])] = String(example);
    if (parameter["in"] === "header" && parameter["required"] === true) headers[String(parameter["name"]).toLowerCase()] = `conformance-${randomUUID()}`;
  }
  const media = ((operation.operation["requestBody"] as SpecNode | undefined)?.["content"] as Record<string, SpecNode> | undefined)?.["application/json"];
  const examples = Object.values((media?.["examples"] ?? {}) as Record<string, { value: unknown }>);
  // Counterexamples name the operation, not the whole of its spec.
  const bodyRequired = (operation.operation["requestBody"] as SpecNode | undefined)?.["required"] === true;
  return { operation, path, headers, body: examples[0]?.value, bodySchema: media?.["schema"] as SpecNode | undefined, bodyRequired, [fc.toStringMethod]: () => operation.operationId };
}

type Mutation =
  | { kind: "path"; name: string; value: string }
  | { kind: "query"; name: string; value: string }
  | { kind: "unknown-query"; name: string }
  | { kind: "missing-header"; name: string }
  | { kind: "malformed-json"; text: string }
  | { kind: "content-type"; type: string }
  | { kind: "body"; body: unknown; change: string };

const SEGMENT = fc.string({ unit: fc.constantFrom(..."ABCXYZabcxyz0189-._~!$'()*+,;=:@".split("")), minLength: 1, maxLength: 80 }).filter((s) => !/^\.+$/.test(s));
const TEXT_VALUES = fc.oneof(
  SEGMENT,
  fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
  fc.constantFrom("", "1.5", "-1", "0", "true", "NEW ", "new", "2025-13-40T25:61:61", "2025-02-20", "x".repeat(300)),
);
const REPLACEMENTS = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>("", "x".repeat(400), -1, 0, 1.5, 1e12, null, [], {}, true, "not-a-uuid", Array.from({ length: 101 }, () => randomUUID())),
);

/** Every member of a JSON value, as paths. */
function membersOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, i) => membersOf(item, [...path, i]))];
  if (value !== null && typeof value === "object") return [path, ...Object.entries(value).flatMap(([k, v]) => membersOf(v, [...path, k]))];
  return [path];
}

function changed(body: unknown, path: (string | number)[], change: "replace" | "delete" | "add", replacement: unknown): unknown {
  const copy = structuredClone(body);
  if (path.length === 0) return change === "replace" ? replacement : copy;
  let holder = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (change === "replace") holder[last] = replacement;
  else if (change === "delete" && !Array.isArray(holder)) delete holder[last];
  else if (change === "add" && holder[last] !== null && typeof holder[last] === "object" && !Array.isArray(holder[last])) (holder[last] as Record<string, unknown>)["unexpected_member"] = replacement;
  return copy;
}

/** The invalid requests of one operation. */
function mutations(base: BaseRequest, semantics: boolean): fc.Arbitrary<Mutation>[] {
  const { operation } = base;
  const arbitraries: fc.Arbitrary<Mutation>[] = [];
  for (const parameter of operation.parameters) {
    const name = String(parameter["name"]);
    const schema = parameter["schema"];
    if (parameter["in"] === "path") {
      arbitraries.push(SEGMENT.filter((value) => !validParameter(schema, value)).map((value) => ({ kind: "path", name, value })));
    } else if (parameter["in"] === "query") {
      // Prism reads an empty query value as an absent parameter: only a target with semantics gets those.
      arbitraries.push(TEXT_VALUES.filter((value) => (semantics || value !== "") && !validParameter(schema, value)).map((value) => ({ kind: "query", name, value })));
    } else if (parameter["in"] === "header" && parameter["required"] === true) {
      arbitraries.push(fc.constant({ kind: "missing-header", name: name.toLowerCase() }));
    }
  }
  // A mock validates what the schemas say; refusing parameters the operation does not define is the gateway's rule.
  const declared = new Set(operation.parameters.filter((p) => p["in"] === "query").map((p) => String(p["name"])));
  // Among them the other version's names: v0 has no subject_type and spells occured_* with one r.
  const names = fc.oneof(fc.constantFrom("subject_type", "occured_after", "occurred_before", "page", "offset"), fc.stringMatching(/^[a-z][a-z_]{0,19}$/));
  if (semantics) arbitraries.push(names.filter((name) => !declared.has(name)).map((name) => ({ kind: "unknown-query", name })));
  if (base.bodySchema && base.body !== undefined) {
    const body = base.body;
    const paths = membersOf(body);
    // Prism leaves a request with a malformed JSON body unanswered: only a target with semantics gets them.
    if (semantics) arbitraries.push(fc.constantFrom("{", '{"data": [}', "[1, 2", "nul", '{"data": "\u0000', "{'data': []}").map((text) => ({ kind: "malformed-json", text })));
    arbitraries.push(fc.constantFrom("text/plain", "application/xml", "application/x-www-form-urlencoded").map((type) => ({ kind: "content-type", type })));
    arbitraries.push(
      fc
        .tuple(fc.constantFrom(...paths), fc.constantFrom<"replace" | "delete" | "add">("replace", "delete", "add"), REPLACEMENTS)
        .map(([path, change, replacement]) => ({ path, change, replacement, mutated: changed(body, path, change, replacement) }))
        .filter(({ mutated }) => !validBody(base.bodySchema as SpecNode, mutated))
        // A JSON null where the body is optional is let through by the gateway as no body (reported; not generated).
        .filter(({ mutated }) => !(mutated === null && !base.bodyRequired))
        .map(({ path, change, mutated }) => ({ kind: "body", body: mutated, change: `${change} /${path.join("/")}` })),
    );
  }
  return arbitraries;
}

async function send(session: Session, base: BaseRequest, mutation: Mutation): Promise<Answer> {
  const path = { ...base.path };
  const query: Record<string, string> = {};
  const headers = { ...base.headers };
  let body: unknown = base.body;
  let raw: string | undefined;
  switch (mutation.kind) {
    case "path":
      path[mutation.name] = mutation.value;
      break;
    case "query":
      query[mutation.name] = mutation.value;
      break;
    case "unknown-query":
      query[mutation.name] = "1";
      break;
    case "missing-header":
      delete headers[mutation.name];
      break;
    case "malformed-json":
      raw = mutation.text;
      headers["content-type"] = "application/json";
      break;
    case "content-type":
      raw = JSON.stringify(base.body);
      headers["content-type"] = mutation.type;
      break;
    case "body":
      body = mutation.body;
      break;
  }
  const url = base.operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(path[name])));
  const method = base.operation.method.toUpperCase();
  return (base.operation.document === "sandbox" ? session.sandboxCall.bind(session) : session.call.bind(session))(method, url, {
    query,
    headers,
    ...(raw !== undefined ? { body: raw } : body !== undefined ? { json: body } : {}),
  });
}

function describe(mutation: Mutation): string {
  switch (mutation.kind) {
    case "path":
    case "query":
      return `${mutation.kind} ${mutation.name}=${JSON.stringify(mutation.value)}`;
    case "unknown-query":
    case "missing-header":
      return `${mutation.kind} ${mutation.name}`;
    case "malformed-json":
      return `malformed JSON ${JSON.stringify(mutation.text)}`;
    case "content-type":
      return `content type ${mutation.type}`;
    case "body":
      return `body: ${mutation.change}`;
  }
}

function negativeProperty(document: OperationInfo["document"]): Property {
  const registry = document === "registry";
  return {
    id: registry ? "negative.registry-operations" : "negative.control-plane",
    rows: registry ? ["R037", "R038", "R054", "R067", "R068", "R075", "R082", "R086", "R093", "R095", "R096", "R097", "R100", "R143", "R138", "R142", "R015", "R016", "R148", "R149"] : [],
    title: registry
      ? "negative data for every operation of the registry interface (invalid path, query, headers, bodies, malformed JSON, wrong content type): a documented 4xx problem, never a 5xx"
      : "negative data for every operation of the sandbox control plane: a documented 4xx problem, never a 5xx",
    requires: registry ? ["writes"] : ["control-plane"],
    runs: registry ? 300 : 100,
    async check(context) {
      const { session } = context;
      const semantics = session.has("semantics");
      const candidates = operations.filter((o) => o.document === document && !EXCLUDED.has(o.operationId)).map(baseRequest);
      const requests = fc.oneof(...candidates.flatMap((base) => mutations(base, semantics).map((mutation) => fc.tuple(fc.constant(base), mutation))));
      await context.assert(
        fc.asyncProperty(requests, async ([base, mutation]) => {
          const answer = await send(session, base, mutation);
          const what = `${base.operation.operationId} with ${describe(mutation)}`;
          expectThat(answer.status >= 400 && answer.status < 500, `${what}: answered ${answer.status} ${answer.text.slice(0, 300)}`);
          if (!semantics) return;
          // In problem+json or the operation's registry envelope, the code is (or maps back to) a catalogue entry.
          const problem = errorOf(answer);
          const entries = problemCodesFor(base.operation, String(problem.code)).map((code) => problemCodes[code]);
          const matches = entries.some((entry) => entry !== undefined && entry.status === answer.status && (problem.title === undefined || entry.title === problem.title));
          const enveloped = errorEnvelopeOf(base.operation) !== undefined;
          expectThat(matches && (problem.status === answer.status || (enveloped && problem.status === undefined)), `${what}: problem ${answer.text.slice(0, 300)} is not its catalogue entry`);
        }),
      );
    },
  };
}

/** Negative data properties. */
export const negativeProperties: Property[] = [negativeProperty("registry"), negativeProperty("sandbox")];
