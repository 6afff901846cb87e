// Notifications where the requirement is silent, as the registry behaves, and the sandbox's ways to produce the
// notifications an integrator must handle: the version 0 list without a default status, acknowledge that never fails
// for an id, reproducible duplicates, early completion documents and the strict date-time shape.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  acknowledge,
  errorOf,
  expectStatus,
  expectThat,
  list,
  QUERY_SHAPES,
  queryDateTime,
  settings,
  submission,
  submit,
  transition,
  type Notification,
  type Version,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Answer, Session } from "../../session.js";

const versions = fc.constantFrom<Version>("v0", "v1");
/** The problem code, or the code of a registry envelope's first item (title enquiries, attach). */
const codeOf = (answer: Answer) => errorOf(answer).code;

const v0WithoutDefaultStatus: Property = {
  id: "notifications.v0-no-default-status",
  rows: ["R098", "R078", "R095", "R149"],
  title:
    "without status, version 0 lists NEW and ACKNOWLEDGED notifications alike (the registry's stub), version 1 only NEW; with status both list only that status",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        async (applications, picks) => {
          const credentials = await session.newBusinessUnit();
          for (let i = 0; i < applications; i += 1)
            await transition(
              session,
              await submit(session, credentials, submission()),
              { to: "ACCEPTED_PRIORITY_PROTECTED" },
              credentials,
            );
          const v0 = await list(session, "v0", credentials);
          const chosen = v0.filter((_, i) => picks[i % picks.length]).map((n) => n.notification_id);
          await acknowledge(session, "v0", credentials, chosen);
          const ids = (items: Notification[]) =>
            items
              .map((n) => n.notification_id)
              .sort()
              .join();
          const all = await list(session, "v0", credentials);
          expectThat(
            ids(all) === ids(v0),
            `version 0 without status lists ${all.length} of ${v0.length} notifications after acknowledging ${chosen.length}`,
          );
          expectThat(
            all.every((n) => n.status === (chosen.includes(n.notification_id) ? "ACKNOWLEDGED" : "NEW")),
            "version 0 lists a notification with the wrong status",
          );
          for (const version of ["v0", "v1"] as const) {
            const fresh = await list(session, version, credentials, { status: "NEW" });
            expectThat(
              fresh.every((n) => n.status === "NEW" && !chosen.includes(n.notification_id)),
              `${version} status=NEW lists an acknowledged notification`,
            );
            const done = await list(session, version, credentials, { status: "ACKNOWLEDGED" });
            expectThat(
              ids(done) === [...chosen].sort().join(),
              `${version} status=ACKNOWLEDGED is not the acknowledged notifications`,
            );
          }
          const v1 = await list(session, "v1", credentials);
          expectThat(
            v1.every((n) => n.status === "NEW"),
            "version 1 without status lists an acknowledged notification (its default is NEW)",
          );
        },
      ),
    );
  },
};

/** Strings that are not notification ids: malformed, empty, long, or a UUID nobody issued. */
const strangers = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom("", "not-a-uuid", "../../etc/passwd", "x".repeat(300), "NULL", "' OR 1=1 --"),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.constant(null).map(() => randomUUID()),
);

