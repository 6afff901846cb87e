// What the suite knows about an operation, each fact read from the spec (`x-lrg-scope`, `x-lrg-signed-address`,
// `x-lrg-erases`, security) or derived from its parameters and answers; no operation is named here. The properties
// and the fuzzer ask these questions instead of listing operations, so a new operation is covered as it comes.
import { operations, scopeOf, signedAddressOf, type Operation, type SpecNode } from "@lrg/spec";

/** How a request reaches an operation through a signed address: an upload (PUT of bytes) or a download (GET). */
export type SignedFlow = "upload" | "download";

/** The flow through a signed address that reaches the operation, if it is reached through one. */
export function signedFlowOf(operation: Operation): SignedFlow | undefined {
  if (signedAddressOf(operation) === undefined) return undefined;
  return operation.method === "GET" ? "download" : "upload";
}

/** The operation reached by a flow of this kind (the spec has one of each). */
export function operationOfFlow(flow: SignedFlow): Operation {
  const found = operations.find((operation) => signedFlowOf(operation) === flow);
  if (found === undefined) throw new Error(`the spec has no operation reached by a signed ${flow} address`);
  return found;
}

/**
 * Whether isolation between business units applies: the operation reads or changes one unit's records
 * (`x-lrg-scope: business-unit`) and the caller says who it is (an operation of a signed address has no caller).
 */
export function isolationApplies(operation: Operation): boolean {
  return scopeOf(operation) === "business-unit" && operation.security !== "none";
}

/** The member a JSON schema holds at a path of member names (through `allOf`, `oneOf`, `anyOf`), if any. */
export function memberAt(schema: SpecNode | undefined, path: readonly string[]): SpecNode | undefined {
  if (schema === undefined || path.length === 0) return schema;
  const [name, ...rest] = path as [string, ...string[]];
  const own = (schema["properties"] as Record<string, SpecNode> | undefined)?.[name];
  if (own !== undefined) return memberAt(own, rest);
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    for (const part of (schema[key] ?? []) as SpecNode[]) {
      const found = memberAt(part, path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The JSON schemas of an operation's successful answers. */
export function successSchemas(operation: Operation): SpecNode[] {
  return [...operation.responses]
    .filter(([status]) => status < 300)
    .flatMap(([, response]) => [...response.content.values()])
    .filter((schema): schema is SpecNode => schema !== undefined);
}

/**
 * Whether the operation acknowledges notifications: its body's `data` lists notification ids and its answer says
 * which were `acknowledged` (another unit's are left out of it).
 */
export function acknowledges(operation: Operation): boolean {
  return successSchemas(operation).some((schema) => memberAt(schema, ["data", "acknowledged"]) !== undefined);
}

/** Whether a success answers a PDF document (a mock has none to send: it answers a placeholder). */
export function answersDocument(operation: Operation): boolean {
  return [...operation.responses].some(
    ([status, response]) => status < 300 && [...response.content.keys()].some((type) => type === "application/pdf"),
  );
}

/**
 * The value a runtime expression of the spec (`$response.body#/json/pointer` or `$response.header.Name`) picks out
 * of an answer, if it is there and a string.
 */
export function valueAt(
  expression: string,
  answer: { headers: Record<string, string | string[] | undefined>; json: unknown },
): string | undefined {
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header !== null) {
    const value = answer.headers[(header[1] as string).toLowerCase()];
    return typeof value === "string" ? value : undefined;
  }
  const pointer = /^\$response\.body#(\/.*)$/.exec(expression);
  if (pointer === null) return undefined;
  let node: unknown = answer.json;
  for (const token of (pointer[1] as string).split("/").slice(1)) {
    const name = token.replace(/~1/g, "/").replace(/~0/g, "~");
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[name] : undefined;
  }
  return typeof node === "string" ? node : undefined;
}
