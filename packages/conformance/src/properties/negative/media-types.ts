// Every operation that takes JSON refuses a body of another media type (415), and takes application/json with
// parameters.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { operations, type Operation as OperationInfo } from "@lrg/spec";
import { errorOf, expectStatus, expectThat } from "../../driver.js";
import type { Property } from "../../property.js";

/** The operations that take a JSON body. */
const jsonOperations = operations.filter(
  (o) =>
    ((o.operation["requestBody"] as { content?: Record<string, unknown> } | undefined)?.content ?? {})[
      "application/json"
    ] !== undefined,
);

/** A path of the operation with its parameters' examples (or a fresh UUID) filled in. */
function pathOf(operation: OperationInfo): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = operation.parameters.find((p) => p["in"] === "path" && p["name"] === name);
    return encodeURIComponent(
      String(
        parameter?.["example"] ?? (parameter?.["schema"] as { example?: unknown } | undefined)?.example ?? randomUUID(),
      ),
    );
  });
}

const jsonMediaType: Property = {
  id: "negative.json-media-type",
  rows: [],
  title:
    "every JSON operation (the control plane's included) answers a body sent as text/plain, XML or a form with 415 (415-01) and changes nothing; the registry's operations take the same body as application/json (never 415)",
  requires: ["semantics", "writes"],
  runs: 60,
  async check(context) {
    const { session } = context;
    const candidates = jsonOperations.filter((o) => o.document === "registry" || session.has("control-plane"));
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...candidates),
        fc.constantFrom(
          "text/plain",
          "text/plain; charset=utf-8",
          "application/xml",
          "application/x-www-form-urlencoded",
          "application/json",
        ),
        async (operation, type) => {
          const media = ((
            operation.operation["requestBody"] as {
              content: Record<string, { examples?: Record<string, { value: unknown }> }>;
            }
          ).content["application/json"]?.examples ?? {}) as Record<string, { value: unknown }>;
          const example = Object.values(media)[0]?.value ?? {};
          // The control plane's example bodies change the sandbox: only the refusals are sent there.
          if (operation.document === "sandbox" && type === "application/json") return;
          const call =
            operation.document === "sandbox" ? session.sandboxCall.bind(session) : session.call.bind(session);
          const required = Object.fromEntries(
            operation.parameters
              .filter((p) => p["in"] === "header" && p["required"] === true)
              .map((p) => [String(p["name"]).toLowerCase(), `conformance-${randomUUID()}`]),
          );
          const answer = await call(operation.method.toUpperCase(), pathOf(operation), {
            body: JSON.stringify(example),
            headers: { ...required, "content-type": type },
          });
          if (type === "application/json") {
            expectThat(answer.status !== 415, `${operation.operationId} refused application/json with 415`);
            return;
          }
          expectStatus(answer, 415, `${operation.operationId} with ${type}`);
          expectThat(errorOf(answer).code === "415-01", `problem code ${answer.text}`);
        },
      ),
    );
  },
};

/** Properties of the media types a JSON operation refuses. */
export const mediaTypeProperties: Property[] = [jsonMediaType];
