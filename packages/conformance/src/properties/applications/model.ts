// Model-based test of the application lifecycle: submissions (with idempotency), every transition of the
// state machine the spec states (x-lrg-transitions) and every other move refused, the day list closing and
// reopening, correspondence, and application information after each.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  applicationRequestIdOf,
  expectStatus,
  expectThat,
  list,
  requestTransition,
  sameJson,
  sendSubmission,
  submission,
  submit,
  type TransitionResult,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Answer, Credentials, Session } from "../../session.js";
import { enums, transitions } from "@lrg/spec";

interface ApplicationError {
  type: string;
  detail: string;
  pointer: string | null;
}

interface ModelApplication {
  id: string;
  key: string;
  body: Record<string, unknown>;
  status: string;
  /** The registry reference: known, or given by the gateway in a promotion and not read yet. */
  reference: string | null | "assigned";
  errors: ApplicationError[] | "default" | null;
  correspondence: number;
  /** Completed with early completion. */
  early: boolean;
  /** Has received an ECM or ECR document (the registry sends them once, after early completion). */
  earlyDocuments: boolean;
}

interface Model {
  applications: ModelApplication[];
  dayListOpen: boolean;
}

interface Real {
  session: Session;
  credentials: Credentials;
}

type Command = fc.AsyncCommand<Model, Real>;

const TARGETS = [...enums.ApplicationStatus].filter((s) => s !== "VALIDATING");
const legal = (from: string, to: string) => transitions.some((t) => t.from === from && t.to === to);

const fresh = (id: string, key: string, body: Record<string, unknown>): ModelApplication => ({
  id,
  key,
  body,
  status: "VALIDATING",
  reference: null,
  errors: null,
  correspondence: 0,
  early: false,
  earlyDocuments: false,
});

const pickOf = (m: Model, pick: number) => m.applications[pick % m.applications.length] as ModelApplication;

/** Adds to the model the new application that `answer` (202) names: never one the model already holds. */
function admitNew(m: Model, answer: Answer, key: string, body: Record<string, unknown>, what: string): void {
  expectStatus(answer, 202, what);
  const id = applicationRequestIdOf(answer);
  expectThat(!m.applications.some((a) => a.id === id), `${what} answered an existing application_request_id`);
  m.applications.push(fresh(id, key, body));
}

class Submit implements Command {
  constructor(readonly documents: number) {}
  check = (m: Readonly<Model>) => m.applications.length < 6;
  async run(m: Model, r: Real) {
    const key = `conformance-${randomUUID()}`;
    const body = submission({ documents: this.documents });
    admitNew(m, await sendSubmission(r.session, r.credentials, body, key), key, body, "a new submission");
  }
  toString = () => `submit(${this.documents})`;
}

