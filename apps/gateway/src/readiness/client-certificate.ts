import { isoMillis } from "../clock.js";
import { CLIENT_CERTIFICATE_REQUIRED } from "../policies.js";
import type { ReadinessObservationRow } from "./store/port.js";
import { firstHundred, type Judgement, type UnitState } from "./check.js";

/**
 * The judgement of a title check (`rate-limits`, `deferred-official-search`) whose software sent one of its title
 * enquiries (`isEnquiry`) without a client certificate: refused 403 BG40005, it never met the check's stimulus the
 * way the registry's services let it, so the check fails, with the refused requests as evidence. Undefined when none
 * was refused so.
 */
export function refusedForClientCertificate(
  observations: readonly ReadinessObservationRow[],
  isEnquiry: (observation: ReadinessObservationRow) => boolean,
): Judgement | undefined {
  const refused = observations.filter(
    (observation) =>
      isEnquiry(observation) && observation.status === 403 && observation.answerCode === CLIENT_CERTIFICATE_REQUIRED,
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

/** What a title check's instructions say of mutual TLS, by the unit's sandbox setting `require_client_certificate`. */
export function clientCertificateNeed({ settings }: UnitState): string {
  return settings.require_client_certificate
    ? "This unit's sandbox setting require_client_certificate is true, as the registry has it: send these title " +
        "enquiries over HTTPS with a client certificate signed by the gateway's client CA (mutual TLS; npm start " +
        `prints its demo client certificate); one refused 403 ${CLIENT_CERTIFICATE_REQUIRED} fails the check.`
    : "This unit's sandbox setting require_client_certificate is false: these title enquiries are answered over plain " +
        "HTTP too (the registry's need mutual TLS).";
}
