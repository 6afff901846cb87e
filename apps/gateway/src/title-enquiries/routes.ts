import type { components } from "../generated/openapi.js";
import { Problem } from "../problems.js";
import type { Handler, HandlerContext } from "../routing.js";
import type { TitleEnquiryDeps } from "./deps.js";
import { OfficialSearchService } from "./official-search.js";
import { TokenBuckets } from "./rate-limit.js";
import { findTitle, type RegisterTitle } from "./register.js";
import { closeOfficialSearchStore } from "./store.js";

type Schemas = components["schemas"];

/** The token bucket of the official copy availability and proprietor name services, per user. */
export const TITLE_RATE_LIMIT = { burstCapacity: 50, replenishPerSecond: 10 } as const;

/**
 * Handlers of the title enquiry services and the Poll Request Service: the official search of whole with priority
 * (`officialSearchOfWhole`), its deferred results (`getPollRequest`), official copy availability and registered
 * proprietor names, over the simulated register of `data/register.json`.
 */
export function titleEnquiryHandlers(deps: TitleEnquiryDeps): Record<string, Handler> {
  const searches = new OfficialSearchService(deps);
  const buckets = new TokenBuckets(TITLE_RATE_LIMIT.burstCapacity, TITLE_RATE_LIMIT.replenishPerSecond);
  const baseUrl = ({ request }: HandlerContext) => deps.publicUrl ?? `${request.protocol}://${request.host}`;


  /** Takes a token from the caller's bucket (429 when empty) and looks the title up (404 when not on the register). */
  const titleFor = (context: HandlerContext): { title: RegisterTitle; headers: Record<string, string> } => {
    const { principal, params } = context;
    const decision = buckets.take(`${principal.businessUnitId}\n${principal.username}`, deps.clock.nowMs());
    if (!decision.allowed) {
      throw new Problem("429-01", `rate limit exceeded; retry after ${decision.retryAfterSeconds} seconds`, {
        headers: { "retry-after": String(decision.retryAfterSeconds) },
      });
    }
    const titleNumber = String(params["title_number"]);
    const title = findTitle(titleNumber);
    if (!title) throw new Problem("404-01", `no title ${titleNumber} on the register`);
    return {
      title,
      headers: {
        "x-ratelimit-burst-capacity": String(buckets.capacity),
        "x-ratelimit-replenish-rate": String(buckets.replenishPerSecond),
        "x-ratelimit-requested-tokens": "1",
        "x-ratelimit-remaining": String(decision.remaining),
      },
    };
  };

  return {
    officialSearchOfWhole: async (context) => searches.search(context.principal, context.body as Schemas["OfficialSearchRequest"], baseUrl(context)),
    getPollRequest: async ({ principal, params }) => {
      return searches.poll(principal, String(params["message_id"]));
    },
    getOfficialCopiesAvailability: async (context) => {
      const { title, headers } = titleFor(context);
      const body: Schemas["OfficialCopiesAvailability"] = { data: { title_number: title.title_number, ...title.official_copies } };
      return { status: 200, body, headers };
    },
    getRegisteredProprietorNames: async (context) => {
      const { title, headers } = titleFor(context);
      const body: Schemas["ProprietorNames"] = { data: { title_number: title.title_number, ...title.proprietor_names, proprietors: title.proprietors } };
      return { status: 200, body, headers };
    },
  };
}

/** Closes the title enquiry services' own store of a data directory; the gateway calls it when it closes. */
export function closeTitleEnquiries(dataDir: string): void {
  closeOfficialSearchStore(dataDir);
}