class Resubmit implements Command {
  constructor(
    readonly pick: number,
    readonly changed: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.applications.length > 0;
  async run(m: Model, r: Real) {
    // The key names the latest application submitted with it (a key is released by SYSTEM_ERROR).
    const key = pickOf(m, this.pick).key;
    const application = m.applications.filter((a) => a.key === key).at(-1) as ModelApplication;
    const other = application.body["customer_reference"] === "CONFORMANCE-2" ? "CONFORMANCE-3" : "CONFORMANCE-2";
    const body = this.changed ? { ...application.body, customer_reference: other } : application.body;
    const answer = await sendSubmission(r.session, r.credentials, body, key);
    if (application.status === "SYSTEM_ERROR") {
      // The retry after SYSTEM_ERROR: the key was released, so this is a new application, whatever the body.
      admitNew(m, answer, key, body, "a resubmission after SYSTEM_ERROR");
    } else if (this.changed) {
      expectStatus(answer, 409, "the same Idempotency-Key with another body");
      expectThat((answer.body as { code?: string }).code === "409-01", `problem code ${answer.text}`);
    } else {
      expectStatus(answer, 202, "the same submission again");
      expectThat(
        applicationRequestIdOf(answer) === application.id,
        "a replayed submission answered another application_request_id",
      );
    }
  }
  toString = () => `resubmit(${this.pick}, ${this.changed ? "changed body" : "same body"})`;
}

interface Extras {
  errors: ApplicationError[] | undefined;
  reuseReference: number | undefined;
  earlyCompletion: boolean | undefined;
}

class Move implements Command {
  resolved = "";
  constructor(
    readonly pick: number,
    readonly target: number,
    readonly extras: Extras,
  ) {}
  check = (m: Readonly<Model>) => m.applications.length > 0;
  async run(m: Model, r: Real) {
    const application = pickOf(m, this.pick);
    const to = TARGETS[this.target % TARGETS.length] as string;
    const body: Record<string, unknown> = { to };
    if (to === "VALIDATION_FAILED" && this.extras.errors) body["errors"] = this.extras.errors;
    if (to === "COMPLETED" && this.extras.earlyCompletion !== undefined)
      body["early_completion"] = this.extras.earlyCompletion;
    const holders = m.applications.filter(
      (a) => a !== application && typeof a.reference === "string" && a.reference !== "assigned",
    );
    const taken =
      to === "ACCEPTED_PRIORITY_PROTECTED" && this.extras.reuseReference !== undefined && holders.length > 0
        ? holders[this.extras.reuseReference % holders.length]
        : undefined;
    if (taken) body["registry_reference"] = taken.reference;
    this.resolved = `#${m.applications.indexOf(application)} ${application.status}→${to}${taken ? ` reusing ${String(taken.reference)}` : ""}`;
    const answer = await requestTransition(r.session, application.id, body, r.credentials);
    if (!legal(application.status, to) || taken) {
      expectStatus(answer, 409, this.resolved);
      expectThat((answer.body as { code?: string }).code === "409-03", `problem code ${answer.text}`);
      return;
    }
    expectStatus(answer, 200, this.resolved);
    const result = answer.body as TransitionResult;
    expectThat(
      result.previous_status === application.status && result.status === to,
      `answered ${result.previous_status}→${result.status}`,
    );
    const move = transitions.find((t) => t.from === application.status && t.to === to);
    expectThat(
      result.notifications.some(
        (n) => n.notification_type === move?.notifications.v1 && n.v0_notification_type === move.notifications.v0,
      ),
      `no ${String(move?.notifications.v1)} notification emitted`,
    );
    const onDayList = ["ACCEPTED_PRIORITY_PROTECTED", "COMPLETED", "CANCELLED"].includes(to);
    expectThat(
      onDayList === (result.registry_reference !== undefined),
      `registry_reference ${String(result.registry_reference)} in status ${to}`,
    );
    expectThat(
      onDayList === (result.priority_timestamp !== undefined),
      `priority_timestamp ${String(result.priority_timestamp)} in status ${to}`,
    );
    if (application.reference !== null && application.reference !== "assigned")
      expectThat(result.registry_reference === application.reference, "the registry reference changed");
    if (to === "COMPLETED" || to === "CANCELLED") {
      expectThat((result.documents?.length ?? 0) > 0, "no documents generated");
      application.correspondence += 1;
    }
    application.status = to;
    if (onDayList) application.reference = result.registry_reference ?? null;
    if (to === "COMPLETED") {
      application.early = this.extras.earlyCompletion === true;
      // Every submission names the same title: an earlier early completion now receives its ECM and ECR.
      for (const earlier of m.applications) {
        if (earlier === application || earlier.status !== "COMPLETED" || !earlier.early || earlier.earlyDocuments)
          continue;
        earlier.correspondence += 1;
        earlier.earlyDocuments = true;
      }
    }
    if (to === "VALIDATION_FAILED") application.errors = this.extras.errors ?? "default";
  }
  toString = () => `move(${this.resolved || `${this.pick}, ${this.target}`})`;
}

class DayList implements Command {
  constructor(readonly open: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const waiting = m.applications.filter((a) => a.status === "ACCEPTED_AWAITING_PRIORITY");
    // The registry-wide day list: the admin token's (this command runs in an exclusive session only).
    const state = await r.session.control<{ open: boolean; awaiting_priority: number; promoted?: number }>(
      "PUT",
      "/sandbox/v1/day-list",
      { open: this.open },
      { as: "admin" },
    );
    expectThat(state.open === this.open, `day list answered open=${state.open}`);
    const promoted = this.open ? waiting.length : 0;
    expectThat(
      state.promoted === undefined || state.promoted === promoted,
      `promoted ${String(state.promoted)}, the model expects ${promoted}`,
    );
    expectThat(
      state.awaiting_priority === waiting.length - promoted,
      `awaiting_priority ${state.awaiting_priority}, the model expects ${waiting.length - promoted}`,
    );
    m.dayListOpen = this.open;
    if (!this.open) return;
    for (const application of waiting) {
      application.status = "ACCEPTED_PRIORITY_PROTECTED";
      application.reference = "assigned";
      // The day list reopening emits accepted-priority-protected for each application it promotes.
      const emitted = await list(r.session, "v1", r.credentials, {
        subject: application.id,
        notification_type: "application.accepted-priority-protected",
      });
      expectThat(
        emitted.length === 1,
        `${emitted.length} accepted-priority-protected notifications after the day list reopened`,
      );
    }
  }
  toString = () => `dayList(${this.open ? "open" : "close"})`;
}

class Information implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.applications.length > 0;
  async run(m: Model, r: Real) {
    const application = pickOf(m, this.pick);
    const answer = await r.session.call("GET", `/v0/applications/${application.id}/information`, { as: r.credentials });
    expectStatus(answer, 200, "application information");
    const data = (answer.body as { data: Record<string, unknown> }).data;
    expectThat(
      data["status"] === application.status && data["application_request_id"] === application.id,
      `information says ${String(data["status"])}, the model ${application.status}`,
    );
    const reference = data["registry_reference"] as string | undefined;
    if (application.reference === null)
      expectThat(reference === undefined, `registry_reference ${String(reference)} before the day list`);
    else if (application.reference === "assigned") application.reference = reference ?? null;
    else
      expectThat(
        reference === application.reference,
        `registry_reference ${String(reference)}, the model has ${application.reference}`,
      );
    expectThat(
      (reference !== undefined) === (data["priority_timestamp"] !== undefined),
      "priority_timestamp without registry_reference or the reverse",
    );
    const errors = data["errors"] as ApplicationError[];
    if (application.errors === null)
      expectThat(errors.length === 0, `errors ${JSON.stringify(errors)} without a validation failure`);
    else if (application.errors === "default") expectThat(errors.length > 0, "a validation failure without errors");
    else
      expectThat(
        sameJson(errors, application.errors),
        `errors ${JSON.stringify(errors)}, the transition gave ${JSON.stringify(application.errors)}`,
      );
    expectThat(
      (data["correspondence"] as unknown[]).length === application.correspondence,
      `${(data["correspondence"] as unknown[]).length} correspondence records, the model ${application.correspondence}`,
    );
    expectThat(
      !("was_subject_to_early_completion" in data),
      "application information carries was_subject_to_early_completion",
    );
  }
  toString = () => `information(${this.pick})`;
}

