// An application that ended in SYSTEM_ERROR releases its Idempotency-Key: the client's retry creates a new
// application; in any other status the key replays or is refused.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  applicationRequestIdOf,
  errorOf,
  expectStatus,
  expectThat,
  list,
  sendSubmission,
  submission,
  submit,
  transition,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Credentials, Session } from "../../session.js";

const statusOf = async (session: Session, as: Credentials, id: string) => {
  const answer = await session.call("GET", `/v0/applications/${id}/information`, { as });
  expectStatus(answer, 200, "application information");
  return (answer.body as { data: { status: string } }).data.status;
};

const retryAfterSystemError: Property = {
  id: "applications.retry-after-system-error",
  rows: ["R134", "R045", "R114"],
  title:
    "an application that ended in SYSTEM_ERROR releases its Idempotency-Key: the same key (same body or another) creates a new application; in any other status the key replays (same body) or is refused with 409 (another body)",
  requires: ["control-plane"],
  runs: 12,
  async check(context) {
    const { session } = context;
    // Scheduled through the unit's own token: naming the unit, naming none (its own, for a unit token), or naming
    // another unit (not found: nothing scheduled, the submission stays VALIDATING).
    const outcomes = fc.constantFrom(
      "scheduled",
      "scheduled-unnamed",
      "scheduled-other-unit",
      "transition",
      "VALIDATING",
      "VALIDATION_FAILED",
      "ACCEPTED_PRIORITY_PROTECTED",
    );
    await context.assert(
      fc.asyncProperty(outcomes, fc.boolean(), async (outcome, changed) => {
        const credentials = await session.newBusinessUnit();
        const key = `conformance-${randomUUID()}`;
        const body = submission();
        if (outcome.startsWith("scheduled")) {
          const named =
            outcome === "scheduled"
              ? credentials.business_unit_id
              : outcome === "scheduled-other-unit"
                ? session.credentials.business_unit_id
                : undefined;
          const answer = await session.sandbox(
            "POST",
            "/sandbox/v1/system-errors",
            named === undefined ? {} : { business_unit_id: named },
            credentials,
          );
          if (outcome === "scheduled-other-unit") {
            expectStatus(answer, 404, "system errors for another business unit with a unit token");
            expectThat(errorOf(answer).code === "404-01", `problem code ${answer.text}`);
          } else {
            expectStatus(answer, 200, `system errors (${outcome})`);
            const scheduled = answer.body as { business_unit_id: string | null; pending: number };
            expectThat(scheduled.pending >= 1, `${scheduled.pending} system errors pending after scheduling one`);
            expectThat(
              scheduled.business_unit_id === credentials.business_unit_id,
              `a unit token scheduled system errors for ${String(scheduled.business_unit_id)}, not its own unit`,
            );
          }
        }
        const first = await submit(session, credentials, body, key);
        if (outcome === "transition") await transition(session, first, { to: "SYSTEM_ERROR" }, credentials);
        else if (outcome === "VALIDATION_FAILED" || outcome === "ACCEPTED_PRIORITY_PROTECTED")
          await transition(session, first, { to: outcome }, credentials);
        const failed = outcome === "scheduled" || outcome === "scheduled-unnamed" || outcome === "transition";
        const expected = failed ? "SYSTEM_ERROR" : outcome === "scheduled-other-unit" ? "VALIDATING" : outcome;
        expectThat(
          (await statusOf(session, credentials, first)) === expected,
          `the first application is not ${expected}`,
        );
        if (failed)
          expectThat(
            (await list(session, "v1", credentials, { subject: first, notification_type: "application.error" }))
              .length === 1,
            "no application.error notification",
          );

        const again = await sendSubmission(
          session,
          credentials,
          changed ? { ...body, customer_reference: "CONFORMANCE-2" } : body,
          key,
        );
        if (!failed && changed) {
          expectStatus(again, 409, `the same key with another body while ${outcome}`);
          expectThat(errorOf(again).code === "409-01", `problem code ${again.text}`);
          return;
        }
        expectStatus(again, 202, `the same key again after ${outcome}`);
        const id = applicationRequestIdOf(again);
        if (!failed) {
          expectThat(id === first, `the same key and body while ${outcome} answered another application`);
          return;
        }
        expectThat(id !== first, "the retry after SYSTEM_ERROR replayed the failed application");
        expectThat(
          (await statusOf(session, credentials, id)) === "VALIDATING",
          "the retry is not a new application in VALIDATING",
        );
        expectThat((await statusOf(session, credentials, first)) === "SYSTEM_ERROR", "the failed application changed");
        const replay = await submit(
          session,
          credentials,
          changed ? { ...body, customer_reference: "CONFORMANCE-2" } : body,
          key,
        );
        expectThat(replay === id, "the released key does not name the new application");
      }),
    );
  },
};

/** Properties of the retry after SYSTEM_ERROR. */
export const systemErrorProperties: Property[] = [retryAfterSystemError];
