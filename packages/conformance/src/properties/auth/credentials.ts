// Authentication and the business unit boundary: every protected operation refuses missing or wrong credentials
// with 401, and one business unit never sees another's applications, notifications or documents.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import fc from "fast-check";
import { acknowledge, errorOf, expectStatus, expectThat, list, submission, submit, transition } from "../../driver.js";
import type { Property } from "../../property.js";
import { basic, type Session } from "../../session.js";
import { erasesRecords, errorCodeFor, operations, type Operation as OperationInfo, type SpecNode } from "@lrg/spec";

/** A request of an operation built from the spec's examples (path parameters and the first body example). */
export function exampleRequest(operation: OperationInfo): {
  path: string;
  body: unknown;
  headers: Record<string, string>;
} {
  const headers: Record<string, string> = {};
  let path = operation.path;
  for (const parameter of operation.parameters) {
    const example = parameter["example"] ?? (parameter["schema"] as SpecNode | undefined)?.["example"];
    if (parameter["in"] === "path")
      path = path.replace(`{${String(parameter["name"])}}`, encodeURIComponent(String(example)));
    if (parameter["in"] === "header" && parameter["required"] === true)
      headers[String(parameter["name"]).toLowerCase()] = `conformance-${randomUUID()}`;
  }
  const media = (
    (operation.operation["requestBody"] as SpecNode | undefined)?.["content"] as Record<string, SpecNode> | undefined
  )?.["application/json"];
  const body = Object.values((media?.["examples"] ?? {}) as Record<string, { value: unknown }>)[0]?.value;
  return { path, body, headers };
}

const basicOperations = operations.filter((o) => o.security === "basic");
// Not an operation that erases records: one accepted by mistake would erase the records of every property.
const bearerOperations = operations.filter((o) => o.security === "bearer" && !erasesRecords(o));
/** Counterexamples name the operation only. */
const named = (list: OperationInfo[]) =>
  fc.constantFrom(...list.map((o) => o.operationId)).map(
    (id) => operations.find((o) => o.operationId === id) as OperationInfo,
    (o) => (o as OperationInfo).operationId,
  );
/** Title enquiries need mutual TLS and Basic together: a mock that cannot check the first lets such requests through. */
const withMutualTls = (o: OperationInfo) =>
  ((o.operation["security"] ?? []) as Record<string, unknown>[]).some((r) => "mutualTLS" in r);

type Credential = { kind: "none" } | { kind: "header"; value: string };

/** Credentials that must be refused: absent, not Basic, malformed, or naming a user that does not exist. */
const refusedCredentials = (semantics: boolean): fc.Arbitrary<Credential> =>
  fc.oneof(
    fc.constant<Credential>({ kind: "none" }),
    ...(semantics
      ? [
          fc.constantFrom<Credential>(
            { kind: "header", value: "Basic" },
            { kind: "header", value: "Basic !!!" },
            { kind: "header", value: `Basic ${Buffer.from("no-colon").toString("base64")}` },
            { kind: "header", value: "Bearer abc" },
          ),
          fc
            .tuple(fc.stringMatching(/^[a-z0-9-]{1,20}$/), fc.string({ minLength: 1, maxLength: 20 }))
            .map(([username, password]): Credential => ({
              kind: "header",
              value: basic({ username: `nobody-${username}`, password }),
            })),
        ]
      : []),
  );

/** Times a login refused by a failed-login budget that other runs spent is sent again (after its Retry-After). */
const SHARED_BUDGET_RETRIES = 10;

async function send(session: Session, operation: OperationInfo, authorization: string | undefined): Promise<number> {
  const request = exampleRequest(operation);
  const options = { ...(request.body !== undefined ? { json: request.body } : {}), headers: request.headers };
  const ask = () =>
    session.call(
      operation.method.toUpperCase(),
      request.path,
      authorization === undefined ? { ...options, as: null } : { ...options, authorization },
    );
  let answer = await ask();
  // Runs sharing a gateway from one address share its failed-login budget (x-lrg-failed-login-limit), which refills
  // by wall-clock time there (only an exclusive session moves the global clock): wait as Retry-After says. An
  // exclusive session spends the budget alone, so its 429 stays a failure.
  for (
    let retry = 0;
    retry < SHARED_BUDGET_RETRIES &&
    !session.exclusive &&
    answer.status === 429 &&
    errorOf(answer).code === errorCodeFor(operation, "429-02");
    retry += 1
  ) {
    await sleep(Number(answer.headers["retry-after"] ?? 1) * 1000);
    answer = await ask();
  }
  // The registry's code for 401 where the operation answers in the registry's envelope (BG40004 on a title enquiry).
  if (answer.status === 401)
    expectThat(
      errorOf(answer).code === errorCodeFor(operation, "401-01") || session.target === "mock",
      `problem ${answer.text}`,
    );
  return answer.status;
}