class UnknownInformation implements Command {
  check = () => true;
  async run(_m: Model, r: Real) {
    const answer = await r.session.call("GET", `/v0/applications/${randomUUID()}/information`, { as: r.credentials });
    expectStatus(answer, 404, "information of an unknown application");
  }
  toString = () => "information(unknown)";
}

class Correspondence implements Command {
  constructor(
    readonly pick: number,
    readonly codes: string[],
  ) {}
  check = (m: Readonly<Model>) => m.applications.length > 0;
  async run(m: Model, r: Real) {
    const application = pickOf(m, this.pick);
    const answer = await r.session.sandbox(
      "POST",
      `/sandbox/v1/applications/${application.id}/correspondence`,
      { documents: this.codes },
      r.credentials,
    );
    if (application.reference === null) {
      expectStatus(answer, 409, `correspondence in status ${application.status}`);
      return;
    }
    expectStatus(answer, 201, `correspondence in status ${application.status}`);
    const documents = (answer.body as { documents: { type: { code: string } }[] }).documents;
    expectThat(
      documents.map((d) => d.type.code).join() === this.codes.join(),
      `generated ${documents.map((d) => d.type.code).join()}, asked for ${this.codes.join()}`,
    );
    application.correspondence += 1;
    if (this.codes.some((code) => code === "ECM" || code === "ECR")) application.earlyDocuments = true;
  }
  toString = () => `correspondence(${this.pick}, ${this.codes.join("+")})`;
}

