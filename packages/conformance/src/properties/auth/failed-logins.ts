// The failed-login budget of HTTP Basic (`x-lrg-failed-login-limit`, design): wrong passwords are answered 401 up
// to the budget of the client address, then 429 (429-02) with Retry-After, while a credential the gateway verified
// already is still answered.
import fc from "fast-check";
import { errorOf, expectStatus, expectThat } from "../../driver.js";
import type { Property } from "../../property.js";
import { basic } from "../../session.js";
import { errorCodeFor, failedLoginLimit, operations, type Operation } from "@lrg/spec";
import { exampleRequest } from "./credentials.js";

const basicOperations = operations.filter((o) => o.security === "basic");

/** Seconds after which every budget is full again, by the gateway's global clock. */
const REFILL_SECONDS = Math.ceil(
  Math.max(
    ...[failedLoginLimit.perAddress, failedLoginLimit.perUsername].map((b) => (b.failures * 60) / b.refillPerMinute),
  ) + 1,
);

const failedLoginBudget: Property = {
  id: "auth.failed-login-budget",
  rows: ["R190"],
  title:
    "wrong passwords from one address are answered 401 up to the address's failed-login budget, then 429 (429-02, BG40006 in the registry's envelope) with Retry-After; a credential verified before is still answered",
  // It spends the budget of the suite's own address and refills it by moving the gateway's global clock (the
  // budgets follow it): both are shared with every other run on the gateway.
  requires: ["semantics", "writes", "control-plane"],
  exclusive:
    "the failed-login budget of the client address is shared by every run from it and refills by the global clock",
  runs: 2,
  async check(context) {
    const { session } = context;
    const refill = () =>
      session.control("POST", "/sandbox/v1/clock/advance", { seconds: REFILL_SECONDS }, { as: "admin" });
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...basicOperations.map((o) => o.operationId)),
        fc.string({ minLength: 1, maxLength: 30 }),
        async (operationId, password) => {
          const operation = basicOperations.find((o) => o.operationId === operationId) as Operation;
          await refill();
          const user = await session.newBusinessUnit();
          fc.pre(password !== user.password);
          // Verified before the failures: remembered by the gateway (by each instance behind a balancer).
          for (let i = 0; i < 4; i += 1)
            expectStatus(await session.call("GET", "/v1/notifications", { as: user }), 200, "a correct login");
          const request = exampleRequest(operation);
          const wrong = basic({ username: user.username, password });
          const refusals: number[] = [];
          let answer;
          // A budget refills while it is spent (by the gateway's clock, which runs: the slower the machine, the more
          // it refills), and instances behind a balancer each keep their own: room for both on a loaded machine.
          for (let attempt = 0; attempt < 10 * failedLoginLimit.perAddress.failures; attempt += 1) {
            answer = await session.call(operation.method.toUpperCase(), request.path, {
              ...(request.body !== undefined ? { json: request.body } : {}),
              headers: request.headers,
              authorization: wrong,
            });
            if (answer.status !== 401) break;
            refusals.push(answer.status);
          }
          try {
            expectThat(
              refusals.length >= failedLoginLimit.perAddress.failures,
              `${operationId}: only ${refusals.length} wrong passwords were answered 401 before ${answer?.status}`,
            );
            expectThat(
              answer?.status === 429,
              `${operationId}: the budget spent, a wrong password answered ${answer?.status}`,
            );
            const retryAfter = Number(answer.headers["retry-after"]);
            expectThat(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${answer.headers["retry-after"]}`);
            expectThat(
              errorOf(answer).code === errorCodeFor(operation, "429-02"),
              `${operationId}: the throttled login's code is ${errorOf(answer).code}`,
            );
            expectStatus(
              await session.call("GET", "/v1/notifications", { as: user }),
              200,
              "a credential verified before the budget was spent",
            );
          } finally {
            await refill();
          }
        },
      ),
    );
  },
};

/** The failed-login budget. */
export const failedLoginProperties: Property[] = [failedLoginBudget];
