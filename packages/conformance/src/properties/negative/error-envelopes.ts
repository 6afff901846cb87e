// Every operation with a registry envelope (`x-lrg-error-envelope`) answers its errors in it, 401 and schema errors
// included; every other operation answers problem+json.
import { errorCodeFor, errorEnvelopeOf, operations, type Operation as OperationInfo } from "@lrg/spec";
import { errorOf, expectStatus, expectThat } from "../../driver.js";
import type { Property } from "../../property.js";

/** The operations that answer errors in a registry envelope. */
const enveloped = operations.filter((operation) => errorEnvelopeOf(operation) !== undefined);

/** A request to an operation with every path parameter given a value its schema refuses. */
function malformedPath(operation: OperationInfo): string {
  return operation.path.replace(/\{\w+\}/g, "not_valid_!");
}

const errorEnvelopes: Property = {
  id: "errors.registry-envelopes",
  rows: ["R324"],
  title:
    "every operation with the registry's envelope (official search, poll, proprietor names, official copy availability, attach) answers its errors in it, 401 and schema errors included, with the registry's code for each; every other operation answers problem+json",
  requires: ["semantics"],
  runs: 1,
  async check(context) {
    const { session } = context;
    await context.once(async () => {
      for (const operation of enveloped) {
        const method = operation.method.toUpperCase();
        const path = operation.path.replace(/\{\w+\}/g, "ZZ100001");
        const unauthorised = await session.call(method, path, { as: null, ...(method === "POST" ? { json: {} } : {}) });
        expectStatus(unauthorised, 401, `${method} ${operation.path} without credentials`);
        expectThat(
          Array.isArray((unauthorised.body as { errors?: unknown }).errors),
          `${operation.operationId}: 401 not in the envelope`,
        );
        const code = errorOf(unauthorised).code;
        if (session.target !== "remote")
          expectThat(code === errorCodeFor(operation, "401-01"), `${operation.operationId}: 401 code ${String(code)}`);
        const malformed = await session.call(
          method,
          malformedPath(operation),
          method === "POST" ? { json: { data: {} } } : {},
        );
        expectThat(
          malformed.status === 400 || malformed.status === 404,
          `${method} ${operation.path} with a malformed path: ${malformed.status}`,
        );
        expectThat(
          Array.isArray((malformed.body as { errors?: unknown }).errors),
          `${operation.operationId}: ${malformed.status} not in the envelope`,
        );
      }
      const problem = await session.call("GET", "/v1/notifications", { as: null });
      expectThat(
        problem.headers["content-type"]?.startsWith("application/problem+json") === true,
        "notifications' 401 is not problem+json",
      );
    });
  },
};

/** Properties of the registry's error envelopes. */
export const errorEnvelopeProperties: Property[] = [errorEnvelopes];
