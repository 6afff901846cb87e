// Behaviours the registry shows where the requirement is silent, and the sandbox's ways to produce the events an
// integrator must handle: the version 0 list without a default status, acknowledge that never fails for an id,
// the upload's header checks before its size, JSON operations refusing other media types, the retry after
// SYSTEM_ERROR, reproducible duplicates, early completion documents and the strict date-time shape.
import { createHash, randomUUID } from "node:crypto";
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
} from "../driver.js";
import type { Property } from "../property.js";
import type { Answer, Credentials, Session } from "../session.js";
import { MAX_DOCUMENT_BYTES, operations, type Operation as OperationInfo } from "@lrg/spec";

const versions = fc.constantFrom<Version>("v0", "v1");
/** The problem code, or the code of a registry envelope's first item (title enquiries, attach). */
const codeOf = (answer: Answer) => errorOf(answer).code;
const statusOf = async (session: Session, as: Credentials, id: string) => {
  const answer = await session.call("GET", `/v0/applications/${id}/information`, { as });
  expectStatus(answer, 200, "application information");
  return (answer.body as { data: { status: string } }).data.status;
};

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

const contentLengthBeforeSize: Property = {
  id: "documents.content-length-before-size",
  rows: ["R131", "R140", "R057", "R058", "R132"],
  title:
    "an upload whose Content-Length differs from the signed file_length is refused with 403 (403-01) whatever its size, over 41943040 bytes included, and the address stays usable; the signed length is answered 200",
  requires: ["writes", "semantics"],
  runs: 20,
  async check(context) {
    const { session } = context;
    const lengths = fc.oneof(
      fc.integer({ min: 0, max: 4096 }),
      fc.integer({ min: MAX_DOCUMENT_BYTES + 1, max: 2 ** 40 }),
      fc.constantFrom(MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES + 1, MAX_DOCUMENT_BYTES * 10 + 1),
    );
    await context.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 1024 }), lengths, async (raw, declared) => {
        const bytes = Buffer.from(raw);
        const checksum = createHash("sha256").update(bytes).digest("base64");
        const created = await session.call("POST", "/v0/documents/url", {
          json: { data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksum } },
        });
        expectStatus(created, 200, "upload address");
        const url = (created.body as { data: { upload_url: string } }).data.upload_url;
        const headers = { "content-type": "application/octet-stream", "x-provider-checksum-sha256": checksum };
        if (declared !== bytes.length) {
          // A shorter declared length sends that many bytes; a longer one sends all there are (the rest never comes).
          const body = declared < bytes.length ? bytes.subarray(0, declared) : bytes;
          const refused = await session.call("PUT", url, {
            as: null,
            body,
            headers: { ...headers, "content-length": String(declared) },
          });
          expectStatus(refused, 403, `Content-Length ${declared} for a signed file_length of ${bytes.length}`);
          expectThat(codeOf(refused) === "403-01", `problem code ${refused.text}`);
        }
        expectStatus(
          await session.call("PUT", url, { as: null, body: bytes, headers }),
          200,
          "the upload with the signed length",
        );
      }),
    );
  },
};

/** The operations that take a JSON body. */
const jsonOperations = operations.filter(
  (o) =>
    ((o.operation["requestBody"] as { content?: Record<string, unknown> } | undefined)?.content ?? {})[
      "application/json"
    ] !== undefined,
);

/** A path of the operation with its parameters' examples (or a fresh UUID) filled in. */
function pathOf(operation: OperationInfo): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = operation.parameters.find((p) => p["in"] === "path" && p["name"] === name);
    return encodeURIComponent(
      String(
        parameter?.["example"] ?? (parameter?.["schema"] as { example?: unknown } | undefined)?.example ?? randomUUID(),
      ),
    );
  });
}

const jsonMediaType: Property = {
  id: "negative.json-media-type",
  rows: [],
  title:
    "every JSON operation (the control plane's included) answers a body sent as text/plain, XML or a form with 415 (415-01) and changes nothing; the registry's operations take the same body as application/json (never 415)",
  requires: ["semantics", "writes"],
  runs: 60,
  async check(context) {
    const { session } = context;
    const candidates = jsonOperations.filter((o) => o.document === "registry" || session.has("control-plane"));
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...candidates),
        fc.constantFrom(
          "text/plain",
          "text/plain; charset=utf-8",
          "application/xml",
          "application/x-www-form-urlencoded",
          "application/json",
        ),
        async (operation, type) => {
          const media = ((
            operation.operation["requestBody"] as {
              content: Record<string, { examples?: Record<string, { value: unknown }> }>;
            }
          ).content["application/json"]?.examples ?? {}) as Record<string, { value: unknown }>;
          const example = Object.values(media)[0]?.value ?? {};
          // The control plane's example bodies change the sandbox: only the refusals are sent there.
          if (operation.document === "sandbox" && type === "application/json") return;
          const call =
            operation.document === "sandbox" ? session.sandboxCall.bind(session) : session.call.bind(session);
          const required = Object.fromEntries(
            operation.parameters
              .filter((p) => p["in"] === "header" && p["required"] === true)
              .map((p) => [String(p["name"]).toLowerCase(), `conformance-${randomUUID()}`]),
          );
          const answer = await call(operation.method.toUpperCase(), pathOf(operation), {
            body: JSON.stringify(example),
            headers: { ...required, "content-type": type },
          });
          if (type === "application/json") {
            expectThat(answer.status !== 415, `${operation.operationId} refused application/json with 415`);
            return;
          }
          expectStatus(answer, 415, `${operation.operationId} with ${type}`);
          expectThat(codeOf(answer) === "415-01", `problem code ${answer.text}`);
        },
      ),
    );
  },
};

