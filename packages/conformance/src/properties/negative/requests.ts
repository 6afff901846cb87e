// Negative data for every operation: requests that break the operation's own constraints in the spec (path and
// query parameters, required headers, bodies) are answered with a documented 4xx, never a 5xx. Each generated
// request is first checked to be invalid against the spec, so a valid one is never mistaken for a bad one.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  erasesRecords,
  errorEnvelopeOf,
  operations,
  signedAddressOf,
  problemCatalogue,
  problemCodesFor,
  type Operation,
  type SpecNode,
} from "@lrg/spec";
import {
  badBody,
  badParameterText,
  malformedJson,
  notJsonContentTypes,
  unknownQueryNames,
} from "../../bad-input/index.js";
import { errorOf, expectThat } from "../../driver.js";
import type { Property } from "../../property.js";
import type { Answer, Session } from "../../session.js";

/** A valid request of an operation, from the spec's examples. */
interface BaseRequest {
  operation: Operation;
  path: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  bodySchema: SpecNode | undefined;
  bodyRequired: boolean;
  [fc.toStringMethod]: () => string;
}

/**
 * Left out: operations authorised by a signed address (any change is a signature failure, see the upload
 * properties), and those that erase records (one accepted by mistake would erase the records of every property).
 */
const excluded = (operation: Operation) => signedAddressOf(operation) !== undefined || erasesRecords(operation);

function baseRequest(operation: Operation): BaseRequest {
  const path: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const example = parameter.example ?? parameter.schema["example"];
    if (parameter.in === "path") path[parameter.name] = String(example);
    if (parameter.in === "header" && parameter.required)
      headers[parameter.name.toLowerCase()] = `conformance-${randomUUID()}`;
  }
  const body = operation.requestBody;
  const bodySchema = body?.content.get("application/json");
  // Counterexamples name the operation, not the whole of its spec.
  return {
    operation,
    path,
    headers,
    body: bodySchema === undefined ? undefined : body?.examples[0],
    bodySchema,
    bodyRequired: body?.required === true,
    [fc.toStringMethod]: () => operation.operationId,
  };
}

type Mutation =
  | { kind: "path"; name: string; value: string }
  | { kind: "query"; name: string; value: string }
  | { kind: "unknown-query"; name: string }
  | { kind: "missing-header"; name: string }
  | { kind: "malformed-json"; text: string }
  | { kind: "content-type"; type: string }
  | { kind: "body"; body: unknown; change: string };

