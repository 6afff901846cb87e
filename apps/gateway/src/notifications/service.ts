import type { Principal } from "../auth/basic-auth.js";
import { isoMillis, type Clock } from "../clock.js";
import { oneMonthAfter, oneMonthBefore, requestInstant } from "../date-time.js";
import type { RegistryOperations } from "../operation-types.js";
import { Problem, schemaMismatch } from "../problems.js";
import { NOTIFICATION_PAGE_SIZE } from "@lrg/spec";
import type { NotificationListing, NotificationQuery, NotificationStore } from "../storage/ports/notifications.js";

export type Version = "v0" | "v1";

/** Each version's list query as its operation types it, once validated against the spec (defaults filled in). */
interface ListQueries {
  v0: NonNullable<RegistryOperations["listNotificationsV0"]["parameters"]["query"]>;
  v1: NonNullable<RegistryOperations["listNotificationsV1"]["parameters"]["query"]>;
}

/** The list query of a version (of either, by default), names as the version spells them. */
export type ListQuery<V extends Version = Version> = ListQueries[V];

/** A date-time filter of the query: its name as the version spells it, and its value when given. */
type TimeFilter = [name: string, value: string | undefined];

/** The event-time filters of each version's query, after and before (version 0 spells them `occured_*`). */
const EVENT_TIME_FILTERS: { [V in Version]: (query: ListQueries[V]) => [TimeFilter, TimeFilter] } = {
  v0: (query) => [
    ["occured_after", query.occured_after],
    ["occured_before", query.occured_before],
  ],
  v1: (query) => [
    ["occurred_after", query.occurred_after],
    ["occurred_before", query.occurred_before],
  ],
};

/** The most notifications one list answer holds: the spec's bound on the list (100). */
const MAX_PAGE = NOTIFICATION_PAGE_SIZE;
/**
 * The shape of the requirement's example date-time (`2020-01-01T00:00:00`): UTC without a zone, with seconds and
 * optional fractional seconds. The only shape the sandbox's `strict_date_times` admits.
 */
const ZONELESS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?$/;
/** Rendered pages kept per business unit, and in all; past the bound the oldest unit's pages go first. */
const MAX_CACHED_PAGES_PER_UNIT = 32;
const MAX_CACHED_UNITS = 5_000;

interface CachedPage {
  body: string;
  /** The page is stale from this instant on: its oldest notification reaches the end of its retention. */
  validUntilMs: number;
}

/** The notifications of a business unit: listing with the requirement's filters, acknowledging, retention. */
export class NotificationService {
  readonly #storage: NotificationStore;
  readonly #clock: Clock;
  /** Whether a unit's date-time filters must have the example's shape (its sandbox setting `strict_date_times`). */
  readonly #strictDateTimes: (businessUnitId: string) => boolean;

  /**
   * Rendered pages by business unit and query. Clients poll the same page again and again (the pull model), mostly
   * with nothing new; a page is dropped as soon as the store reports a change to its unit's notifications, when
   * the clock is moved, or when its oldest notification leaves retention. One gateway process; a multi-instance
   * deployment needs its store's change feed before it may cache.
   */
  readonly #pages = new Map<string, Map<string, CachedPage>>();
  /** Per unit, how many times its notifications changed: a page computed across a change is not kept. */
  readonly #generations = new Map<string, number>();
  #allGeneration = 0;

  constructor(
    storage: NotificationStore,
    clock: Clock,
    strictDateTimes: (businessUnitId: string) => boolean = () => false,
  ) {
    this.#storage = storage;
    this.#clock = clock;
    this.#strictDateTimes = strictDateTimes;
    storage.onNotificationsChanged((businessUnitId) =>
      businessUnitId === null ? this.forgetPages() : this.#forgetUnit(businessUnitId),
    );
  }

  /** Drops every cached page (the clock moved, or every unit's notifications may have changed). */
  forgetPages(): void {
    this.#pages.clear();
    this.#allGeneration += 1;
  }

