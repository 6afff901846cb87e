// The fuzzer's set-up through the control plane: two business units, a few records of each (uploads, applications,
// one on the day list with correspondence, a search), and the settings each epoch starts from.
import { randomUUID } from "node:crypto";
import { operationFor } from "@lrg/spec";
import type { Credentials } from "./context.js";
import type { Exchanger } from "./exchange.js";
import { upload } from "./flows.js";
import { jsonOf } from "./oracles.js";
import { correctUpload, type Environment, type FuzzScope } from "./plans.js";

/** Settings in which every operation can succeed: no faults, no duplicates, no latency, decisions made by hand. */
export const QUIET: Environment = { processing: "manual", error_rate: 0, latency_ms: 0, duplicate_rate: 0 };

/** What the set-up works with: the exchanges, the gateway's address, how much it may touch, the user without one. */
export interface SetUp {
  exchanger: Exchanger;
  baseUrl: string;
  scope: FuzzScope;
  /** The user the requests run as, where there is no control plane to create business units. */
  credentials: { username: string; password: string } | undefined;
}

/** The first request example of the operation at this method and path (a scenario of the sandbox names it so). */
const exampleOf = (method: string, path: string): unknown =>
  structuredClone(operationFor(method, path)?.requestBody?.examples[0]);

/** Submits the spec's example application as a unit, naming its documents; answers the application's id. */
async function submit(set: SetUp, owner: "a" | "b", documents: string[]): Promise<string | undefined> {
  const example = exampleOf("POST", "/v0/applications") as { documents: Record<string, { document_id: string }> };
  Object.values(example.documents).forEach(
    (document, index) => (document.document_id = documents[index] ?? document.document_id),
  );
  const who = set.exchanger.context.unitsOrThrow()[owner];
  const answer = await set.exchanger.asUnit(who, "POST", "/v0/applications", example, {
    "idempotency-key": `fuzz-setup-${owner}-${randomUUID()}`,
  });
  if (answer.kind !== "answer") return undefined;
  return (jsonOf(answer.body) as { data?: { application_request_id?: string } } | undefined)?.data
    ?.application_request_id;
}

/** A unit's records: two uploads, two applications, and for unit a correspondence on the first; a search. */
async function recordsOf(set: SetUp, owner: "a" | "b"): Promise<void> {
  const { exchanger } = set;
  const who = exchanger.context.unitsOrThrow()[owner];
  const documents: string[] = [];
  for (const fill of [1, 2]) {
    const id = await upload(exchanger, set.baseUrl, undefined, correctUpload(fill), owner);
    if (id !== undefined) documents.push(id);
    if (id !== undefined) exchanger.context.add(owner, "document", id);
  }
  const applications: string[] = [];
  for (let count = 0; count < 2; count += 1) {
    const id = await submit(set, owner, documents);
    if (id !== undefined) applications.push(id);
  }
  const [first] = applications;
  if (owner === "a" && first !== undefined) {
    // On the day list, so that it has a registry reference and can receive correspondence; its documents' download
    // ids come with the application's information.
    await exchanger.sandbox("POST", `/sandbox/v1/applications/${first}/transitions`, {
      to: "ACCEPTED_PRIORITY_PROTECTED",
    });
    await exchanger.sandbox("POST", `/sandbox/v1/applications/${first}/correspondence`, { documents: ["LTR", "OCR"] });
    await exchanger.asUnit(who, "GET", `/v0/applications/${first}/information`);
  }
  const search = exampleOf("POST", "/api/v1/official-searches-of-whole") as { message_id: string };
  search.message_id = `fuzz-setup-${owner}-${randomUUID()}`;
  const searched = await exchanger.asUnit(who, "POST", "/api/v1/official-searches-of-whole", search);
  if (searched.kind === "answer" && searched.status < 300) exchanger.context.add(owner, "message", search.message_id);
  await exchanger.asUnit(who, "GET", "/v1/notifications?limit=100");
}

/** Creates a business unit through the control plane; throws when the gateway will not. */
async function createUnit(exchanger: Exchanger, name: string): Promise<Credentials> {
  const answer = await exchanger.sandbox("POST", "/sandbox/v1/business-units", { name });
  const body =
    answer.kind === "answer" && answer.status === 201
      ? (jsonOf(answer.body) as { username: string; password: string; business_unit_id: string; sandbox_token: string })
      : undefined;
  if (body === undefined) {
    const why = answer.kind === "answer" ? `${answer.status} ${answer.body.toString("utf8")}` : answer.reason;
    throw new Error(`the fuzzer could not create a business unit: ${why}`);
  }
  return {
    username: body.username,
    password: body.password,
    businessUnitId: body.business_unit_id,
    sandboxToken: body.sandbox_token,
  };
}

/** Two business units and a few records of each, in quiet settings (without a control plane: the user alone). */
export async function prepare(set: SetUp): Promise<void> {
  const { context } = set.exchanger;
  context.clear();
  if (set.scope !== "full") {
    const user = { ...(set.credentials ?? { username: "", password: "" }), businessUnitId: "", sandboxToken: "" };
    context.units = { a: user, b: user };
    return;
  }
  const a = await createUnit(set.exchanger, "Fuzz unit A");
  const b = await createUnit(set.exchanger, "Fuzz unit B");
  context.add("a", "business_unit", a.businessUnitId);
  context.add("b", "business_unit", b.businessUnitId);
  context.units = { a, b };
  await startEpoch(set, QUIET);
  for (const owner of ["a", "b"] as const) await recordsOf(set, owner);
}

/**
 * Puts the gateway in an epoch's settings, the clock back to now and the day list open: the global ones, and each
 * unit's own (a request with a unit's token may have set them).
 */
export async function startEpoch(set: SetUp, environment: Environment): Promise<void> {
  if (set.scope !== "full") return;
  const { exchanger } = set;
  const { context } = exchanger;
  await exchanger.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
  exchanger.settingsFaults = environment.error_rate > 0;
  for (const token of [context.sandboxToken, context.units?.a.sandboxToken, context.units?.b.sandboxToken]) {
    if (token === undefined) continue;
    await exchanger.sandbox("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() }, token);
    const answer = await exchanger.sandbox("PUT", "/sandbox/v1/settings", environment, token);
    exchanger.settingsFaults ||= answer.kind !== "answer" || answer.status !== 200;
    // Title enquiries over the fuzzer's plain HTTP and at any hour, so that they get past the 403 (mutual TLS and
    // the service hours have tests of their own).
    const enquiries = { require_client_certificate: false, service_hours: "always-open" };
    await exchanger.sandbox("PUT", "/sandbox/v1/settings", enquiries, token);
  }
  if (context.units !== undefined) {
    await exchanger.asUnit(context.units.a, "GET", "/v1/notifications?limit=100");
    await exchanger.asUnit(context.units.a, "GET", "/v0/notifications?limit=100&status=ACKNOWLEDGED");
  }
}
