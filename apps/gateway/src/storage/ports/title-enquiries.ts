/** The title enquiries' official searches with priority, kept for the Poll Request Service and for priority. */
export interface TitleEnquiryStore {
  /** Records an official search; answers false (and records nothing) when the user already used its `message_id`. */
  insertOfficialSearch(search: OfficialSearchRow): Promise<boolean>;
  /** The user's official search with this `message_id`, if any. */
  findOfficialSearch(
    businessUnitId: string,
    username: string,
    messageId: string,
  ): Promise<OfficialSearchRow | undefined>;
  /**
   * The business unit's searches of a title certified before `beforeMs` whose priority lasts at least until
   * `onDate` (a London date), oldest first.
   */
  searchesWithPriority(
    businessUnitId: string,
    titleNumber: string,
    beforeMs: number,
    onDate: string,
    limit: number,
  ): Promise<PrioritySearch[]>;
}

/** One official search that was answered 201 or 202, kept so that the Poll Request Service can answer it again. */
export interface OfficialSearchRow {
  id: string;
  businessUnitId: string;
  username: string;
  messageId: string;
  titleNumber: string;
  priorityType: string;
  applicant: string;
  receivedMs: number;
  /** When the result may be answered; equal to `receivedMs` for a result given at once. */
  readyMs: number;
  certificateMs: number;
  priorityExpiryDate: string;
  /** The 202 body while the result is deferred; null for a result given at once. */
  deferred: unknown;
  /** The 201 body, answered by the Poll Request Service from `readyMs` on. */
  result: unknown;
}

/** A search of the same title that still has priority. */
export interface PrioritySearch {
  certificateMs: number;
  priorityType: string;
  applicant: string;
}