const acknowledgeAnyId: Property = {
  id: "notifications.any-acknowledge-id",
  rows: ["R015", "R136", "R094", "R017", "R018", "R138"],
  title:
    "acknowledge never fails for an id: unknown or malformed ids are listed in not_found (version 0) or left out (version 1) and the known ones are acknowledged; a body that is not a list of strings is refused (400) and acknowledges nothing",
  requires: ["control-plane"],
  runs: 25,
  async check(context) {
    const { session } = context;
    const nonStrings = fc.constantFrom<unknown>(1, 0, -1.5, null, true, {}, [], { id: "x" });
    await context.assert(
      fc.asyncProperty(
        versions,
        fc.array(strangers, { maxLength: 8 }),
        fc.option(fc.tuple(nonStrings, fc.nat()), { nil: undefined }),
        async (version, odd, refused) => {
          const credentials = await session.newBusinessUnit();
          await transition(
            session,
            await submit(session, credentials, submission()),
            { to: "ACCEPTED_PRIORITY_PROTECTED" },
            credentials,
          );
          const known = (await list(session, "v1", credentials)).map((n) => n.notification_id);
          const ids: unknown[] = [...known, ...odd];
          if (refused) {
            ids.splice(refused[1] % (ids.length + 1), 0, refused[0]);
            const answer = await session.call("POST", `/${version}/notifications/acknowledge`, {
              as: credentials,
              json: { data: ids },
            });
            expectStatus(answer, 400, `acknowledge with ${JSON.stringify(refused[0])} among the ids`);
            expectThat(codeOf(answer) === "400-02", `problem code ${answer.text}`);
            expectThat(
              (await list(session, "v1", credentials)).length === known.length,
              "a refused acknowledge acknowledged something",
            );
            return;
          }
          const answer = await acknowledge(session, version, credentials, ids as string[]);
          expectThat(
            [...answer.acknowledged].sort().join() === [...known].sort().join(),
            `acknowledged ${JSON.stringify(answer.acknowledged)}, not the known ${JSON.stringify(known)}`,
          );
          if (version === "v0") {
            const unknown = [...new Set(odd)];
            expectThat(
              JSON.stringify(answer.not_found) === JSON.stringify(unknown),
              `not_found ${JSON.stringify(answer.not_found)}, not the unknown ids ${JSON.stringify(unknown)}`,
            );
          }
          expectThat((await list(session, "v1", credentials)).length === 0, "a known id was not acknowledged");
        },
      ),
    );
  },
};

/**
 * How many times each of `count` accepted applications' events was delivered, in order, in a new business unit
 * with the duplicate settings `changes` (its own: the draw of a seed is per unit).
 */
async function deliveries(session: Session, count: number, changes: Record<string, unknown>): Promise<number[]> {
  const credentials = await session.newBusinessUnit();
  await settings(session, changes, credentials);
  const counts: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = await submit(session, credentials, submission());
    await transition(session, id, { to: "ACCEPTED_PRIORITY_PROTECTED" }, credentials);
    counts.push((await list(session, "v1", credentials, { subject: id })).length);
  }
  return counts;
}

const seededDuplicates: Property = {
  id: "notifications.seeded-duplicates",
  rows: ["R091", "R092"],
  title:
    "with duplicate_seed set, the same seed and the same actions deliver the same duplicates; duplicate_rate 0 delivers none",
  requires: ["control-plane"],
  runs: 4,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.constantFrom(0, 0.3, 0.5, 0.8),
        async (seed, rate) => {
          const first = await deliveries(session, 6, { duplicate_rate: rate, duplicate_seed: seed });
          const again = await deliveries(session, 6, { duplicate_rate: rate, duplicate_seed: seed });
          expectThat(
            first.join() === again.join(),
            `seed ${seed} at rate ${rate}: deliveries ${first.join()} then ${again.join()}`,
          );
          // One attachment result and one acceptance per application, each delivered once or twice.
          expectThat(
            first.every((n) => n >= 2 && n <= 4),
            `deliveries ${first.join()} are not 2 to 4 notifications an application`,
          );
          if (rate === 0)
            expectThat(
              first.every((n) => n === 2),
              `duplicates at rate 0: ${first.join()}`,
            );
        },
      ),
    );
  },
};

