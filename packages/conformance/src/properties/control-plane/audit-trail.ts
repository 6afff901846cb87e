// The control plane's audit trail (spec/paths/sandbox/audit.yaml): every attempt at a change is recorded with who
// made it, what it asked and how it was answered, a refused one too; a read of the trail with a bad query is refused.
import fc from "fast-check";
import { operationFor, type Operation } from "@lrg/spec";
import { errorOf, expectStatus, expectThat, sameJson } from "../../driver.js";
import type { Property } from "../../property.js";
import type { Answer, Session } from "../../session.js";

interface AuditEntry {
  sequence: number;
  actor: { kind: string; business_unit_id: string | null };
  operation_id: string;
  status: number;
  problem_code: string | null;
  request_id: string;
  request_body: unknown;
}

/** Advancing the clock, as the spec holds it at its address: the change this property makes. */
const advancing = operationFor("POST", "/sandbox/v1/clock/advance") as Operation;

/**
 * The entry of an answered request, found by its X-Request-Id among the operation's entries of the last ten minutes
 * (other runs may share the gateway, so the newest entry is not necessarily this one).
 */
async function entryOf(session: Session, operationId: string, answer: Answer): Promise<AuditEntry | undefined> {
  const requestId = answer.headers["x-request-id"];
  const since = encodeURIComponent(new Date(Date.now() - 600_000).toISOString());
  let after = 0;
  for (;;) {
    const page = await session.control<{ data: AuditEntry[] }>(
      "GET",
      `/sandbox/v1/audit?operation_id=${operationId}&recorded_after=${since}&after=${after}`,
    );
    const found = page.data.find((entry) => entry.request_id === requestId);
    const last = page.data.at(-1);
    if (found || !last || page.data.length < 100) return found;
    after = last.sequence;
  }
}

const auditTrail: Property = {
  id: "control-plane.audit-trail",
  rows: [],
  title:
    "every control-plane change is in the audit trail with its actor, request and result, a refused one with its problem code; a bad audit query is refused with 400",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    // A change that changes nothing (zero seconds), or one the schema refuses (a negative or fractional count).
    const seconds = fc.oneof(fc.constant(0), fc.integer({ min: -100_000, max: -1 }), fc.constantFrom(0.5, 1.25));
    await context.assert(
      fc.asyncProperty(seconds, async (value) => {
        const answer = await session.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: value });
        const valid = value === 0;
        expectStatus(answer, valid ? 200 : 400, `advancing the clock ${value} s`);
        const entry = await entryOf(session, advancing.operationId, answer);
        expectThat(entry !== undefined, `no audit entry for request ${String(answer.headers["x-request-id"])}`);
        expectThat(
          entry.status === answer.status && entry.problem_code === (valid ? null : (errorOf(answer).code ?? null)),
          `the entry says ${entry.status} ${String(entry.problem_code)}; the answer was ${answer.status} ${answer.text}`,
        );
        // The suite acts through its own unit's token: the entry names that unit.
        expectThat(
          entry.actor.kind === "unit" && entry.actor.business_unit_id === session.credentials.business_unit_id,
          `the entry of a request with the unit token names ${JSON.stringify(entry.actor)}`,
        );
        expectThat(
          sameJson(entry.request_body, { seconds: value }),
          `the entry keeps ${JSON.stringify(entry.request_body)} of the request { seconds: ${value} }`,
        );
      }),
      undefined,
      [[0], [-1]],
    );
    await context.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom("limit=0", "limit=101", "after=-1", "actor=robot", "business_unit_id=x"),
          fc.integer({ min: 101, max: 100_000 }).map((limit) => `limit=${limit}`),
        ),
        async (query) => {
          const answer = await session.sandbox("GET", `/sandbox/v1/audit?${query}`);
          expectStatus(answer, 400, `the audit trail read with ?${query}`);
          expectThat(errorOf(answer).code === "400-02", `?${query} answered ${answer.text}, not a 400-02 problem`);
        },
      ),
    );
  },
};

/** Properties of the control plane's audit trail. */
export const auditTrailProperties: Property[] = [auditTrail];
