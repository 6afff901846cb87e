import { setTimeout as sleep } from "node:timers/promises";
import type { TLSSocket } from "node:tls";
import type { FastifyRequest } from "fastify";
import type { Principal } from "./auth/basic-auth.js";
import { Problem } from "./problems.js";
import type { SandboxSettings } from "./registry/sandbox-state.js";

/**
 * A policy run before the handler of an operation, once the caller is authenticated (undefined for an operation
 * without credentials: a signed address): it throws a Problem to refuse the request.
 */
export type PolicyHook = (request: FastifyRequest, principal: Principal | undefined) => Promise<void>;

/** The sandbox settings in force for a business unit (its own where it set them); the global ones for null. */
export type SettingsOf = (businessUnitId: string | null) => SandboxSettings;

const unitOf = (principal: Principal | undefined): string | null => principal?.businessUnitId ?? null;

/** The registry's code of a title enquiry refused for want of a client certificate (403, `rule` of 403-03). */
export const CLIENT_CERTIFICATE_REQUIRED = "BG40005";

/**
 * Mutual TLS, as the registry has it for its title enquiries: a certificate that the listener's client CA signed,
 * unless the sandbox setting lets title enquiries through without one (plain HTTP included).
 */
export function requireClientCertificate(settings: SettingsOf): PolicyHook {
  return async (request, principal) => {
    if (!settings(unitOf(principal)).require_client_certificate) return;
    const socket = request.socket as Partial<TLSSocket>;
    const certified =
      socket.encrypted === true &&
      socket.authorized === true &&
      Object.keys(socket.getPeerCertificate?.() ?? {}).length > 0;
    if (!certified) {
      throw new Problem(
        "403-03",
        "title enquiries need a client certificate signed by the gateway's client CA (mutual TLS)",
        { rule: CLIENT_CERTIFICATE_REQUIRED },
      );
    }
  };
}

/** The business unit whose document a credential-less request's signed address names, if any. */
export type AddressOwner = (request: FastifyRequest) => Promise<string | undefined>;

/**
 * The sandbox's latency and fault injection (settings `latency_ms` and `error_rate`), by the settings of the caller's
 * business unit, or of the unit whose document a signed address names.
 */
export function injectFaults(settings: SettingsOf, addressOwner: AddressOwner): PolicyHook {
  return async (request, principal) => {
    const unit = principal ? unitOf(principal) : ((await addressOwner(request)) ?? null);
    const { latency_ms: latency, error_rate: errorRate } = settings(unit);
    if (latency > 0) await sleep(latency);
    if (errorRate > 0 && Math.random() < errorRate) {
      throw new Problem("503-01", "the service is unavailable (sandbox fault injection); retry later", {
        headers: { "retry-after": "1" },
      });
    }
  };
}

/**
 * The policies of the registry document's operations, by the spec tag of the operation: the one place they are
 * declared. Every tag of the document must appear (the registrar refuses to start otherwise), so a new service
 * decides its policies when it is added. Fault injection applies to the lifecycle, notification and document
 * services; the title enquiries have mutual TLS instead.
 */
export function registryPolicies(settings: SettingsOf, addressOwner: AddressOwner): Record<string, PolicyHook[]> {
  const faults = injectFaults(settings, addressOwner);
  return {
    "title-enquiries": [requireClientCertificate(settings)],
    applications: [faults],
    notifications: [faults],
    documents: [faults],
  };
}