const errorItems = fc.array(
  fc.record({
    type: fc.stringMatching(/^[A-Z]{2}[0-9]{1,6}$/),
    detail: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0),
    pointer: fc.option(fc.constantFrom("/titles/title-1", "/documents/doc-1/document_id"), { nil: null }),
  }),
  { minLength: 1, maxLength: 3 },
);

/** The commands of one business unit's applications, driven through its own unit token. */
const unitCommands = [
  fc.integer({ min: 1, max: 2 }).map((documents) => new Submit(documents)),
  fc.tuple(fc.nat(9), fc.boolean()).map(([pick, changed]) => new Resubmit(pick, changed)),
  fc
    .tuple(
      fc.nat(9),
      fc.nat(20),
      fc.record({
        errors: fc.option(errorItems, { nil: undefined }),
        reuseReference: fc.option(fc.nat(9), { nil: undefined, freq: 3 }),
        earlyCompletion: fc.option(fc.boolean(), { nil: undefined }),
      }),
    )
    .map(([pick, target, extras]) => new Move(pick, target, extras)),
  fc
    .tuple(fc.nat(9), fc.nat(20))
    .map(
      ([pick, target]) =>
        new Move(pick, target, { errors: undefined, reuseReference: undefined, earlyCompletion: undefined }),
    ),
  fc.nat(9).map((pick) => new Information(pick)),
  fc.constant(new UnknownInformation()),
  fc
    .tuple(
      fc.nat(9),
      fc.array(fc.constantFrom(...[...enums.CorrespondenceDocumentTypeCode]), { minLength: 1, maxLength: 2 }),
    )
    .map(([pick, codes]) => new Correspondence(pick, codes)),
];

const registryReferences: Property = {
  id: "applications.registry-reference",
  rows: ["R144", "R022", "R111", "R123"],
  title:
    "a registry reference is 7 characters from A-Z and 0-9: one given on acceptance is kept in application information and both notification versions; any other is refused with 400",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    const credentials = session.credentials;
    const invalid = fc.oneof(
      fc.stringMatching(/^[A-Z0-9]{1,6}$/),
      fc.stringMatching(/^[A-Z0-9]{8,12}$/),
      fc.stringMatching(/^[A-Za-z0-9]{7}$/).filter((s) => /[a-z]/.test(s)),
      fc.stringMatching(/^[A-Z0-9 _-]{7}$/).filter((s) => /[ _-]/.test(s)),
    );
    await context.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.stringMatching(/^[A-Z0-9]{3}$/).map((prefix) => ({ prefix, valid: true })),
          invalid.map((prefix) => ({ prefix, valid: false })),
        ),
        async ({ prefix, valid }) => {
          const id = await submit(session, credentials, submission());
          // A valid reference ends in four characters of this run's own, so no earlier application holds it.
          const reference = valid ? `${prefix}${randomUUID().replace(/-/g, "").slice(0, 4).toUpperCase()}` : prefix;
          const answer = await requestTransition(session, id, {
            to: "ACCEPTED_PRIORITY_PROTECTED",
            registry_reference: reference,
          });
          if (!valid) {
            expectStatus(answer, 400, `registry_reference ${JSON.stringify(reference)}`);
            return;
          }
          expectStatus(answer, 200, `registry_reference ${reference}`);
          const information = await referenceOf(session, credentials, id);
          expectThat(
            information === reference,
            `application information says ${String(information)}, not ${reference}`,
          );
          const accepted = { v1: "application.accepted-priority-protected", v0: "APPLICATION_ACCEPTED_ON_DAY_LIST" };
          for (const version of ["v1", "v0"] as const) {
            const [notification] = await list(session, version, credentials, {
              subject: id,
              notification_type: accepted[version],
            });
            expectThat(
              (notification?.payload.data as { registry_reference?: string } | undefined)?.registry_reference ===
                reference,
              `${version} notification payload names ${JSON.stringify(notification?.payload.data)}`,
            );
          }
        },
      ),
    );
  },
};

