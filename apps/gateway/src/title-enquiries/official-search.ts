import { createHash, randomInt, randomUUID } from "node:crypto";
import type { Principal } from "../auth/basic-auth.js";
import { isoMillis } from "../clock.js";
import type { components, RegistryOperations } from "../operation-types.js";
import { Problem, schemaMismatch } from "../problems.js";
import type { Answer } from "../routing.js";
import { applyBusinessRules, isRefusal, type Clearance } from "./business-rules.js";
import { issueCertificate } from "./certificate.js";
import type { TitleEnquiryDeps } from "./deps.js";
import { dateInWords, londonDate, minutes, nextOpening, withinServiceHours } from "../registry/london-time.js";
import { findTitle, type RegisterTitle } from "../registry/register.js";
import { priorityExpiryDate } from "../registry/working-days.js";
import type { OfficialSearchRow } from "../storage/ports/title-enquiries.js";

type Schemas = components["schemas"];
type SearchRequest = Schemas["OfficialSearchRequest"];
type SearchResult = Schemas["OfficialSearchResult"];
type SearchDeferred = Schemas["OfficialSearchDeferred"];
type PendingSearch = Schemas["OfficialSearchData"]["pending_official_searches_of_whole"][number];

/** How long the registry takes over a search that it processes by hand. */
export const MANUAL_PROCESSING_MS = minutes(15);
const MAX_PENDING_SEARCHES = 50;
const MAX_RETRY_AFTER_SECONDS = 86_400;
const REFERENCE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** The `Retry-After` of a deferred search due at `readyMs`, asked at `nowMs`: the whole seconds until then (1 to a day). */
export const retryAfterSeconds = (readyMs: number, nowMs: number): number =>
  Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((readyMs - nowMs) / 1000)));

/** The Poll Request Service address of a search. */
export const pollAddress = (messageId: string) => `/api/v1/poll-requests/${messageId}`;

