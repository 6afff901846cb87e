// The spec's own example requests, sent to the target: every answer is one the spec documents (the session
// checks status, content type, body and headers), and none is a 5xx.
import { randomUUID } from "node:crypto";
import { expectThat } from "../driver.js";
import type { Property } from "../property.js";
import { operations, signedAddressOf, type Operation as OperationInfo, type SpecNode } from "@lrg/spec";
import { answersDocument } from "../operation-facts.js";

interface ExampleRequest {
  name: string;
  method: string;
  path: string;
  /** Names of the required headers (each gets a fresh value). */
  headers: string[];
  body: unknown;
}

/** Every example request of an operation: path parameters from their examples, each body example in turn. */
function exampleRequests(operation: OperationInfo): ExampleRequest[] {
  let path = operation.path;
  const headers: string[] = [];
  for (const parameter of operation.parameters) {
    const example = parameter["example"] ?? (parameter["schema"] as SpecNode | undefined)?.["example"];
    if (parameter["in"] === "path")
      path = path.replace(`{${String(parameter["name"])}}`, encodeURIComponent(String(example)));
    if (parameter["in"] === "header" && parameter["required"] === true)
      headers.push(String(parameter["name"]).toLowerCase());
  }
  const method = operation.method.toUpperCase();
  const media = (
    (operation.operation["requestBody"] as SpecNode | undefined)?.["content"] as Record<string, SpecNode> | undefined
  )?.["application/json"];
  const examples = Object.entries((media?.["examples"] ?? {}) as Record<string, { value: unknown }>);
  if (examples.length === 0) return [{ name: operation.operationId, method, path, headers, body: undefined }];
  return examples.map(([name, example]) => ({
    name: `${operation.operationId}/${name}`,
    method,
    path,
    headers,
    body: example.value,
  }));
}

const exampleRequestsAnswered: Property = {
  id: "conformance.example-requests",
  rows: ["R014", "R019", "R037", "R038", "R055", "R145", "R146", "R147", "R148", "R149"],
  title:
    "every example request of the spec is answered with a documented status, content type, body and headers, never a 5xx",
  requires: [],
  runs: 1,
  async check(context) {
    const { session } = context;
    // Observing a remote target: only what reads. A mock answers a download with a placeholder that is no PDF.
    // Operations authorised by a signed address need an address the target signed: the upload properties send those.
    const requests = operations
      .filter(
        (o) =>
          o.document === "registry" &&
          signedAddressOf(o) === undefined &&
          (session.has("writes") || o.method === "GET"),
      )
      .filter((o) => session.has("semantics") || !answersDocument(o))
      .flatMap(exampleRequests);
    await context.once(async () => {
      for (const request of requests) {
        const headers = Object.fromEntries(request.headers.map((name) => [name, `conformance-${randomUUID()}`]));
        // A title enquiry's message_id may be used once by a user.
        const chosen = (request.body as { message_id?: unknown } | undefined)?.message_id;
        const body =
          typeof chosen === "string" ? { ...(request.body as object), message_id: `e-${randomUUID()}` } : request.body;
        const answer = await session.call(request.method, request.path, {
          headers,
          ...(body !== undefined ? { json: body } : {}),
        });
        expectThat(answer.status < 500, `${request.name} answered ${answer.status}`);
      }
    });
  },
};

/** Properties over the spec's examples. */
export const exampleProperties: Property[] = [exampleRequestsAnswered];
