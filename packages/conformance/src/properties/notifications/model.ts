// Model-based test of the notifications of one business unit: events created through the control plane, lists
// with every filter, acknowledging subsets, duplicates and retention. After every command the gateway's answer
// equals what the model predicts.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  acknowledge,
  advanceClock,
  expectStatus,
  expectThat,
  QUERY_SHAPES,
  queryDateTime,
  requestTransition,
  settings,
  submission,
  submit,
  transition,
  type Notification,
  type Version,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Credentials, Session } from "../../session.js";
import { enums, transitions } from "@lrg/spec";

interface ModelNotification {
  id: string;
  types: Record<Version, string | null>;
  subject: string;
  label: string | null;
  /** Index of the clock epoch in which it was created (each decision moves the clock on first). */
  epoch: number;
  /** One event's deliveries share a group. */
  group: string;
  status: "NEW" | "ACKNOWLEDGED";
  expired: boolean;
}

interface ModelApplication {
  id: string;
  status: string;
  label: string | null;
  documents: number;
}

interface Model {
  applications: ModelApplication[];
  notifications: ModelNotification[];
  /** The gateway's clock when each epoch began. */
  epochs: number[];
  duplicates: boolean;
}

interface Real {
  session: Session;
  credentials: Credentials;
}

type Command = fc.AsyncCommand<Model, Real>;

/** Seconds the clock moves before each decision: far more than a request takes, so epochs never overlap. */
const EPOCH_SECONDS = 60;
/** A pivot this far from an epoch's start falls between epochs, whatever the requests' own durations. */
const PIVOT_MS = 30_000;
const LABELS = ["branch-leeds", "branch-york"];
const TYPES: Record<Version, string[]> = { v1: [...enums.NotificationTypeV1], v0: [...enums.NotificationTypeV0] };

const movable = (m: Model) => m.applications.filter((a) => transitions.some((t) => t.from === a.status));

class Submit implements Command {
  constructor(
    readonly label: string | null,
    readonly documents: number,
  ) {}
  check = (m: Readonly<Model>) => m.applications.length < 6;
  async run(m: Model, r: Real) {
    const id = await submit(r.session, r.credentials, submission({ documents: this.documents, label: this.label }));
    m.applications.push({ id, status: "VALIDATING", label: this.label, documents: this.documents });
  }
  toString = () => `submit(${this.label ?? "no label"}, ${this.documents} documents)`;
}

class Decide implements Command {
  resolved = "";
  constructor(
    readonly pick: number,
    readonly choice: number,
  ) {}
  check = (m: Readonly<Model>) => movable(m).length > 0;
  async run(m: Model, r: Real) {
    const candidates = movable(m);
    const application = candidates[this.pick % candidates.length] as ModelApplication;
    const moves = transitions.filter((t) => t.from === application.status);
    const move = moves[this.choice % moves.length] as (typeof moves)[number];
    this.resolved = `#${m.applications.indexOf(application)} ${move.from}→${move.to}`;
    const epochStart = await advanceClock(r.session, EPOCH_SECONDS, r.credentials);
    const result = await transition(r.session, application.id, { to: move.to }, r.credentials);
    expectThat(
      result.status === move.to && result.previous_status === move.from,
      `transition answered ${result.previous_status}→${result.status}`,
    );
    // Leaving VALIDATING, each document of the submission is reported first (version 1 only), then the event.
    const events: Record<Version, string | null>[] = [
      ...Array.from({ length: application.status === "VALIDATING" ? application.documents : 0 }, () => ({
        v1: "application.attachment-failed",
        v0: null,
      })),
      { v1: move.notifications.v1, v0: move.notifications.v0 },
    ];
    const expected = events.flatMap((types, event) =>
      m.duplicates
        ? [
            { types, event, duplicate: false },
            { types, event, duplicate: true },
          ]
        : [{ types, event, duplicate: false }],
    );
    const emitted = result.notifications.map(
      (n) => `${n.notification_type}/${String(n.v0_notification_type)}/${n.duplicate}`,
    );
    expectThat(
      emitted.join() === expected.map((e) => `${e.types.v1}/${String(e.types.v0)}/${e.duplicate}`).join(),
      () => `emitted ${emitted.join()}; the model expects ${expected.length}`,
    );
    const epoch = m.epochs.push(epochStart) - 1;
    result.notifications.forEach((n, index) => {
      const e = expected[index] as (typeof expected)[number];
      m.notifications.push({
        id: n.notification_id,
        types: e.types,
        subject: application.id,
        label: application.label,
        epoch,
        group: `${epoch}/${e.event}`,
        status: "NEW",
        expired: false,
      });
    });
    application.status = move.to;
  }
  toString = () => `decide(${this.resolved || `${this.pick}, ${this.choice}`})`;
}

