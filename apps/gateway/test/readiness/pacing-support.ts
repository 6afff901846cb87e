// What the unit's software does in the tests of the pacing checks (rate-limits, faults-and-cadence,
// deferred-official-search): title look-ups, official searches and polls, and waiting a Retry-After the way the run
// judges it, by moving the unit's own clock on rather than sleeping.
import { expect } from "vitest";
import type { Answer } from "../support/gateway.js";
import { IN_SERVICE_HOURS, searchRequest } from "../title-enquiries/support.js";
import { advance, gateway, type Unit } from "./support.js";

/**
 * Lets the unit's software make title enquiries over plain HTTP (the registry's need a client certificate), with the
 * unit's own clock in the service hours, so that a search is not deferred to the next morning by the hour alone.
 * Call it before starting the run: the run's deadline is on that clock.
 */
export async function allowTitleEnquiries(unit: Unit): Promise<void> {
  const control = gateway().control;
  expect(
    (await control(unit.sandbox_token, "PUT", "/sandbox/v1/settings", { require_client_certificate: false })).status,
  ).toBe(200);
  expect((await control(unit.sandbox_token, "PUT", "/sandbox/v1/clock", { now: IN_SERVICE_HOURS })).status).toBe(200);
}

/** The rate-limited look-ups of a title, by what they ask. */
export const LOOK_UPS = {
  names: "/s2/v1/titles/ZZ100001/registered-proprietor-names",
  availability: "/s1/v1/titles/ZZ100001/official-copies/availability",
} as const;

/** Looks a title up as the unit's software. */
export function lookUp(unit: Unit, what: keyof typeof LOOK_UPS = "names"): Promise<Answer> {
  return gateway().call("GET", LOOK_UPS[what], { as: unit });
}

/** The seconds of an answer's Retry-After (which it must have). */
export function retryAfter(answer: Answer): number {
  const value = answer.headers.get("retry-after");
  expect(value, `status ${answer.status} without Retry-After`).toMatch(/^\d+$/);
  return Number(value);
}

/** Waits an answer's Retry-After as correct software does, on the unit's clock. */
export async function waitRetryAfter(unit: Unit, answer: Answer): Promise<void> {
  await advance(unit, retryAfter(answer));
}

/** Makes an official search of ZZ100001 as the unit's software; answers the answer and its message_id. */
export async function search(unit: Unit): Promise<{ answer: Answer; messageId: string }> {
  const body = searchRequest();
  const answer = await gateway().call("POST", "/api/v1/official-searches-of-whole", { as: unit, body });
  return { answer, messageId: String(body["message_id"]) };
}

/** Polls the result of a search as the unit's software. */
export function poll(unit: Unit, messageId: string): Promise<Answer> {
  return gateway().call("GET", `/api/v1/poll-requests/${messageId}`, { as: unit });
}

/**
 * Correct software's title enquiries: a look-up that waits out a 429 and looks up again, and an official search whose
 * deferred result is fetched once due (after the 202's Retry-After) and read.
 */
export async function correctTitleEnquiries(unit: Unit): Promise<void> {
  const looked = await lookUp(unit);
  if (looked.status === 429) {
    await waitRetryAfter(unit, looked);
    expect((await lookUp(unit)).status).toBe(200);
  } else expect(looked.status).toBe(200);
  const { answer, messageId } = await search(unit);
  if (answer.status === 202) {
    await waitRetryAfter(unit, answer);
    expect((await poll(unit, messageId)).status).toBe(200);
  } else expect(answer.status).toBe(201);
}
