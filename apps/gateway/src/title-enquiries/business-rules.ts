import type { components } from "../operation-types.js";
import { STANDARD_SEARCH_FEE_GBP, type RegisterTitle } from "../registry/register.js";

type SearchRequest = components["schemas"]["OfficialSearchRequest"];
type AdvisoryEntry = components["schemas"]["OfficialSearchAdvisoryEntry"];
type Waiver = NonNullable<SearchRequest["official_search_of_whole_with_priority"]["continue_application_if"]>[number];

/** A business rule of the register that refuses the search (422, the registry's rule code). */
export interface Refusal {
  rule: string;
  detail: string;
}

/** What the rules allow: the fee, and the findings that the client accepted. */
export interface Clearance {
  feeGbp: number;
  warnings: string[];
  advisoryEntries: AdvisoryEntry[];
}

const pounds = (amount: number) => `${amount.toFixed(2)} GBP`;
const pence = (amount: number) => Math.round(amount * 100);

/**
 * Applies the register's business rules to a search, in the spec's order: the title (`bg.title.invalid`,
 * `bg.title.closed`, `bg.title.caution`), the date (`bg.date.futuredate`), then the findings a client may accept
 * with `continue_application_if` (`bg.state.nonamematch`, `bg.fee.feeMismatch`, `bg.title.pendingsearchofpart`,
 * `bg.title.developertitle`). Answers the first refusal, or the fee with a warning and advisory entry for each
 * accepted finding. `today` is the London date by the gateway's clock.
 */
export function applyBusinessRules(
  title: RegisterTitle | undefined,
  titleNumber: string,
  request: SearchRequest,
  today: string,
): Refusal | Clearance {
  if (!title) return { rule: "bg.title.invalid", detail: `${titleNumber} is not a title number on the register` };
  const rules = title.search;
  if (rules.closed) return { rule: "bg.title.closed", detail: `title ${titleNumber} is closed` };
  if (rules.caution)
    return {
      rule: "bg.title.caution",
      detail: `${titleNumber} is a caution title; an official search of whole cannot be made against it`,
    };
  const details = request.official_search_of_whole_with_priority;
  if (details.search_from_date !== undefined && details.search_from_date > today) {
    return { rule: "bg.date.futuredate", detail: `search_from_date ${details.search_from_date} is in the future` };
  }

  const accepted = new Set<Waiver>(details.continue_application_if ?? []);
  const clearance: Clearance = { feeGbp: rules.fee_gbp ?? STANDARD_SEARCH_FEE_GBP, warnings: [], advisoryEntries: [] };
  const proprietorNames = title.proprietors.map((proprietor) => proprietor.proprietor_name);

  if (rules.names_never_match) {
    if (!accepted.has("NAME_MISMATCH_ON_REGISTER")) {
      return {
        rule: "bg.state.nonamematch",
        detail: `the names given do not match the registered proprietors of ${titleNumber}; send NAME_MISMATCH_ON_REGISTER in continue_application_if to search anyway`,
      };
    }
    clearance.warnings.push("The search was made although the names given do not match the registered proprietors.");
    clearance.advisoryEntries.push({
      entry_text: "The names given do not match the registered proprietors.",
      name_mismatch: { registered_proprietor_names: proprietorNames },
    });
  }

  const expectedGbp = request.expected_price?.gross_price_amount ?? STANDARD_SEARCH_FEE_GBP;
  if (pence(clearance.feeGbp) > pence(expectedGbp)) {
    if (!accepted.has("ACTUAL_FEE_EXCEEDS_EXPECTED_FEE")) {
      return {
        rule: "bg.fee.feeMismatch",
        detail: `the fee of ${pounds(clearance.feeGbp)} exceeds the expected fee of ${pounds(expectedGbp)}; send ACTUAL_FEE_EXCEEDS_EXPECTED_FEE in continue_application_if to search anyway`,
      };
    }
    clearance.warnings.push(
      `The fee of ${pounds(clearance.feeGbp)} charged exceeds the expected fee of ${pounds(expectedGbp)}.`,
    );
  }

  if (rules.pending_search_of_part) {
    if (!accepted.has("PENDING_SEARCHES_OF_PART")) {
      return {
        rule: "bg.title.pendingsearchofpart",
        detail: `an official search of part of ${titleNumber} has priority; send PENDING_SEARCHES_OF_PART in continue_application_if to search anyway`,
      };
    }
    clearance.warnings.push("An official search of part of this title has priority; this search is subject to it.");
  }

  if (rules.developer_title) {
    if (!accepted.has("DEVELOPER_TITLE")) {
      return {
        rule: "bg.title.developertitle",
        detail: `${titleNumber} is a developer title; send DEVELOPER_TITLE in continue_application_if to search anyway`,
      };
    }
    clearance.warnings.push(
      `This is a developer's estate title of ${proprietorNames.join(", ")}; the search was made against the whole of it.`,
    );
  }

  if (rules.commonhold_title_number) {
    clearance.advisoryEntries.push({
      entry_text: `This title is a unit of a commonhold; the common parts are registered under ${rules.commonhold_title_number}.`,
      commonhold_title: { commonhold_title_number: rules.commonhold_title_number },
    });
  }
  return clearance;
}

/** Whether the rules refused the search. */
export function isRefusal(outcome: Refusal | Clearance): outcome is Refusal {
  return "rule" in outcome;
}