class RefuseIllegal implements Command {
  resolved = "";
  constructor(
    readonly pick: number,
    readonly target: number,
  ) {}
  check = (m: Readonly<Model>) => m.applications.length > 0;
  async run(m: Model, r: Real) {
    const application = m.applications[this.pick % m.applications.length] as ModelApplication;
    const illegal = [...enums.ApplicationStatus].filter(
      (s) => s !== "VALIDATING" && !transitions.some((t) => t.from === application.status && t.to === s),
    );
    const to = illegal[this.target % illegal.length] as string;
    this.resolved = `${application.status}→${to}`;
    const answer = await requestTransition(r.session, application.id, { to }, r.credentials);
    expectStatus(answer, 409, `illegal transition ${this.resolved}`);
    expectThat((answer.body as { code?: string }).code === "409-03", `problem code ${answer.text}`);
  }
  toString = () => `refuse(${this.resolved || `${this.pick}, ${this.target}`})`;
}

interface Filters {
  status: "NEW" | "ACKNOWLEDGED" | undefined;
  type: number | undefined;
  subject: number | "unknown" | undefined;
  label: number | undefined;
  createdAfter: number | undefined;
  createdBefore: number | undefined;
  occurredAfter: number | undefined;
  occurredBefore: number | undefined;
  shape: (typeof QUERY_SHAPES)[number];
  limit: number | undefined;
  /** Version 1 only: the one subject type there is. */
  subjectType: boolean;
}

/** Checks that `actual` lists the expected notifications epoch by epoch (order inside an epoch is the gateway's). */
function expectEpochOrder(actual: string[], byEpoch: string[][], limit: number): void {
  const total = byEpoch.reduce((sum, ids) => sum + ids.length, 0);
  const want = Math.min(limit, 100, total);
  expectThat(actual.length === want, `listed ${actual.length} notifications, the model expects ${want}`);
  let at = 0;
  for (const ids of byEpoch) {
    if (at >= actual.length) break;
    const slice = actual.slice(at, at + ids.length);
    const members = new Set(ids);
    expectThat(
      slice.every((id) => members.has(id)) && new Set(slice).size === slice.length,
      () => `the notifications at ${at}..${at + slice.length - 1} are not those of one epoch, in order`,
    );
    at += slice.length;
  }
}

