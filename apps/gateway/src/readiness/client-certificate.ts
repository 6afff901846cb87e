import { isoMillis } from "../clock.js";
import { CLIENT_CERTIFICATE_REQUIRED } from "../policies.js";
import type { ReadinessObservationRow } from "../storage/storage.js";
import { firstHundred, type Judgement } from "./check.js";

/**
 * The judgement of a title check (`rate-limits`, `deferred-official-search`) whose software sent one of its title
 * enquiries (`operationIds`) without a client certificate: refused 403 BG40005, it never met the check's stimulus the
 * way the registry's services let it, so the check fails, with the refused requests as evidence. Undefined when none
 * was refused so.
 */
export function refusedForClientCertificate(
  observations: readonly ReadinessObservationRow[],
  operationIds: ReadonlySet<string>,
): Judgement | undefined {
  const refused = observations.filter(
    (observation) =>
      operationIds.has(observation.operationId) &&
      observation.status === 403 &&
      observation.answerCode === CLIENT_CERTIFICATE_REQUIRED,
  );
  const first = refused[0];
  if (!first) return undefined;
  const more = refused.length - 1;
  return {
    verdict: "failed",
    found:
      `Your software did not present its client certificate (403 ${CLIENT_CERTIFICATE_REQUIRED}, mutual TLS): ` +
      `${first.operationId} was refused so at ${isoMillis(first.clockMs)}` +
      `${more > 0 ? `, and ${more} more request${more === 1 ? "" : "s"} after it` : ""}.`,
    requests: firstHundred(refused),
  };
}