/** The invalid requests of one operation, drawn from the shared generator of bad input. */
function mutations(
  base: BaseRequest,
  semantics: boolean,
): { kind: Mutation["kind"]; arbitrary: fc.Arbitrary<Mutation> }[] {
  const { operation } = base;
  const arbitraries: { kind: Mutation["kind"]; arbitrary: fc.Arbitrary<Mutation> }[] = [];
  const add = (kind: Mutation["kind"], arbitrary: fc.Arbitrary<Mutation>) => arbitraries.push({ kind, arbitrary });
  const parameters = operation.parameters;
  for (const { name, in: place, schema, required } of parameters) {
    if (place === "path") {
      add(
        "path",
        badParameterText(schema, { routable: true }).map((value) => ({ kind: "path", name, value })),
      );
    } else if (place === "query") {
      // Prism reads an empty query value as an absent parameter: only a target with semantics gets those.
      add(
        "query",
        badParameterText(schema, { allowEmpty: semantics }).map((value) => ({ kind: "query", name, value })),
      );
    } else if (place === "header" && required) {
      add("missing-header", fc.constant({ kind: "missing-header", name: name.toLowerCase() }));
    }
  }
  // A mock validates what the schemas say; refusing parameters the operation does not define is the gateway's rule.
  const declared = new Set(parameters.filter((p) => p.in === "query").map((p) => p.name));
  if (semantics)
    add(
      "unknown-query",
      unknownQueryNames.filter((name) => !declared.has(name)).map((name) => ({ kind: "unknown-query", name })),
    );
  if (base.bodySchema && base.body !== undefined) {
    // Prism leaves a request with a malformed JSON body unanswered: only a target with semantics gets them.
    if (semantics)
      add(
        "malformed-json",
        malformedJson.map((text) => ({ kind: "malformed-json", text })),
      );
    add(
      "content-type",
      notJsonContentTypes.map((type) => ({ kind: "content-type", type })),
    );
    add(
      "body",
      badBody(base.bodySchema, base.body, base.bodyRequired).map(({ value, change }) => ({
        kind: "body",
        body: value,
        change,
      })),
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
  const method = base.operation.method;
  return (base.operation.document === "sandbox" ? session.sandboxCall.bind(session) : session.call.bind(session))(
    method,
    url,
    {
      query,
      headers,
      ...(raw !== undefined ? { body: raw } : body !== undefined ? { json: body } : {}),
    },
  );
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

/** Every invalid request of a document's operations, each drawn with the operation it is for. */
export function negativeRequests(
  document: Operation["document"],
  semantics: boolean,
): { operationId: string; kind: Mutation["kind"]; requests: fc.Arbitrary<[BaseRequest, Mutation]> }[] {
  return operations
    .filter((o) => o.document === document && !excluded(o))
    .map(baseRequest)
    .flatMap((base) =>
      mutations(base, semantics).map(({ kind, arbitrary }) => ({
        operationId: base.operation.operationId,
        kind,
        requests: fc.tuple(fc.constant(base), arbitrary),
      })),
    );
}

/**
 * Sends one invalid request and throws unless it is refused with a 4xx (the session has checked that the status
 * and body are documented); on a target with semantics, in the catalogue's problem (or the operation's envelope).
 */
export async function expectRefused(session: Session, [base, mutation]: [BaseRequest, Mutation]): Promise<void> {
  const answer = await send(session, base, mutation);
  const what = `${base.operation.operationId} with ${describe(mutation)}`;
  expectThat(
    answer.status >= 400 && answer.status < 500,
    `${what}: answered ${answer.status} ${answer.text.slice(0, 300)}`,
  );
  if (!session.has("semantics")) return;
  // In problem+json or the operation's registry envelope, the code is (or maps back to) a catalogue entry.
  const problem = errorOf(answer);
  const entries = problemCodesFor(base.operation, String(problem.code)).map((code) => problemCatalogue[code]);
  const matches = entries.some(
    (entry) =>
      entry !== undefined &&
      entry.status === answer.status &&
      (problem.title === undefined || entry.title === problem.title),
  );
  const enveloped = errorEnvelopeOf(base.operation) !== undefined;
  expectThat(
    matches && (problem.status === answer.status || (enveloped && problem.status === undefined)),
    `${what}: problem ${answer.text.slice(0, 300)} is not its catalogue entry`,
  );
}

function negativeProperty(document: Operation["document"]): Property {
  const registry = document === "registry";
  return {
    id: registry ? "negative.registry-operations" : "negative.control-plane",
    rows: registry
      ? [
          "R037",
          "R038",
          "R054",
          "R067",
          "R068",
          "R075",
          "R082",
          "R086",
          "R093",
          "R095",
          "R096",
          "R097",
          "R100",
          "R143",
          "R138",
          "R142",
          "R015",
          "R016",
          "R148",
          "R149",
        ]
      : [],
    title: registry
      ? "negative data for every operation of the registry interface (invalid path, query, headers, bodies, malformed JSON, wrong content type): a documented 4xx problem, never a 5xx"
      : "negative data for every operation of the sandbox control plane: a documented 4xx problem, never a 5xx",
    requires: registry ? ["writes"] : ["control-plane"],
    runs: registry ? 300 : 100,
    async check(context) {
      const { session } = context;
      const requests = fc.oneof(...negativeRequests(document, session.has("semantics")).map((entry) => entry.requests));
      await context.assert(fc.asyncProperty(requests, (request) => expectRefused(session, request)));
    },
  };
}

/** Negative data properties. */
export const negativeRequestProperties: Property[] = [negativeProperty("registry"), negativeProperty("sandbox")];