class List implements Command {
  query: Record<string, string | number | undefined> = {};
  constructor(
    readonly version: Version,
    readonly filters: Filters,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const f = this.filters;
    const v = this.version;
    const epochPivot = (pick: number | undefined, side: 1 | -1) =>
      pick === undefined || m.epochs.length === 0
        ? undefined
        : { epoch: pick % m.epochs.length, ms: (m.epochs[pick % m.epochs.length] as number) + side * PIVOT_MS };
    const createdAfter = epochPivot(f.createdAfter, 1);
    const createdBefore = epochPivot(f.createdBefore, -1);
    const occurredAfter = epochPivot(f.occurredAfter, 1);
    const occurredBefore = epochPivot(f.occurredBefore, -1);
    const type = f.type === undefined ? undefined : TYPES[v][f.type % TYPES[v].length];
    const subject =
      f.subject === undefined
        ? undefined
        : f.subject === "unknown" || m.applications.length === 0
          ? randomUUID()
          : (m.applications[f.subject % m.applications.length] as ModelApplication).id;
    const label = f.label === undefined ? undefined : LABELS[f.label % LABELS.length];
    const occurred = v === "v1" ? "occurred" : "occured";
    const at = (pivot: { ms: number } | undefined) =>
      pivot ? queryDateTime(pivot.ms, f.shape === "minutes" ? "millisZ" : f.shape) : undefined;
    this.query = {
      status: f.status,
      notification_type: type,
      subject,
      additional_provider_filter: label,
      created_after: at(createdAfter),
      created_before: at(createdBefore),
      [`${occurred}_after`]: at(occurredAfter),
      [`${occurred}_before`]: at(occurredBefore),
      limit: f.limit,
      ...(v === "v1" && f.subjectType ? { subject_type: "APPLICATION" } : {}),
    };
    const answer = await r.session.call("GET", `/${v}/notifications`, { as: r.credentials, query: this.query });
    if (createdAfter && createdBefore && createdAfter.ms > createdBefore.ms) {
      expectStatus(answer, 400, "created_after later than created_before");
      expectThat((answer.body as { code?: string }).code === "400-01", `problem code ${answer.text}`);
      return;
    }
    expectStatus(answer, 200, `list ${v}`);
    const items = (answer.body as { data: Notification[] }).data;
    const matches = m.notifications.filter(
      (n) =>
        !n.expired &&
        n.types[v] !== null &&
        // Version 1 lists NEW by default; version 0 names no default and lists every status.
        (f.status ?? (v === "v1" ? "NEW" : n.status)) === n.status &&
        (type === undefined || n.types[v] === type) &&
        (subject === undefined || n.subject === subject) &&
        n.label === (label ?? null) &&
        (!createdAfter || n.epoch > createdAfter.epoch) &&
        (!createdBefore || n.epoch < createdBefore.epoch) &&
        (!occurredAfter || n.epoch > occurredAfter.epoch) &&
        (!occurredBefore || n.epoch < occurredBefore.epoch),
    );
    const byEpoch = m.epochs
      .map((_, epoch) => matches.filter((n) => n.epoch === epoch).map((n) => n.id))
      .filter((ids) => ids.length > 0);
    expectEpochOrder(
      items.map((n) => n.notification_id),
      byEpoch,
      f.limit ?? 100,
    );
    const byId = new Map(m.notifications.map((n) => [n.id, n]));
    for (const item of items) {
      const known = byId.get(item.notification_id) as ModelNotification;
      expectThat(
        item.notification_type === known.types[v] && item.subject === known.subject && item.status === known.status,
        () =>
          `notification ${item.notification_id} is listed as ${item.notification_type}/${item.status}, the model has ${String(known.types[v])}/${known.status}`,
      );
      expectThat(
        (item.additional_provider_filter ?? null) === known.label,
        `additional_provider_filter ${String(item.additional_provider_filter)}, the model has ${String(known.label)}`,
      );
      expectThat(
        item.subject_type === (v === "v1" ? "APPLICATION" : "LAND_REGISTER_APPLICATION"),
        `subject_type ${item.subject_type}`,
      );
      // The requirement: notification schemas are published at a versioned address with a v1 segment (both versions).
      expectThat(
        new URL(item.payload_schema).pathname.includes("/v1/"),
        `payload_schema ${item.payload_schema} has no /v1/ segment`,
      );
    }
    // Duplicates are found by equal event_datetime and notification_type: exactly the deliveries of one event.
    for (const a of items) {
      for (const b of items) {
        const sameEvent = byId.get(a.notification_id)?.group === byId.get(b.notification_id)?.group;
        const looksSame =
          a.event_datetime === b.event_datetime &&
          a.notification_type === b.notification_type &&
          a.subject === b.subject;
        expectThat(
          sameEvent === looksSame,
          `${a.notification_id} and ${b.notification_id}: ${sameEvent ? "deliveries of one event differ" : "different events look like duplicates"}`,
        );
      }
    }
  }
  toString = () =>
    `list(${this.version}, ${JSON.stringify(Object.fromEntries(Object.entries(this.query).filter(([, value]) => value !== undefined)))})`;
}

class Acknowledge implements Command {
  sent: string[] = [];
  constructor(
    readonly version: Version,
    readonly picks: number[],
    readonly unknown: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const known = this.picks
      .filter(() => m.notifications.length > 0)
      .map((p) => m.notifications[p % m.notifications.length] as ModelNotification);
    this.sent = [...known.map((n) => n.id), ...Array.from({ length: this.unknown }, () => randomUUID())];
    const answer = await acknowledge(r.session, this.version, r.credentials, this.sent);
    const live = new Set(known.filter((n) => !n.expired).map((n) => n.id));
    const acknowledged = [...new Set(answer.acknowledged)].sort().join();
    expectThat(
      acknowledged === [...live].sort().join(),
      `acknowledged ${answer.acknowledged.length} ids, the model expects ${live.size}`,
    );
    if (this.version === "v0") {
      const notFound = [...new Set(this.sent.filter((id) => !live.has(id)))].sort().join();
      expectThat(
        [...new Set(answer.not_found)].sort().join() === notFound,
        `not_found ${JSON.stringify(answer.not_found)}`,
      );
    } else {
      expectThat(!("not_found" in answer), "a version 1 acknowledgement answered not_found");
    }
    for (const n of known) if (!n.expired) n.status = "ACKNOWLEDGED";
  }
  toString = () => `acknowledge(${this.version}, ${this.picks.length} known, ${this.unknown} unknown)`;
}

