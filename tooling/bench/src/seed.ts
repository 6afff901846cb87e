// Seeds a gateway data directory with a large, realistic data set: business units with one user each, applications
// and the notifications their lifecycles emit, spread over the last three weeks by the gateway's clock.
// `npm run seed` (in this package) seeds the benchmark's default data directory; see README.md.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { openSqlite } from "@lrg/gateway/sqlite";
import { startTestGateway } from "@lrg/gateway/testing";
import { openapi } from "@lrg/spec";
import {
  hashPassword,
  notificationsFor,
  type ApplicationEvent,
  type CorrespondenceDocument,
} from "./gateway-internals.js";
import { benchOptions, progress } from "./options.js";
import { seededRandom } from "./random.js";

/** What to seed. */
export interface SeedPlan {
  dataDir: string;
  units: number;
  notifications: number;
  busyUnits: number;
  busyShare: number;
}

/** Written beside the database: what was seeded, when, and how to log in. */
export interface SeedManifest extends SeedPlan {
  formatVersion: number;
  /** The gateway clock when the data set was seeded; every seeded acknowledgement is earlier. */
  seededAtMs: number;
  /** The one password every seeded user has (its scrypt hash is computed once and shared). */
  password: string;
  /** Seeded users in unit order; the first `busyUnits` are the busy ones. */
  users: { username: string; businessUnitId: string }[];
  counts: { applications: number; notifications: number; newNotifications: number; labelledApplications: number };
  seconds: number;
}

/** Bumped whenever the shape of the seeded data changes, so that older data sets are seeded again. */
export const SEED_FORMAT_VERSION = 2;
const MANIFEST = "bench-manifest.json";
const DAY_MS = 86_400_000;
const SPREAD_MS = 21 * DAY_MS;
const INSERT_CHUNK = 50_000;
const DUPLICATE_RATE = 0.03;
const LABELLED_SHARE = 0.1;
const LABELS = ["branch-leeds", "remortgage-desk", "commercial-team"];

/** Deterministic, so that two seeds of the same plan look alike. */
const generator = seededRandom;

type Random = () => number;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const hex = (random: Random, length: number) =>
  Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join("");
const uuid = (random: Random) =>
  `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${"89ab"[between(random, 0, 3)]}${hex(random, 3)}-${hex(random, 12)}`;

interface SpecDocument {
  components: { schemas: Record<string, Record<string, unknown>>; examples: Record<string, { value: unknown }> };
}
const spec = openapi as unknown as SpecDocument;
const DOCUMENT_NAMES = spec.components.schemas["CorrespondenceDocumentTypeCode"]?.["x-lrg-code-names"] as Record<
  string,
  string
>;
const SUBMISSION_EXAMPLE = spec.components.examples["application-submission"]?.value as Record<string, unknown>;
/** The correspondence codes of the letters the seeded applications get. */
type DocumentCode = CorrespondenceDocument["type"]["code"];
const LETTERS: DocumentCode[] = ["LTR", "ROA", "OCR", "LRP"];

/** One event of an application's life, with when it happened and whether it was delivered twice. */
interface PlannedEvent {
  event: ApplicationEvent;
  atMs: number;
  duplicate: boolean;
}

interface PlannedApplication {
  id: string;
  unit: number;
  label: string | null;
  status: string;
  registryReference: string | null;
  priorityMs: number | null;
  startMs: number;
  events: PlannedEvent[];
  documentIds: string[];
  earlyCompletion: boolean;
}

const STATUS_AFTER: Partial<Record<ApplicationEvent["kind"], string>> = {
  "accepted-priority-pending": "ACCEPTED_AWAITING_PRIORITY",
  "accepted-priority-protected": "ACCEPTED_PRIORITY_PROTECTED",
  "validation-failed": "VALIDATION_FAILED",
  error: "SYSTEM_ERROR",
  completed: "COMPLETED",
  cancelled: "CANCELLED",
};

/**
 * The life of one application as the simulated registry would drive it: document checks, a decision (mostly
 * acceptance, some through the day-list queue), correspondence, and completion or cancellation. Events later than
 * `nowMs` have not happened yet; at most `maxRows` notifications are emitted (a duplicate counts twice).
 */
