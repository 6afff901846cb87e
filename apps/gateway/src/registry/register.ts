import type { components } from "../operation-types.js";
import registerData from "./data/register.json" with { type: "json" };

type Schemas = components["schemas"];
type PendingSearch = Schemas["OfficialSearchData"]["pending_official_searches_of_whole"][number];

/** How an official search of a title behaves: the scenario flags of the simulated register. */
export interface SearchBehaviour {
  /** The title is closed: bg.title.closed. */
  closed?: boolean;
  /** The title is a caution title: bg.title.caution. */
  caution?: boolean;
  /** The names given never match the proprietors: bg.state.nonamematch unless waived. */
  names_never_match?: boolean;
  /** An official search of part has priority: bg.title.pendingsearchofpart unless waived. */
  pending_search_of_part?: boolean;
  /** A developer's estate title: bg.title.developertitle unless waived. */
  developer_title?: boolean;
  /** Always processed by hand: 202 BG20001. */
  manual_processing?: boolean;
  /** A pending first registration application rather than a registered title (`search_from_date` optional). */
  first_registration?: boolean;
  /** The fee of a search of this title, when it is not the standard fee. */
  fee_gbp?: number;
  /** The title is a commonhold unit whose common parts are registered under this title. */
  commonhold_title_number?: string;
  /** Searches made outside this gateway that still have priority (seeded). */
  pending_official_searches_of_whole?: PendingSearch[];
}

/** One title of the simulated register. */
export interface RegisterTitle {
  title_number: string;
  /** What the title is for, for a reader of the fixture. */
  scenario: string;
  /** When the current edition of the register was made; for a pending first registration, when the application was lodged. */
  edition: string;
  proprietors: Schemas["Proprietor"][];
  /** What the registered proprietor names service says of the title besides its proprietors. */
  proprietor_names: Omit<Schemas["ProprietorNames"]["data"], "title_number" | "proprietors">;
  /** What the official copy availability service answers, but the title number. */
  official_copies: Omit<Schemas["OfficialCopiesAvailability"]["data"], "title_number">;
  search: SearchBehaviour;
}

interface RegisterFile {
  standardFeeGbp: number;
  titles: Record<string, Omit<RegisterTitle, "title_number">>;
}

const file = registerData as unknown as RegisterFile;

/** The fee of an official search of whole with priority, unless a title says otherwise. */
export const STANDARD_SEARCH_FEE_GBP = file.standardFeeGbp;

const titles = new Map<string, RegisterTitle>(
  Object.entries(file.titles).map(([number, title]) => [number, { title_number: number, ...title }]),
);

/** The seeded title with this (upper-case) number, if the register holds one. */
export function findTitle(titleNumber: string): RegisterTitle | undefined {
  return titles.get(titleNumber);
}

/** Every seeded title, in title number order. */
export function allTitles(): RegisterTitle[] {
  return [...titles.values()].sort((a, b) => a.title_number.localeCompare(b.title_number));
}