const earlyCompletionDocuments: Property = {
  id: "notifications.early-completion-documents",
  rows: ["R122", "R115", "R121"],
  title:
    "an application completed with early completion receives ECM and ECR in one later correspondence-despatched when the next application of the same title completes (once); one completed without early completion, or another title's completion, receives nothing",
  requires: ["control-plane"],
  runs: 8,
  async check(context) {
    const { session } = context;
    const titleNumbers = fc.integer({ min: 100_000, max: 999_999 }).map((n) => `ZZ${n}`);
    await context.assert(
      fc.asyncProperty(fc.boolean(), titleNumbers, titleNumbers, async (early, title, other) => {
        fc.pre(title !== other);
        const credentials = await session.newBusinessUnit();
        const completed = async (titleNumber: string, earlyCompletion: boolean) => {
          const id = await submit(session, credentials, {
            ...submission(),
            titles: { "title-1": { title_number: titleNumber } },
          });
          await transition(session, id, { to: "ACCEPTED_PRIORITY_PROTECTED" }, credentials);
          await transition(session, id, { to: "COMPLETED", early_completion: earlyCompletion }, credentials);
          return id;
        };
        const despatched = (id: string) =>
          list(session, "v1", credentials, { subject: id, notification_type: "application.correspondence-despatched" });
        const first = await completed(title, early);
        await completed(other, false);
        expectThat((await despatched(first)).length === 0, "correspondence after another title's completion");
        await completed(title, false);
        await completed(title, false);
        const sent = await despatched(first);
        if (!early) {
          expectThat(
            sent.length === 0,
            "early completion documents for an application completed without early completion",
          );
          return;
        }
        expectThat(
          sent.length === 1,
          `${sent.length} correspondence-despatched notifications after two later completions of the title`,
        );
        const codes = (sent[0]?.payload.data as { documents: { type: { code: string } }[] }).documents.map(
          (d) => d.type.code,
        );
        expectThat(codes.join() === "ECM,ECR", `the later correspondence carries ${codes.join()}, not ECM and ECR`);
      }),
    );
  },
};

/** The shapes the strict setting refuses, each with the parameter it is sent in. */
const parameterNames: Record<Version, string[]> = {
  v1: ["created_after", "created_before", "occurred_after", "occurred_before"],
  v0: ["created_after", "created_before", "occured_after", "occured_before"],
};

const strictDateTimes: Property = {
  id: "notifications.strict-date-times",
  rows: ["R093", "R076", "R077", "R079", "R080", "R096"],
  title:
    "with strict_date_times on, a date-time parameter in the requirement's zone-less UTC shape is answered 200 and any other shape 400 (400-02, naming the parameter); with it off every shape is answered 200",
  requires: ["control-plane"],
  runs: 30,
  async check(context) {
    const { session } = context;
    const shapes = fc.constantFrom(...QUERY_SHAPES, "lowerCaseT" as const);
    const instants = fc.integer({ min: Date.UTC(2001, 0, 1), max: Date.UTC(2099, 0, 1) });
    try {
      await context.assert(
        fc.asyncProperty(
          versions,
          fc.nat(3),
          shapes,
          instants,
          fc.boolean(),
          async (version, pick, shape, instant, strict) => {
            await settings(session, { strict_date_times: strict });
            const name = parameterNames[version][pick] as string;
            const value =
              shape === "lowerCaseT"
                ? queryDateTime(instant, "zoneless").replace("T", "t")
                : queryDateTime(instant, shape);
            const answer = await session.call("GET", `/${version}/notifications`, { query: { [name]: value } });
            const safe = shape === "zoneless" || shape === "zonelessMillis";
            if (!strict || safe) {
              expectStatus(answer, 200, `${name}=${value} with strict_date_times ${strict ? "on" : "off"}`);
              return;
            }
            expectStatus(answer, 400, `${name}=${value} with strict_date_times on`);
            const problem = answer.body as { code?: string; errors?: { pointer?: string }[] };
            expectThat(
              problem.code === "400-02" && problem.errors?.some((e) => e.pointer === `/query/${name}`) === true,
              `problem ${answer.text}`,
            );
          },
        ),
      );
    } finally {
      await settings(session, { strict_date_times: false });
    }
  },
};

/** The notifications' behaviours where the requirement is silent, and the sandbox's notification events. */
export const notificationBehaviourProperties: Property[] = [
  v0WithoutDefaultStatus,
  acknowledgeAnyId,
  seededDuplicates,
  earlyCompletionDocuments,
  strictDateTimes,
];