function planApplication(
  random: Random,
  index: number,
  unit: number,
  nowMs: number,
  maxRows: number,
): PlannedApplication {
  const startMs = nowMs - SPREAD_MS + Math.floor(random() * (SPREAD_MS - 10 * 60_000));
  const registryReference = `B${index.toString(36).toUpperCase().padStart(6, "0")}`;
  const documentIds = Array.from({ length: between(random, 2, 5) }, () => uuid(random));
  const planned: { event: ApplicationEvent; atMs: number }[] = [];
  let at = startMs;
  const later = (lowMs: number, highMs: number) => (at += between(random, lowMs, highMs));
  const correspondence = (): CorrespondenceDocument[] =>
    Array.from({ length: between(random, 1, 2) }, () => {
      const code = LETTERS[between(random, 0, LETTERS.length - 1)] as DocumentCode;
      return {
        type: { code, name: (DOCUMENT_NAMES[code] ?? code).toUpperCase() },
        created_at: new Date(at).toISOString(),
        download_id: hex(random, 64),
      };
    });

  const failedDocument = random() < 0.05 ? between(random, 0, documentIds.length - 1) : -1;
  documentIds.forEach((documentId, i) => {
    later(2_000, 30_000);
    planned.push({
      event:
        i === failedDocument
          ? { kind: "attachment-failed", documentId, failureReason: "The file is password-protected." }
          : { kind: "attachment-success", documentId },
      atMs: at,
    });
  });
  let priorityMs: number | null = null;
  let earlyCompletion = false;
  const decision = random();
  later(60_000, 3_600_000);
  if (failedDocument >= 0 || decision < 0.06) {
    planned.push({ event: { kind: "validation-failed" }, atMs: at });
  } else if (decision < 0.08) {
    planned.push({ event: { kind: "error" }, atMs: at });
  } else {
    if (decision < 0.35) {
      planned.push({ event: { kind: "accepted-priority-pending" }, atMs: at });
      later(3_600_000, 16 * 3_600_000);
    }
    priorityMs = at;
    planned.push({ event: { kind: "accepted-priority-protected", registryReference, priorityMs: at }, atMs: at });
    for (let letters = between(random, 1, 6); letters > 0; letters -= 1) {
      later(3_600_000, 48 * 3_600_000);
      planned.push({
        event: { kind: "correspondence-despatched", registryReference, documents: correspondence() },
        atMs: at,
      });
    }
    const ending = random();
    later(3_600_000, 72 * 3_600_000);
    if (ending < 0.65) {
      earlyCompletion = random() < 0.1;
      const documents = (["CMT", "REG"] as const).map((code) => ({
        type: { code, name: (DOCUMENT_NAMES[code] ?? code).toUpperCase() },
        created_at: new Date(at).toISOString(),
        download_id: hex(random, 64),
      }));
      planned.push({ event: { kind: "completed", registryReference, documents, earlyCompletion }, atMs: at });
    } else if (ending < 0.75) {
      const documents = [
        {
          type: { code: "CAN" as const, name: (DOCUMENT_NAMES["CAN"] ?? "CAN").toUpperCase() },
          created_at: new Date(at).toISOString(),
          download_id: hex(random, 64),
        },
      ];
      planned.push({ event: { kind: "cancelled", registryReference, documents }, atMs: at });
    }
  }

  const events: PlannedEvent[] = [];
  let rows = 0;
  for (const { event, atMs } of planned) {
    if (atMs > nowMs || rows >= maxRows) break;
    const duplicate = random() < DUPLICATE_RATE && rows + 2 <= maxRows;
    events.push({ event, atMs, duplicate });
    rows += duplicate ? 2 : 1;
  }
  let status = "VALIDATING";
  for (const { event } of events) status = STATUS_AFTER[event.kind] ?? status;
  const accepted = events.some(({ event }) => event.kind === "accepted-priority-protected");
  return {
    id: uuid(random),
    unit,
    label: random() < LABELLED_SHARE ? (LABELS[between(random, 0, LABELS.length - 1)] as string) : null,
    status,
    registryReference: accepted ? registryReference : null,
    priorityMs: accepted ? priorityMs : null,
    startMs,
    events,
    documentIds,
    earlyCompletion: earlyCompletion && status === "COMPLETED",
  };
}

const rowsOf = (application: PlannedApplication) =>
  application.events.reduce((sum, e) => sum + (e.duplicate ? 2 : 1), 0);

/** How many notifications each unit gets: the busy ones share `busyShare` of them, the rest share what is left. */
function quotas(plan: SeedPlan): number[] {
  const busyTotal =
    plan.busyUnits === plan.units ? plan.notifications : Math.round(plan.notifications * plan.busyShare);
  const quietTotal = plan.notifications - busyTotal;
  const quietUnits = plan.units - plan.busyUnits;
  return Array.from({ length: plan.units }, (_, unit) => {
    const [total, count, first] =
      unit < plan.busyUnits ? [busyTotal, plan.busyUnits, 0] : [quietTotal, quietUnits, plan.busyUnits];
    const i = unit - first;
    return Math.floor(((i + 1) * total) / count) - Math.floor((i * total) / count);
  });
}