const randomCode = (length: number) =>
  Array.from({ length }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join("");

/** The customer account a business unit's fees are charged to: a stable seven-digit key number. */
const keyNumberOf = (businessUnitId: string) =>
  String(parseInt(createHash("sha256").update(businessUnitId).digest("hex").slice(0, 12), 16) % 10_000_000).padStart(
    7,
    "0",
  );

/** When a search is answered and from when it has priority. */
export interface Timing {
  receivedMs: number;
  readyMs: number;
  certificateMs: number;
  deferral: { code: "BG20001" | "BG20002"; message: string } | undefined;
  acknowledgement: string;
}

/** A search the registry does not answer at once. */
export type DeferredTiming = Timing & { deferral: NonNullable<Timing["deferral"]> };

/** A search the registry processes by hand: priority from its receipt, the result 15 minutes later. */
function manualProcessing(receivedMs: number): DeferredTiming {
  return {
    receivedMs,
    readyMs: receivedMs + MANUAL_PROCESSING_MS,
    certificateMs: receivedMs,
    deferral: {
      code: "BG20001",
      message: "The search needs manual processing by the registry. Poll for the result.",
    },
    acknowledgement: "Official search of whole with priority made after manual processing.",
  };
}

/**
 * How a search received at `receivedMs` is deferred when it is not answered at once: out of the service hours until
 * they resume (BG20002), else by hand, 15 minutes (BG20001). A search the `officialSearch` hook defers is deferred so, whatever the title.
 */
export function deferredTiming(receivedMs: number): DeferredTiming {
  if (!withinServiceHours(receivedMs)) {
    const opening = nextOpening(receivedMs);
    return {
      receivedMs,
      readyMs: opening,
      certificateMs: opening,
      deferral: {
        code: "BG20002",
        message:
          "The search was received outside service hours (06:30 to 23:00 London time) and will be processed when they resume. Poll for the result.",
      },
      acknowledgement: "Official search of whole with priority made when the service hours resumed.",
    };
  }
  return manualProcessing(receivedMs);
}

/** Out of hours waits for the next opening; a manual-processing title takes 15 minutes; anything else is answered at once. */
function timingOf(title: RegisterTitle, receivedMs: number): Timing {
  if (!withinServiceHours(receivedMs) || title.search.manual_processing) return deferredTiming(receivedMs);
  return {
    receivedMs,
    readyMs: receivedMs,
    certificateMs: receivedMs,
    deferral: undefined,
    acknowledgement: "Official search of whole with priority made.",
  };
}

/**
 * The official search of whole with priority and its Poll Request Service, over the simulated register. Searches
 * answered 201 or 202 are kept per business unit and user under their `message_id`; refused ones leave nothing.
 */
export class OfficialSearchService {
  readonly #deps: TitleEnquiryDeps;
  /** Searches being made right now, so that two concurrent requests with one `message_id` cannot both pass. */
  readonly #inFlight = new Set<string>();

  constructor(deps: TitleEnquiryDeps) {
    this.#deps = deps;
  }

  /** Makes a search: 201 with the result, 202 when deferred; throws the 400, 409 and 422 problems of the spec. */
  async search(
    principal: Principal,
    request: SearchRequest,
    baseUrl: string,
  ): Promise<Answer<RegistryOperations["officialSearchOfWhole"], 201 | 202>> {
    const titleNumber = request.title_number.toUpperCase();
    const title = findTitle(titleNumber);
    const details = request.official_search_of_whole_with_priority;
    if (title && !title.search.first_registration && details.search_from_date === undefined) {
      throw schemaMismatch([
        {
          type: "required",
          detail: `search_from_date is required for a search of the registered title ${titleNumber}; omit it only for a pending first registration`,
          pointer: "/body/official_search_of_whole_with_priority/search_from_date",
        },
      ]);
    }

    const key = `${principal.businessUnitId}\n${principal.username}\n${request.message_id}`;
    const reused = () =>
      new Problem(
        "409-02",
        `message_id ${request.message_id} was already submitted; fetch its result from ${pollAddress(request.message_id)}`,
      );
    if (this.#inFlight.has(key)) throw reused();
    this.#inFlight.add(key);
    try {
      if (await this.#deps.storage.findOfficialSearch(principal.businessUnitId, principal.username, request.message_id))
        throw reused();
      const nowMs = this.#deps.clock.nowMs(principal.businessUnitId);
      const outcome = applyBusinessRules(title, titleNumber, request, londonDate(nowMs));
      if (isRefusal(outcome)) throw new Problem("422-01", outcome.detail, { rule: outcome.rule });
      if (!title) throw new Error("unreachable: the rules refuse a title that is not on the register");
      const timing = await this.#timing(principal.businessUnitId, request.message_id, title, nowMs);
      const id = randomUUID();
      const result = await this.#result(principal, request, title, outcome, timing, id, baseUrl);
      const deferred: SearchDeferred | null = timing.deferral
        ? {
            data: {
              id,
              message_id: request.message_id,
              acknowledgement_message: timing.deferral.message,
              acknowledgement_code: timing.deferral.code,
              expected_response_at: isoMillis(timing.readyMs),
            },
          }
        : null;
      const stored = await this.#deps.storage.insertOfficialSearch({
        id,
        businessUnitId: principal.businessUnitId,
        username: principal.username,
        messageId: request.message_id,
        titleNumber,
        priorityType: details.priority_type,
        applicant: details.applicant_party,
        receivedMs: timing.receivedMs,
        readyMs: timing.readyMs,
        certificateMs: timing.certificateMs,
        priorityExpiryDate: result.data.official_search_data.priority_period_expiry_date,
        deferred,
        result,
      });
      if (!stored) throw reused(); // another gateway process sharing the store took it first
      const location = pollAddress(request.message_id);
      if (deferred)
        return {
          status: 202,
          body: deferred,
          headers: { location, "retry-after": String(this.#retryAfter(timing.readyMs, principal.businessUnitId)) },
        };
      return { status: 201, body: result, headers: { location } };
    } finally {
      this.#inFlight.delete(key);
    }
  }

  /**
   * When a search is answered: by its title and the hour, unless the `officialSearch` hook defers it: then as
   * `deferredTiming` defers it (one that would be answered at once is processed by hand).
   */
  async #timing(businessUnitId: string, messageId: string, title: RegisterTitle, nowMs: number): Promise<Timing> {
    const timing = timingOf(title, nowMs);
    const defers = this.#deps.hooks?.officialSearch;
    if (!defers) return timing;
    const deferred = deferredTiming(nowMs);
    const taken = await defers(businessUnitId, { messageId, readyMs: deferred.readyMs }, nowMs);
    return taken ? deferred : timing;
  }

  /** The Poll Request Service: 200 with the result once ready, 202 while pending, 404 for another user's or an unknown `message_id`. */
  async poll(
    principal: Principal,
    messageId: string,
  ): Promise<Answer<RegistryOperations["getPollRequest"], 200 | 202>> {
    const search = await this.#deps.storage.findOfficialSearch(principal.businessUnitId, principal.username, messageId);
    if (!search) throw new Problem("404-01", `no official search with message_id ${messageId} for this user`);
    // The store keeps, as JSON it does not type, the bodies `search` gave it.
    const { deferred, result } = search as OfficialSearchRow & {
      deferred: SearchDeferred | null;
      result: SearchResult;
    };
    if (deferred !== null && this.#deps.clock.nowMs(principal.businessUnitId) < search.readyMs) {
      return {
        status: 202,
        body: deferred,
        headers: { "retry-after": String(this.#retryAfter(search.readyMs, principal.businessUnitId)) },
      };
    }
    return { status: 200, body: result };
  }

  #retryAfter(readyMs: number, businessUnitId: string): number {
    return retryAfterSeconds(readyMs, this.#deps.clock.nowMs(businessUnitId));
  }

  async #result(
    principal: Principal,
    request: SearchRequest,
    title: RegisterTitle,
    clearance: Clearance,
    timing: Timing,
    id: string,
    baseUrl: string,
  ): Promise<SearchResult> {
    const details = request.official_search_of_whole_with_priority;
    const certificateDate = londonDate(timing.certificateMs);
    const editionDate = londonDate(Date.parse(title.edition));
    const firstRegistration = title.search.first_registration === true;
    const searchFromDate = details.search_from_date ?? editionDate;
    const changed = !firstRegistration && searchFromDate < editionDate;
    const entryText = firstRegistration
      ? `An application for first registration lodged on ${dateInWords(editionDate)} is pending; the search is made against it.`
      : changed
        ? `The register has changed since ${dateInWords(searchFromDate)}; a new edition was issued on ${dateInWords(editionDate)}.`
        : `There are no changes to the register since ${dateInWords(searchFromDate)}.`;
    const registryReference = randomCode(7);
    const warning = clearance.warnings.length > 0 ? clearance.warnings.join(" ") : undefined;
    const data: SearchResult["data"]["official_search_data"] = {
      search_from_date: searchFromDate,
      has_register_changed: changed,
      has_advisory_entries: clearance.advisoryEntries.length > 0,
      proprietor_names: title.proprietors.map((proprietor) => proprietor.proprietor_name),
      official_search_number: `${randomCode(3)}-${randomCode(2)}-${randomCode(2)}`,
      certificate_timestamp: isoMillis(timing.certificateMs),
      priority_period_expiry_date: priorityExpiryDate(timing.certificateMs),
      title_number: title.title_number,
      applicants: details.applicant_party,
      key_number: keyNumberOf(principal.businessUnitId),
      pending_official_searches_of_whole: await this.#pendingSearches(
        principal,
        title,
        timing.certificateMs,
        certificateDate,
      ),
      result_entries: {
        register_status_entry: { entry_text: entryText, official_copy_timestamp: title.edition },
        advisory_entries: clearance.advisoryEntries,
      },
    };
    const downloadId = await issueCertificate(
      this.#deps,
      principal.businessUnitId,
      data,
      {
        searchId: id,
        registryReference,
        priorityType: details.priority_type,
        propertyDescription: details.property_description,
        warning,
      },
      timing.receivedMs,
    );
    return {
      data: {
        id,
        message_id: request.message_id,
        registry_reference: registryReference,
        external_reference: request.external_reference,
        actual_price: {
          gross_price_amount: clearance.feeGbp,
          net_price_amount: clearance.feeGbp,
          vat_amount: 0,
          currency_id: "GBP",
        },
        certificate: { type: "LINK", link: `${baseUrl.replace(/\/+$/, "")}/v1/documents/${downloadId}` },
        ...(warning ? { warning_message: warning } : {}),
        acknowledgement_message: timing.acknowledgement,
        official_search_data: data,
      },
    };
  }

  /** Earlier searches of the title that still have priority on the day of this one: the seeded ones and the business unit's own. */
  async #pendingSearches(
    principal: Principal,
    title: RegisterTitle,
    certificateMs: number,
    certificateDate: string,
  ): Promise<PendingSearch[]> {
    const seeded = (title.search.pending_official_searches_of_whole ?? []).filter((search) => {
      const ms = Date.parse(search.certificate_timestamp);
      return ms < certificateMs && priorityExpiryDate(ms) >= certificateDate;
    });
    const own = (
      await this.#deps.storage.searchesWithPriority(
        principal.businessUnitId,
        title.title_number,
        certificateMs,
        certificateDate,
        MAX_PENDING_SEARCHES,
      )
    ).map((search): PendingSearch => ({
      certificate_timestamp: isoMillis(search.certificateMs),
      priority_type: search.priorityType as PendingSearch["priority_type"],
      applicant: search.applicant,
    }));
    return [...seeded, ...own]
      .sort((a, b) => Date.parse(a.certificate_timestamp) - Date.parse(b.certificate_timestamp))
      .slice(0, MAX_PENDING_SEARCHES);
  }
}