const missingCredentials: Property = {
  id: "auth.refused-credentials",
  rows: ["R105", "R106", "R037"],
  title:
    "every operation with HTTP Basic answers 401 (401-01, or BG40004 in the registry's envelope on a title enquiry) to missing, malformed or unknown credentials, before it looks at the request",
  requires: [],
  runs: 30,
  async check(context) {
    const { session } = context;
    // Observing a remote target: send only what reads. Prism does not check a requirement that includes mutual TLS.
    const candidates = (
      session.has("writes") ? basicOperations : basicOperations.filter((o) => o.method === "GET")
    ).filter((o) => session.has("semantics") || !withMutualTls(o));
    await context.assert(
      fc.asyncProperty(
        named(candidates),
        refusedCredentials(session.has("semantics")),
        async (operation, credential) => {
          const status = await send(session, operation, credential.kind === "none" ? undefined : credential.value);
          expectThat(
            status === 401,
            `${operation.operationId} with ${credential.kind === "none" ? "no credentials" : credential.value} answered ${status}`,
          );
        },
      ),
    );
  },
};

const wrongPassword: Property = {
  id: "auth.wrong-password",
  rows: ["R105", "R106", "R107"],
  title: "the right username with a wrong password is refused with 401 on every operation with HTTP Basic",
  // Failed logins can count towards locking a real user out: not on a remote environment.
  requires: ["semantics", "writes"],
  runs: 12,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        named(basicOperations),
        fc.string({ minLength: 1, maxLength: 30 }),
        async (operation, password) => {
          fc.pre(password !== session.credentials.password);
          const status = await send(session, operation, basic({ username: session.credentials.username, password }));
          expectThat(status === 401, `${operation.operationId} with a wrong password answered ${status}`);
        },
      ),
    );
  },
};

const sandboxToken: Property = {
  id: "auth.sandbox-token",
  rows: [],
  title: "every operation of the control plane answers 401 without its bearer token or with another",
  requires: ["control-plane"],
  runs: 12,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        named(bearerOperations),
        fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), { nil: undefined }),
        async (operation, token) => {
          const request = exampleRequest(operation);
          const answer = await session.call(operation.method.toUpperCase(), request.path, {
            ...(request.body !== undefined ? { json: request.body } : {}),
            ...(token === undefined ? { as: null } : { authorization: `Bearer ${token}` }),
          });
          expectStatus(
            answer,
            401,
            `${operation.operationId} with ${token === undefined ? "no token" : "another token"}`,
          );
        },
      ),
    );
  },
};

const isolation: Property = {
  id: "auth.business-unit-isolation",
  rows: ["R090", "R107", "R085"],
  title:
    "one business unit never sees another's data: its lists omit them, acknowledging their ids finds nothing, their application information and documents answer 404",
  requires: ["control-plane"],
  runs: 8,
  async check(context) {
    const { session } = context;
    const owner = session.credentials;
    const other = await session.fixture("isolation-other-unit", () => session.newBusinessUnit());
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom("ACCEPTED_PRIORITY_PROTECTED", "VALIDATION_FAILED"),
        fc.constantFrom("v0", "v1"),
        async (to, version) => {
          const id = await submit(session, owner, submission());
          const result = await transition(session, id, { to });
          const ids = result.notifications.map((n) => n.notification_id);
          for (const status of ["NEW", "ACKNOWLEDGED"]) {
            const seen = await list(session, version, other, { subject: id, status });
            expectThat(seen.length === 0, `another business unit lists ${seen.length} of its notifications`);
          }
          const everything = await list(session, version, other, { limit: 100 });
          expectThat(!everything.some((n) => n.subject === id), "another business unit's list holds its notifications");
          const answer = await acknowledge(session, "v0", other, ids);
          expectThat(
            answer.acknowledged.length === 0 && answer.not_found?.length === ids.length,
            `another business unit acknowledged ${answer.acknowledged.length} of its notifications`,
          );
          const information = await session.call("GET", `/v0/applications/${id}/information`, { as: other });
          expectStatus(information, 404, "another business unit's application information");
          const mine = await list(session, "v1", owner, { subject: id });
          expectThat(mine.length === ids.length, "the other unit's acknowledgement changed the owner's notifications");
          if (to === "ACCEPTED_PRIORITY_PROTECTED") {
            const despatched = await session.control<{ documents: { download_id: string }[] }>(
              "POST",
              `/sandbox/v1/applications/${id}/correspondence`,
              { documents: ["LTR"] },
              { status: 201 },
            );
            for (const document of despatched.documents) {
              expectStatus(
                await session.call("GET", `/v1/documents/${document.download_id}`, { as: other }),
                404,
                "another business unit's document",
              );
            }
          }
        },
      ),
    );
  },
};

/** Authentication and isolation properties. */
export const credentialProperties: Property[] = [missingCredentials, wrongPassword, sandboxToken, isolation];