const retryAfterSystemError: Property = {
  id: "applications.retry-after-system-error",
  rows: ["R134", "R045", "R114"],
  title:
    "an application that ended in SYSTEM_ERROR releases its Idempotency-Key: the same key (same body or another) creates a new application; in any other status the key replays (same body) or is refused with 409 (another body)",
  requires: ["control-plane"],
  runs: 12,
  async check(context) {
    const { session } = context;
    // Scheduled through the unit's own token: naming the unit, naming none (its own, for a unit token), or naming
    // another unit (not found: nothing scheduled, the submission stays VALIDATING).
    const outcomes = fc.constantFrom(
      "scheduled",
      "scheduled-unnamed",
      "scheduled-other-unit",
      "transition",
      "VALIDATING",
      "VALIDATION_FAILED",
      "ACCEPTED_PRIORITY_PROTECTED",
    );
    await context.assert(
      fc.asyncProperty(outcomes, fc.boolean(), async (outcome, changed) => {
        const credentials = await session.newBusinessUnit();
        const key = `conformance-${randomUUID()}`;
        const body = submission();
        if (outcome.startsWith("scheduled")) {
          const named =
            outcome === "scheduled"
              ? credentials.business_unit_id
              : outcome === "scheduled-other-unit"
                ? session.credentials.business_unit_id
                : undefined;
          const answer = await session.sandbox(
            "POST",
            "/sandbox/v1/system-errors",
            named === undefined ? {} : { business_unit_id: named },
            credentials,
          );
          if (outcome === "scheduled-other-unit") {
            expectStatus(answer, 404, "system errors for another business unit with a unit token");
            expectThat(codeOf(answer) === "404-01", `problem code ${answer.text}`);
          } else {
            expectStatus(answer, 200, `system errors (${outcome})`);
            const scheduled = answer.body as { business_unit_id: string | null; pending: number };
            expectThat(scheduled.pending >= 1, `${scheduled.pending} system errors pending after scheduling one`);
            expectThat(
              scheduled.business_unit_id === credentials.business_unit_id,
              `a unit token scheduled system errors for ${String(scheduled.business_unit_id)}, not its own unit`,
            );
          }
        }
        const first = await submit(session, credentials, body, key);
        if (outcome === "transition") await transition(session, first, { to: "SYSTEM_ERROR" }, credentials);
        else if (outcome === "VALIDATION_FAILED" || outcome === "ACCEPTED_PRIORITY_PROTECTED")
          await transition(session, first, { to: outcome }, credentials);
        const failed = outcome === "scheduled" || outcome === "scheduled-unnamed" || outcome === "transition";
        const expected = failed ? "SYSTEM_ERROR" : outcome === "scheduled-other-unit" ? "VALIDATING" : outcome;
        expectThat(
          (await statusOf(session, credentials, first)) === expected,
          `the first application is not ${expected}`,
        );
        if (failed)
          expectThat(
            (await list(session, "v1", credentials, { subject: first, notification_type: "application.error" }))
              .length === 1,
            "no application.error notification",
          );

        const again = await session.call("POST", "/v0/applications", {
          as: credentials,
          json: changed ? { ...body, customer_reference: "CONFORMANCE-2" } : body,
          headers: { "idempotency-key": key },
        });
        if (!failed && changed) {
          expectStatus(again, 409, `the same key with another body while ${outcome}`);
          expectThat(codeOf(again) === "409-01", `problem code ${again.text}`);
          return;
        }
        expectStatus(again, 202, `the same key again after ${outcome}`);
        const id = (again.body as { data: { application_request_id: string } }).data.application_request_id;
        if (!failed) {
          expectThat(id === first, `the same key and body while ${outcome} answered another application`);
          return;
        }
        expectThat(id !== first, "the retry after SYSTEM_ERROR replayed the failed application");
        expectThat(
          (await statusOf(session, credentials, id)) === "VALIDATING",
          "the retry is not a new application in VALIDATING",
        );
        expectThat((await statusOf(session, credentials, first)) === "SYSTEM_ERROR", "the failed application changed");
        const replay = await submit(
          session,
          credentials,
          changed ? { ...body, customer_reference: "CONFORMANCE-2" } : body,
          key,
        );
        expectThat(replay === id, "the released key does not name the new application");
      }),
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

/** The properties of the registry's behaviours where the requirement is silent, and of the sandbox's events. */
export const registryBehaviourProperties: Property[] = [
  v0WithoutDefaultStatus,
  acknowledgeAnyId,
  contentLengthBeforeSize,
  jsonMediaType,
  retryAfterSystemError,
  seededDuplicates,
  earlyCompletionDocuments,
  strictDateTimes,
];