class Expire implements Command {
  check = (m: Readonly<Model>) => m.notifications.some((n) => !n.expired);
  async run(m: Model, r: Real) {
    await advanceClock(r.session, 32 * 86_400, r.credentials);
    for (const n of m.notifications) n.expired = true;
  }
  toString = () => "expire(32 days)";
}

const filters: fc.Arbitrary<Filters> = fc.record({
  status: fc.constantFrom<Filters["status"]>(undefined, "NEW", "ACKNOWLEDGED"),
  type: fc.option(fc.nat(20), { nil: undefined }),
  subject: fc.option(fc.oneof(fc.nat(9), fc.constant<"unknown">("unknown")), { nil: undefined }),
  label: fc.option(fc.nat(3), { nil: undefined }),
  createdAfter: fc.option(fc.nat(20), { nil: undefined, freq: 3 }),
  createdBefore: fc.option(fc.nat(20), { nil: undefined, freq: 3 }),
  occurredAfter: fc.option(fc.nat(20), { nil: undefined, freq: 4 }),
  occurredBefore: fc.option(fc.nat(20), { nil: undefined, freq: 4 }),
  shape: fc.constantFrom(...QUERY_SHAPES),
  limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
  subjectType: fc.boolean(),
});

const commands = [
  fc
    .tuple(fc.option(fc.constantFrom(...LABELS), { nil: null, freq: 2 }), fc.integer({ min: 1, max: 3 }))
    .map(([label, documents]) => new Submit(label, documents)),
  fc.tuple(fc.nat(9), fc.nat(9)).map(([pick, choice]) => new Decide(pick, choice)),
  fc.tuple(fc.nat(9), fc.nat(9)).map(([pick, choice]) => new Decide(pick, choice)),
  fc.tuple(fc.nat(9), fc.nat(9)).map(([pick, target]) => new RefuseIllegal(pick, target)),
  fc.tuple(fc.constantFrom<Version>("v0", "v1"), filters).map(([version, f]) => new List(version, f)),
  fc.tuple(fc.constantFrom<Version>("v0", "v1"), filters).map(([version, f]) => new List(version, f)),
  fc
    .tuple(fc.constantFrom<Version>("v0", "v1"), fc.array(fc.nat(40), { maxLength: 8 }), fc.nat(2))
    .map(([version, picks, unknown]) => new Acknowledge(version, picks, unknown)),
  fc.constant(new Expire()),
];

export const notificationModel: Property = {
  id: "notifications.model",
  rows: [
    "R003",
    "R004",
    "R005",
    "R006",
    "R008",
    "R010",
    "R011",
    "R012",
    "R013",
    "R014",
    "R048",
    "R049",
    "R075",
    "R076",
    "R077",
    "R078",
    "R079",
    "R080",
    "R081",
    "R082",
    "R083",
    "R084",
    "R085",
    "R091",
    "R092",
    "R094",
    "R095",
    "R096",
    "R097",
    "R099",
    "R101",
    "R102",
    "R112",
    "R113",
    "R114",
    "R116",
    "R117",
    "R120",
    "R121",
    "R123",
    "R124",
    "R125",
    "R126",
    "R127",
    "R128",
    "R130",
    "R136",
    "R139",
    "R151",
  ],
  title:
    "notifications model: events from transitions, lists with every filter, acknowledging subsets, duplicates and retention answer as the model predicts",
  requires: ["control-plane"],
  runs: 50,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.commands(commands, { maxCommands: 50, size: "large" }),
        async (duplicates, cmds) => {
          // The run's own business unit, its duplicates setting and clock its own: nothing to put back afterwards.
          const credentials = await session.newBusinessUnit();
          await settings(session, { duplicate_rate: duplicates ? 1 : 0 }, credentials);
          await fc.asyncModelRun(
            () => ({
              model: { applications: [], notifications: [], epochs: [], duplicates },
              real: { session, credentials },
            }),
            cmds,
          );
        },
      ),
    );
  },
};