async function referenceOf(session: Session, credentials: Credentials, id: string): Promise<string | undefined> {
  const answer = await session.call("GET", `/v0/applications/${id}/information`, { as: credentials });
  expectStatus(answer, 200, "application information");
  return (answer.body as { data: { registry_reference?: string } }).data.registry_reference;
}

export const applicationModel: Property = {
  id: "applications.model",
  rows: [
    "R019",
    "R020",
    "R021",
    "R022",
    "R023",
    "R024",
    "R025",
    "R026",
    "R027",
    "R028",
    "R041",
    "R042",
    "R043",
    "R044",
    "R045",
    "R046",
    "R054",
    "R055",
    "R133",
    "R134",
    "R144",
    "R145",
  ],
  title:
    "applications model: submissions, every legal transition of x-lrg-transitions and every illegal one refused (409-03), correspondence and application information answer as the model predicts (one business unit, through its own unit token)",
  requires: ["control-plane"],
  runs: 50,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(fc.commands(unitCommands, { maxCommands: 50, size: "large" }), async (cmds) => {
        const credentials = await session.newBusinessUnit();
        // The day list is the registry's: open unless a run with the gateway to itself closed it.
        const dayList = await session.control<{ open: boolean }>("GET", "/sandbox/v1/day-list", undefined, {
          as: credentials,
        });
        expectThat(dayList.open, "the registry-wide day list is closed: is another run closing it?");
        await fc.asyncModelRun(
          () => ({ model: { applications: [], dayListOpen: true }, real: { session, credentials } }),
          cmds,
        );
      }),
    );
  },
};

export const dayListModel: Property = {
  id: "applications.day-list-model",
  // The day list's own rows; the model's others are the applications model's too.
  rows: ["R043", "R044", "R047"],
  title:
    "applications model with the day list: the model's submissions, transitions and correspondence interleaved with the registry-wide day list closing and reopening (applications waiting for priority promoted on reopening, with their notification)",
  requires: ["control-plane"],
  exclusive: "the day list is registry-wide",
  runs: 25,
  async check(context) {
    const { session } = context;
    const dayListCommands = [...unitCommands, fc.boolean().map((open) => new DayList(open))];
    await context.assert(
      fc.asyncProperty(fc.commands(dayListCommands, { maxCommands: 50, size: "large" }), async (cmds) => {
        // The day list is shared by every business unit: open it, which also releases anything left waiting.
        const state = await session.control<{ awaiting_priority: number }>(
          "PUT",
          "/sandbox/v1/day-list",
          { open: true },
          { as: "admin" },
        );
        expectThat(
          state.awaiting_priority === 0,
          `${state.awaiting_priority} applications still wait after the day list opened`,
        );
        const credentials = await session.newBusinessUnit();
        await fc.asyncModelRun(
          () => ({ model: { applications: [], dayListOpen: true }, real: { session, credentials } }),
          cmds,
        );
      }),
    );
    await session.control("PUT", "/sandbox/v1/day-list", { open: true }, { as: "admin" });
  },
};

/** Properties of the application model and the day list. */
export const applicationModelProperties: Property[] = [applicationModel, dayListModel, registryReferences];
