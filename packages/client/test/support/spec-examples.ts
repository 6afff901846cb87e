// The spec's own examples, read through @lrg/spec: the tests answer what the spec documents.
import { componentSchema, operationFor, type SpecNode } from "@lrg/spec";

/** A bound of the spec, by component schema and property path: the client's limits are checked against it. */
export function specBound(schema: string, path: string[], bound: "maxLength" | "maximum"): number | undefined {
  let node: SpecNode | undefined = componentSchema(schema);
  for (const name of path) node = (node?.["properties"] as Record<string, SpecNode> | undefined)?.[name];
  return node?.[bound] as number | undefined;
}

type Content = Record<string, { examples?: Record<string, { value: unknown }> }>;

/** An example's value: of the request body (`status` "request") or of a response. */
export function specExample<T = unknown>(path: string, method: string, status: string, media: string, name: string): T {
  const operation = operationFor(method, path);
  const holder =
    status === "request"
      ? (operation?.operation["requestBody"] as SpecNode | undefined)
      : operation?.responses.get(Number(status))?.spec;
  const content = holder?.["content"] as Content | undefined;
  const example = content?.[media]?.examples?.[name];
  if (example === undefined) throw new Error(`no example ${name} for ${method} ${path} ${status} ${media}`);
  return structuredClone(example.value) as T;
}