  #forgetUnit(businessUnitId: string): void {
    this.#pages.delete(businessUnitId);
    this.#generations.set(businessUnitId, (this.#generations.get(businessUnitId) ?? 0) + 1);
  }

  /** One page of the unit's notifications as the version shows it, rendered as JSON text (cached). */
  async page<V extends Version>(
    version: V,
    principal: Principal,
    query: ListQuery<V>,
    schemaBase: string,
  ): Promise<string> {
    const unit = principal.businessUnitId;
    // The date-time rule is part of the key: a page cached while it was off must not answer a query it refuses.
    const key = `${version} ${schemaBase} ${this.#strictDateTimes(unit) ? "strict" : "lenient"} ${JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    const now = this.#clock.nowMs(unit);
    const cached = this.#pages.get(unit)?.get(key);
    if (cached && now < cached.validUntilMs) return cached.body;

    const generation = `${this.#allGeneration}/${this.#generations.get(unit) ?? 0}`;
    const rows = await this.list(version, principal, query);
    const body = renderNotificationPage(rows, version, schemaBase);
    if (generation === `${this.#allGeneration}/${this.#generations.get(unit) ?? 0}`) {
      const oldest = Math.min(...rows.map((row) => row.createdMs));
      let unitPages = this.#pages.get(unit);
      if (!unitPages) {
        if (this.#pages.size >= MAX_CACHED_UNITS) this.#pages.delete(this.#pages.keys().next().value as string);
        unitPages = new Map();
        this.#pages.set(unit, unitPages);
      }
      if (unitPages.size >= MAX_CACHED_PAGES_PER_UNIT) unitPages.delete(unitPages.keys().next().value as string);
      unitPages.set(key, { body, validUntilMs: rows.length === 0 ? Infinity : oneMonthAfter(oldest) });
    }
    return body;
  }

  /** The unit's notifications that the query selects, oldest first, as the store lists them. */
  async list<V extends Version>(version: V, principal: Principal, query: ListQuery<V>): Promise<NotificationListing[]> {
    const strict = this.#strictDateTimes(principal.businessUnitId);
    const instant = ([name, value]: TimeFilter): number | undefined => {
      if (value === undefined) return undefined;
      const pointer = `/query/${name}`;
      if (strict && !ZONELESS_UTC.test(value)) {
        const detail = `${name} must be a UTC date-time without a zone, as the requirement's example 2020-01-01T00:00:00 (the sandbox setting strict_date_times is on)`;
        throw schemaMismatch([{ type: "format", detail, pointer }]);
      }
      return requestInstant(value, pointer);
    };
    const createdAfter = instant(["created_after", query.created_after]);
    const createdBefore = instant(["created_before", query.created_before]);
    if (createdAfter !== undefined && createdBefore !== undefined && createdAfter > createdBefore) {
      throw new Problem("400-01", "created_after cannot be after created_before");
    }
    const [occurredAfter, occurredBefore] = EVENT_TIME_FILTERS[version](query).map(instant);
    // Version 1 defaults to NEW (the requirement); version 0 names no default, and the registry's stub lists
    // acknowledged notifications too when no status is given.
    const status = query.status ?? (version === "v1" ? "NEW" : undefined);
    const retainedFrom = oneMonthBefore(this.#clock.nowMs(principal.businessUnitId));
    const filter: NotificationQuery = {
      businessUnitId: principal.businessUnitId,
      version,
      ...optional("status", status),
      // Expired notifications are never answered, even before the purge has removed them.
      createdAfterMs: Math.max(createdAfter ?? -Infinity, retainedFrom - 1),
      ...optional("createdBeforeMs", createdBefore),
      ...optional("occurredAfterMs", occurredAfter),
      ...optional("occurredBeforeMs", occurredBefore),
      ...optional("notificationType", query.notification_type),
      ...optional("subject", query.subject),
      additionalProviderFilter: query.additional_provider_filter ?? null,
      limit: Math.min(query.limit ?? MAX_PAGE, MAX_PAGE),
    };
    return this.#storage.listNotifications(filter);
  }

  async acknowledge(principal: Principal, ids: string[]): Promise<{ acknowledged: string[]; notFound: string[] }> {
    const found = await this.#storage.acknowledgeNotifications(
      principal.businessUnitId,
      ids,
      this.#clock.nowMs(principal.businessUnitId),
    );
    const known = new Set(found);
    return { acknowledged: found, notFound: [...new Set(ids)].filter((id) => !known.has(id)) };
  }

  /** Deletes every notification older than one month by its business unit's clock (its own, else the global one). */
  async purgeExpired(): Promise<number> {
    let purged = await this.#storage.purgeNotifications(
      oneMonthBefore(this.#clock.nowMs(null)),
      "units-on-the-global-clock",
    );
    for (const businessUnitId of this.#clock.unitsWithOwnClock()) {
      purged += await this.#storage.purgeNotifications(oneMonthBefore(this.#clock.nowMs(businessUnitId)), {
        businessUnitId,
      });
    }
    return purged;
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * A page of notifications as JSON text: `{ "data": [...] }` with members in the spec's order. The stored payloads
 * are spliced in as they are (they were serialised when the event happened), not parsed and serialised again.
 * `schemaBase` is where the payload schemas are served.
 */
export function renderNotificationPage(rows: NotificationListing[], version: Version, schemaBase: string): string {
  const subjectType = version === "v1" ? '"APPLICATION"' : '"LAND_REGISTER_APPLICATION"';
  const items = rows.map(
    (row) =>
      `{"notification_id":${JSON.stringify(row.id)},"created_datetime":"${isoMillis(row.createdMs)}","event_datetime":"${isoMillis(row.eventMs)}",` +
      `"payload_schema":${JSON.stringify(`${schemaBase}/schemas/${row.schema}.json`)},"notification_type":${JSON.stringify(row.type)},` +
      `"subject_type":${subjectType},"subject":${JSON.stringify(row.applicationId)},"additional_provider_filter":${JSON.stringify(row.additionalProviderFilter)},` +
      `"status":"${row.status}","payload":{"data":${row.payloadJson}}}`,
  );
  return `{"data":[${items.join(",")}]}`;
}