function submissionOf(application: PlannedApplication, index: number): Record<string, unknown> {
  const keys = application.documentIds.map((_, i) => `doc-${i + 1}`);
  return {
    ...SUBMISSION_EXAMPLE,
    customer_reference: `CASE-${String(index).padStart(7, "0")}`,
    ...(application.label ? { additional_provider_filter: application.label } : {}),
    transactions: {
      transfer: {
        type: "T",
        priority: 1,
        title_keys: ["title-1"],
        party_keys: ["buyer-1"],
        document_keys: keys,
        fee_in_pence: 15000,
      },
    },
    documents: Object.fromEntries(
      keys.map((key, i) => [key, { type: i === 0 ? "TR1" : "AP1", document_id: application.documentIds[i] }]),
    ),
  };
}

/** Reads the manifest of a seeded data directory, if there is one. */
export function readManifest(dataDir: string): SeedManifest | undefined {
  const path = join(dataDir, MANIFEST);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")) as SeedManifest;
}

/**
 * Seeds `plan.dataDir` from scratch: the gateway migrates it once (started by startTestGateway), then units, users,
 * applications and notifications are bulk-inserted with prepared statements in large transactions.
 */
export async function seed(plan: SeedPlan): Promise<SeedManifest> {
  const started = Date.now();
  rmSync(plan.dataDir, { recursive: true, force: true });
  progress(`seed: migrating a new data directory ${plan.dataDir}`);
  const migrating = await startTestGateway({ dataDir: plan.dataDir, demoUser: null, decisionDelayMs: 2000 });
  const nowMs = migrating.gateway.clock.nowMs();
  await migrating.stop();

  const password = randomBytes(18).toString("base64url");
  const passwordHash = await hashPassword(password);
  const random = generator(0x1a2b3c4d);
  const users = Array.from({ length: plan.units }, (_, unit) => ({
    username: `bench-${String(unit).padStart(4, "0")}`,
    businessUnitId: uuid(random),
  }));

  const db = openSqlite(join(plan.dataDir, "gateway.sqlite"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF"); // a seed that crashes is simply run again
  db.pragma("cache_size = -1048576");
  db.pragma("foreign_keys = ON");

  const insertUnit = db.prepare("INSERT INTO business_units (id, name, created_ms) VALUES (?, ?, ?)");
  const insertUser = db.prepare(
    "INSERT INTO users (username, business_unit_id, password_hash, created_ms) VALUES (?, ?, ?, ?)",
  );
  db.transaction(() => {
    users.forEach((user, unit) => {
      const createdMs = nowMs - SPREAD_MS - DAY_MS;
      insertUnit.run(
        user.businessUnitId,
        `Bench business unit ${unit}${unit < plan.busyUnits ? " (busy)" : ""}`,
        createdMs,
      );
      insertUser.run(user.username, user.businessUnitId, passwordHash, createdMs);
    });
  })();
  progress(`seed: ${plan.units} business units and users (one shared scrypt hash)`);

  // Plan every application first, then emit their notifications in creation order across all units, as a real
  // gateway's table fills up (one unit's rows interleaved with everyone else's).
  const applications: PlannedApplication[] = [];
  quotas(plan).forEach((quota, unit) => {
    for (let rows = 0; rows < quota;) {
      const application = planApplication(random, applications.length, unit, nowMs, quota - rows);
      rows += rowsOf(application);
      applications.push(application);
    }
  });
  progress(`seed: planned ${applications.length.toLocaleString("en")} applications; inserting them`);
  const insertApplication = db.prepare(
    `INSERT INTO applications (id, business_unit_id, status, registry_reference, priority_ms, additional_provider_filter, submission, errors, warnings, early_completion, created_ms, updated_ms, decide_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  );
  db.transaction(() => {
    applications.forEach((application, index) => {
      const errors =
        application.status === "VALIDATION_FAILED"
          ? [
              {
                type: "sandbox-validation-failure",
                detail: "the sandbox failed the application's validation",
                pointer: null,
              },
            ]
          : [];
      const warnings =
        application.status === "SYSTEM_ERROR"
          ? ["The application could not be added to the day list because of a system error."]
          : [];
      const updatedMs = application.events.at(-1)?.atMs ?? application.startMs;
      insertApplication.run(
        application.id,
        (users[application.unit] as { businessUnitId: string }).businessUnitId,
        application.status,
        application.registryReference,
        application.priorityMs,
        application.label,
        JSON.stringify(submissionOf(application, index)),
        JSON.stringify(errors),
        JSON.stringify(warnings),
        application.earlyCompletion ? 1 : 0,
        application.startMs,
        updatedMs,
      );
    });
  })();
  progress(`seed: ${applications.length.toLocaleString("en")} applications inserted`);

  const order: { app: number; event: number; atMs: number }[] = [];
  applications.forEach((application, app) =>
    application.events.forEach((e, event) => order.push({ app, event, atMs: e.atMs })),
  );
  order.sort((a, b) => a.atMs - b.atMs || a.app - b.app || a.event - b.event);

  const insertNotification = db.prepare(
    `INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, additional_provider_filter)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertStatus = db.prepare(
    "INSERT INTO notification_status (business_unit_id, status, created_ms, seq, acknowledged_ms) VALUES (?, ?, ?, ?, ?)",
  );
  let written = 0;
  let fresh = 0;
  const insertChunk = db.transaction((chunk: typeof order) => {
    for (const { app, event } of chunk) {
      const application = applications[app] as PlannedApplication;
      const planned = application.events[event] as PlannedEvent;
      const owner = {
        id: application.id,
        businessUnitId: (users[application.unit] as { businessUnitId: string }).businessUnitId,
        additionalProviderFilter: application.label,
      };
      for (const row of notificationsFor(
        owner,
        planned.event,
        { eventMs: planned.atMs, createdMs: planned.atMs },
        () => planned.duplicate,
      )) {
        // Consumers lag: a few recent notifications are acknowledged already, older ones more often. The NEW ones
        // are what the benchmark lists and acknowledges.
        const acknowledged = random() < (nowMs - row.createdMs > 7 * DAY_MS ? 0.4 : 0.05);
        if (!acknowledged) fresh += 1;
        const { lastInsertRowid: seq } = insertNotification.run(
          row.id,
          row.businessUnitId,
          row.applicationId,
          row.v1Type,
          row.v0Type,
          JSON.stringify(row.v1Payload),
          row.v0Payload === null ? null : JSON.stringify(row.v0Payload),
          row.v1Schema,
          row.v0Schema,
          row.eventMs,
          row.createdMs,
          row.additionalProviderFilter,
        );
        insertStatus.run(
          row.businessUnitId,
          acknowledged ? "ACKNOWLEDGED" : "NEW",
          row.createdMs,
          seq,
          acknowledged ? Math.min(nowMs - 1, row.createdMs + between(random, 60_000, 2 * 3_600_000)) : null,
        );
        written += 1;
      }
    }
  });
  for (let i = 0; i < order.length; i += INSERT_CHUNK) {
    insertChunk(order.slice(i, i + INSERT_CHUNK));
    const seconds = (Date.now() - started) / 1000;
    progress(
      `seed: ${written.toLocaleString("en")} / ${plan.notifications.toLocaleString("en")} notifications (${seconds.toFixed(1)} s)`,
    );
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();

  const manifest: SeedManifest = {
    ...plan,
    formatVersion: SEED_FORMAT_VERSION,
    seededAtMs: nowMs,
    password,
    users,
    counts: {
      applications: applications.length,
      notifications: written,
      newNotifications: fresh,
      labelledApplications: applications.filter((a) => a.label !== null).length,
    },
    seconds: (Date.now() - started) / 1000,
  };
  writeFileSync(join(plan.dataDir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  progress(
    `seed: done in ${manifest.seconds.toFixed(1)} s (${fresh.toLocaleString("en")} NEW, ${(written - fresh).toLocaleString("en")} ACKNOWLEDGED)`,
  );
  return manifest;
}

/** Seeds again when the data directory holds no data set of this plan, or one old enough to have aged out. */
export async function ensureSeeded(plan: SeedPlan, force: boolean): Promise<SeedManifest> {
  const manifest = readManifest(plan.dataDir);
  const matches =
    manifest !== undefined &&
    manifest.formatVersion === SEED_FORMAT_VERSION &&
    manifest.units === plan.units &&
    manifest.notifications === plan.notifications &&
    manifest.busyUnits === plan.busyUnits &&
    manifest.busyShare === plan.busyShare &&
    existsSync(join(plan.dataDir, "gateway.sqlite"));
  // Retention is one month: after a few days the three-week spread would no longer be what was measured before.
  const fresh = manifest !== undefined && Date.now() - manifest.seededAtMs < 3 * DAY_MS;
  if (manifest && matches && fresh && !force) {
    progress(`seed: reusing ${plan.dataDir} (seeded ${new Date(manifest.seededAtMs).toISOString()})`);
    return manifest;
  }
  return seed(plan);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const options = benchOptions();
  await seed({
    dataDir: options.dataDir,
    units: options.units,
    notifications: options.notifications,
    busyUnits: options.busyUnits,
    busyShare: options.busyShare,
  });
}
