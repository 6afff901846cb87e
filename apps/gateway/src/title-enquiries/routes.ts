import { rateLimits } from "@lrg/spec";
import type { components, RegistryOperations } from "../operation-types.js";
import { Problem } from "../problems.js";
import type { HandlerContext, RegistryHandlers } from "../routing.js";
import type { SandboxSettings } from "../registry/sandbox-state.js";
import type { TitleEnquiryDeps } from "./deps.js";
import { nextOpening, withinServiceHours } from "../registry/london-time.js";
import { OfficialSearchService } from "./official-search.js";
import { perMinute, TokenBuckets, type BucketLimit } from "./rate-limit.js";
import { findTitle, type RegisterTitle } from "../registry/register.js";

type Schemas = components["schemas"];
type TitleOperation =
  "officialSearchOfWhole" | "getPollRequest" | "getOfficialCopiesAvailability" | "getRegisteredProprietorNames";

/** The registry's rate limits of the title look-ups, as the spec states them (`x-lrg-rate-limit`). */
export const TITLE_RATE_LIMITS = {
  registeredProprietorNames: {
    ...perMinute(rateLimits.getRegisteredProprietorNames.requestsPerMinute),
    scope: rateLimits.getRegisteredProprietorNames.per,
  },
  officialCopiesAvailability: {
    ...perMinute(rateLimits.getOfficialCopiesAvailability.requestsPerMinute),
    scope: rateLimits.getOfficialCopiesAvailability.per,
  },
} as const satisfies Record<string, BucketLimit & { scope: "user" | "business-unit" }>;

/**
 * Whether registered proprietor names are closed at `nowMs` under these settings: outside the service hours while the
 * setting `service_hours` enforces them (answered 423, the registry's BG50003).
 */
export const proprietorNamesClosed = (settings: Pick<SandboxSettings, "service_hours">, nowMs: number): boolean =>
  settings.service_hours === "enforced" && !withinServiceHours(nowMs);

/** The title enquiry services: their handlers, and the forgetting of their rate-limit windows on a sandbox reset. */
export interface TitleEnquiries {
  handlers: RegistryHandlers<TitleOperation>;
  /** Clears what lives outside the store (the rate-limit windows); the store itself is cleared by `StoreLifecycle.reset`. */
  reset(): void;
}

/**
 * Handlers of the title enquiry services and the Poll Request Service: the official search of whole with priority
 * (`officialSearchOfWhole`), its deferred results (`getPollRequest`), official copy availability and registered
 * proprietor names, over the simulated register of `registry/data/register.json`.
 */
export function titleEnquiries(deps: TitleEnquiryDeps): TitleEnquiries {
  const searches = new OfficialSearchService(deps);
  const update = deps.storage.updateSetting.bind(deps.storage);
  const names = new TokenBuckets("registered_proprietor_names", TITLE_RATE_LIMITS.registeredProprietorNames, update);
  const availability = new TokenBuckets(
    "official_copies_availability",
    TITLE_RATE_LIMITS.officialCopiesAvailability,
    update,
  );
  const baseUrl = ({ request }: HandlerContext<RegistryOperations["officialSearchOfWhole"]>) =>
    deps.publicUrl ?? `${request.protocol}://${request.host}`;

  const tooManyRequests = (retryAfterSeconds: number) =>
    new Problem("429-01", `rate limit exceeded; retry after ${retryAfterSeconds} seconds`, {
      rule: "BG40006",
      headers: { "retry-after": String(retryAfterSeconds) },
    });

  /**
   * Takes a request's tokens from the caller's bucket: 429 (the registry's BG40006) when it is short of them, or when
   * the `titleLookUp` hook refuses it (the same 429: the software cannot tell them apart).
   */
  const throttle = async (buckets: TokenBuckets, caller: string, businessUnitId: string) => {
    const nowMs = deps.clock.nowMs(businessUnitId);
    const lookUp = deps.hooks?.titleLookUp;
    const held = lookUp ? await lookUp(businessUnitId, nowMs) : null;
    if (held !== null) throw tooManyRequests(held);
    const decision = await buckets.take(caller, nowMs);
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
    return decision;
  };

  /** The title of the request's path: 404 when it is not on the register. */
  const titleOf = ({
    params,
  }: HandlerContext<
    RegistryOperations["getOfficialCopiesAvailability" | "getRegisteredProprietorNames"]
  >): RegisterTitle => {
    const titleNumber = params.title_number;
    const title = findTitle(titleNumber);
    if (!title) throw new Problem("404-01", `no title ${titleNumber} on the register`);
    return title;
  };

  return {
    // The buckets are in the store, which the reset empties.
    reset: () => undefined,
    handlers: {
      officialSearchOfWhole: async (context) => searches.search(context.principal, context.body, baseUrl(context)),
      getPollRequest: async ({ principal, params }) => searches.poll(principal, params.message_id),
      getOfficialCopiesAvailability: async (context) => {
        // Available around the clock; limited per business unit, and the bucket's state is in every 200.
        const unit = context.principal.businessUnitId;
        const decision = await throttle(availability, unit, unit);
        const title = titleOf(context);
        const body: Schemas["OfficialCopiesAvailability"] = {
          data: { title_number: title.title_number, ...title.official_copies },
        };
        const { burstCapacity, replenishRate, requestedTokens } = availability.limit;
        const headers = {
          "x-ratelimit-burst-capacity": String(burstCapacity),
          "x-ratelimit-replenish-rate": String(replenishRate),
          "x-ratelimit-requested-tokens": String(requestedTokens),
          "x-ratelimit-remaining": String(decision.remaining),
        };
        return { status: 200, body, headers };
      },
      getRegisteredProprietorNames: async (context) => {
        const unit = context.principal.businessUnitId;
        await throttle(names, `${unit}\n${context.principal.username}`, unit);
        const nowMs = deps.clock.nowMs(unit);
        if (proprietorNamesClosed(deps.settings(unit), nowMs)) {
          const seconds = Math.max(1, Math.ceil((nextOpening(nowMs) - nowMs) / 1000));
          throw new Problem(
            "423-01",
            "registered proprietor names are served from 06:30 to 23:00 London time; retry when the service hours resume",
            {
              rule: "BG50003",
              headers: { "retry-after": String(seconds) },
            },
          );
        }
        const title = titleOf(context);
        const body: Schemas["ProprietorNames"] = {
          data: { title_number: title.title_number, ...title.proprietor_names, proprietors: title.proprietors },
        };
        return { status: 200, body };
      },
    },
  };
}
