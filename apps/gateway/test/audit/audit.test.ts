import { randomUUID } from "node:crypto";
import { operationById, operationsOf } from "@lrg/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ENTRIES_KEPT_PER_ACTOR, AuditTrail } from "../../src/audit/trail.js";
import type { SandboxComponents } from "../../src/operation-types.js";
import { SANDBOX_TOKEN, startGateway, type Answer, type TestGateway } from "../support/gateway.js";

type Entry = SandboxComponents["schemas"]["SandboxAuditEntry"];

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw.stop();
});

/** Every entry recorded after the one numbered `after` that matches `query`, read page by page (oldest first). */
async function entries(query = "", after = 0): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor = after;
  for (;;) {
    const answer = await gw.sandbox("GET", `/sandbox/v1/audit?after=${cursor}&limit=100${query}`);
    expect(answer.status).toBe(200);
    const page = (answer.body as { data: Entry[] }).data;
    all.push(...page);
    const last = page.at(-1);
    if (page.length < 100 || !last) return all;
    cursor = last.sequence;
  }
}

/** The newest entry's sequence: a test reads what it caused after it. */
async function newest(): Promise<number> {
  return (await entries()).at(-1)?.sequence ?? 0;
}

/** A control-plane request with another token than the admin's (none when null). */
function withToken(token: string | null, method: string, path: string, body?: unknown): Promise<Answer> {
  return gw.call(method, path, {
    as: null,
    ...(token !== null ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

const summary = (entry: Entry) => [entry.operation_id, entry.actor.kind, entry.status, entry.problem_code];

describe("the audit trail of the control plane", () => {
  it("records each change with the admin as actor, what it asked, its result and both instants", async () => {
    const after = await newest();
    const wallBefore = Date.now();
    const answers: Answer[] = [];
    const step = async (method: string, path: string, body?: unknown) => {
      const answer = await gw.sandbox(method, path, body);
      answers.push(answer);
      return answer;
    };
    const transitionPath = `/sandbox/v1/applications/${randomUUID()}/transitions`;
    await step("PUT", "/sandbox/v1/clock", { now: "2030-01-01T00:00:00Z" });
    await step("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
    const created = await step("POST", "/sandbox/v1/business-units", { name: "Audited unit" });
    await step("PUT", "/sandbox/v1/day-list", { open: false });
    await step("POST", "/sandbox/v1/clock/advance", { seconds: 3600 });
    await step("POST", transitionPath, { to: "SYSTEM_ERROR" });
    await step("POST", `/sandbox/v1/applications/${randomUUID()}/correspondence`, { documents: ["LTR"] });
    await step("POST", "/sandbox/v1/system-errors", { count: 2 });
    // Reads change nothing and are not recorded.
    await gw.sandbox("GET", "/sandbox/v1/clock");
    await gw.sandbox("GET", "/sandbox/v1/settings");
    const wallAfter = Date.now();

    const recorded = await entries("", after);
    expect(recorded.map((entry) => [entry.operation_id, entry.method, entry.status, entry.problem_code])).toEqual([
      ["setClock", "PUT", 200, null],
      ["updateSettings", "PUT", 200, null],
      ["createBusinessUnit", "POST", 201, null],
      ["setDayList", "PUT", 200, null],
      ["advanceClock", "POST", 200, null],
      ["transitionApplication", "POST", 404, "404-01"],
      ["despatchCorrespondence", "POST", 404, "404-01"],
      ["scheduleSystemErrors", "POST", 200, null],
    ]);
    for (const [index, entry] of recorded.entries()) {
      expect(entry.actor).toEqual({ kind: "admin", business_unit_id: null });
      expect(entry.request_id).toBe(answers[index]?.headers.get("x-request-id"));
      expect(Date.parse(entry.recorded_at)).toBeGreaterThanOrEqual(wallBefore);
      expect(Date.parse(entry.recorded_at)).toBeLessThanOrEqual(wallAfter);
    }
    expect(recorded[1]?.request_body).toEqual({ processing: "manual", duplicate_rate: 0 });
    expect(recorded[2]?.request_body).toEqual({ name: "Audited unit" });
    expect(recorded[5]?.path).toBe(transitionPath);
    expect(recorded[5]?.request_body).toEqual({ to: "SYSTEM_ERROR" });
    // The sandbox clock: 2030 from the clock change on, an hour later from the advance on.
    const year2030 = Date.parse("2030-01-01T00:00:00Z");
    const elapsed = wallAfter - wallBefore;
    const clockAt = recorded.map((entry) => Date.parse(entry.sandbox_clock_at));
    for (const ms of clockAt.slice(0, 4)) expect(ms - year2030).toBeGreaterThanOrEqual(0);
    for (const ms of clockAt.slice(0, 4)) expect(ms - year2030).toBeLessThanOrEqual(elapsed);
    for (const ms of clockAt.slice(4)) expect(ms - year2030).toBeGreaterThanOrEqual(3_600_000);
    // The password of the new unit is in its answer only.
    expect(JSON.stringify(recorded)).not.toContain((created.body as { password: string }).password);
  });

  it("records refused credentials as an unknown actor, on reads too, and never a token or password", async () => {
    const after = await newest();
    const wrong = `wrong-${randomUUID()}`;
    expect((await withToken(wrong, "POST", "/sandbox/v1/reset")).status).toBe(401);
    expect((await withToken(wrong, "GET", "/sandbox/v1/audit")).status).toBe(401);
    const body = { processing: "manual", password: "hunter2-password" };
    expect((await withToken(null, "PUT", "/sandbox/v1/settings", body)).status).toBe(401);

    const recorded = await entries("", after);
    expect(recorded.map(summary)).toEqual([
      ["resetSandbox", "unknown", 401, "401-01"],
      ["listAuditEntries", "unknown", 401, "401-01"],
      ["updateSettings", "unknown", 401, "401-01"],
    ]);
    expect(recorded.map((entry) => entry.actor.business_unit_id)).toEqual([null, null, null]);
    // Credentials are checked before a body is read: a refused caller's body is never read, so never recorded.
    expect(recorded[2]?.request_body).toBeNull();
    const text = JSON.stringify(recorded);
    for (const secret of [wrong, SANDBOX_TOKEN, "hunter2"]) expect(text).not.toContain(secret);
    expect((await entries("&actor=unknown", after)).map(summary)).toEqual(recorded.map(summary));
  });

  it("records a change whose body could not be read as its actor: the token is checked before the body is read", async () => {
    const after = await newest();
    const answer = await gw.call("PUT", "/sandbox/v1/settings", {
      as: null,
      headers: { authorization: `Bearer ${SANDBOX_TOKEN}`, "content-type": "application/json" },
      rawBody: "{not json",
    });
    expect(answer.status).toBe(400);
    expect((await entries("", after)).map(summary)).toEqual([["updateSettings", "admin", 400, "400-03"]]);
  });

  it("keeps the trail across a reset, and records the reset", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
    const before = await entries();
    expect((await gw.sandbox("POST", "/sandbox/v1/reset")).status).toBe(204);
    const after = await entries();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map(summary)).toEqual([["resetSandbox", "admin", 204, null]]);
  });

  it("pages oldest first with after and limit, and filters by operation, actor, business unit and instant", async () => {
    const after = await newest();
    for (let i = 0; i < 5; i += 1) await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: i % 2 === 0 });
    await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 0 });
    const all = await entries("", after);
    expect(all.map((entry) => entry.operation_id)).toEqual([...Array(5).fill("setDayList"), "advanceClock"]);

    const paged: Entry[] = [];
    let cursor = after;
    for (;;) {
      const page = (await gw.sandbox("GET", `/sandbox/v1/audit?after=${cursor}&limit=2`)).body as { data: Entry[] };
      expect(page.data.length).toBeLessThanOrEqual(2);
      const last = page.data.at(-1);
      if (!last) break;
      paged.push(...page.data);
      cursor = last.sequence;
    }
    expect(paged).toEqual(all);
    const sequences = all.map((entry) => entry.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));

    expect(await entries("&operation_id=setDayList", after)).toEqual(all.slice(0, 5));
    expect(await entries("&actor=admin", after)).toEqual(all);
    expect(await entries("&actor=unit", after)).toEqual([]);
    expect(await entries(`&business_unit_id=${randomUUID()}`, after)).toEqual([]);
    const pivot = all[2]?.recorded_at ?? "";
    const later = await entries(`&recorded_after=${encodeURIComponent(pivot)}`, after);
    expect(later).toEqual(all.filter((entry) => entry.recorded_at > pivot));
  });

  it.each([
    ["limit=0", "400-02"],
    ["limit=101", "400-02"],
    ["limit=ten", "400-02"],
    ["after=-1", "400-02"],
    ["operation_id=bad%20id", "400-02"],
    ["actor=robot", "400-02"],
    ["business_unit_id=not-a-uuid", "400-02"],
    ["recorded_after=2026-11-22", "400-02"],
    ["recorded_after=2026-02-30T00%3A00%3A00Z", "400-02"],
    ["colour=red", "400-04"],
  ])("refuses ?%s with a documented 400 (%s), and records no read", async (query, code) => {
    const after = await newest();
    const answer = await gw.sandbox("GET", `/sandbox/v1/audit?${query}`);
    expect(answer.status).toBe(400);
    expect((answer.body as { code: string }).code).toBe(code);
    expect(await entries("", after)).toEqual([]);
  });

  it("records every operation of sandbox.yaml: each change by the admin, and refused credentials on every operation", async () => {
    const operations = operationsOf("sandbox");
    expect(operations.map((operation) => operation.operationId)).toContain("listAuditEntries");
    for (const operation of operations) {
      const path = operation.path.replace(/\{\w+\}/g, () => randomUUID());
      const example = operation.requestBody?.examples[0];
      let after = await newest();
      const refused = await withToken(`wrong-${operation.operationId}`, operation.method, path, example);
      expect(refused.status, operation.operationId).toBe(401);
      expect((await entries("", after)).map(summary), operation.operationId).toEqual([
        [operation.operationId, "unknown", 401, "401-01"],
      ]);

      after = await newest();
      const answer = await gw.sandbox(operation.method, path, example);
      expect(answer.status, operation.operationId).toBeLessThan(500);
      expect((await entries("", after)).map(summary), operation.operationId).toEqual(
        operation.method === "GET"
          ? []
          : [
              [
                operation.operationId,
                "admin",
                answer.status,
                answer.status < 400 ? null : (answer.body as { code: string }).code,
              ],
            ],
      );
    }
  });

  it("keeps per actor the number of entries the spec states", () => {
    const description = String(operationById("listAuditEntries").operation["description"]);
    expect(description).toContain(`the newest ${AUDIT_ENTRIES_KEPT_PER_ACTOR.toLocaleString("en-GB")} entries are`);
  });

  it("lists a business unit's reader only that unit's own actions", async () => {
    const { storage } = gw.gateway;
    const trail = new AuditTrail(storage, () => gw.gateway.clock.nowMs());
    const [a, b] = [randomUUID(), randomUUID()];
    const row = (unit: string) => ({
      recordedMs: Date.now(),
      clockMs: Date.now(),
      actorKind: "unit" as const,
      actorUnit: unit,
      operationId: "updateSettings",
      method: "PUT",
      path: "/sandbox/v1/settings",
      requestBody: { processing: "manual" },
      status: 200,
      problemCode: null,
      requestId: "req-unit",
    });
    for (const unit of [a, b, a]) await storage.appendAuditEntry(row(unit), 10_000);
    const unitA = { kind: "unit" as const, businessUnitId: a };
    const own = await trail.list(unitA, { limit: 100 });
    expect(own.map((entry) => entry.actor)).toEqual([
      { kind: "unit", business_unit_id: a },
      { kind: "unit", business_unit_id: a },
    ]);
    expect(await trail.list(unitA, { limit: 100, businessUnitId: b })).toEqual([]);
    expect(await trail.list(unitA, { limit: 100, actor: "admin" })).toEqual([]);
    const ofB = await trail.list({ kind: "admin" }, { limit: 100, businessUnitId: b });
    expect(ofB.map((entry) => entry.actor)).toEqual([{ kind: "unit", business_unit_id: b }]);
    // Over HTTP the admin reads the same.
    expect(await entries(`&business_unit_id=${b}`)).toEqual(ofB);
  });
});

describe("the audit trail with unit tokens", () => {
  it("shows each unit its own actions only, in both directions, with its own clock; the admin sees both", async () => {
    const create = async (name: string) => {
      const answer = await gw.sandbox("POST", "/sandbox/v1/business-units", { name });
      expect(answer.status).toBe(201);
      return answer.body as { business_unit_id: string; sandbox_token: string };
    };
    const [a, b] = [await create("audit A"), await create("audit B")];
    expect((await withToken(a.sandbox_token, "POST", "/sandbox/v1/clock/advance", { seconds: 86_400 })).status).toBe(
      200,
    );
    expect((await withToken(b.sandbox_token, "PUT", "/sandbox/v1/settings", { processing: "manual" })).status).toBe(
      200,
    );
    expect((await withToken(b.sandbox_token, "PUT", "/sandbox/v1/day-list", { open: false })).status).toBe(403);

    const read = async (token: string) => {
      const answer = await withToken(token, "GET", "/sandbox/v1/audit");
      expect(answer.status).toBe(200);
      return (answer.body as { data: Entry[] }).data;
    };
    const ofA = await read(a.sandbox_token);
    const ofB = await read(b.sandbox_token);
    expect(ofA.map(summary)).toEqual([["advanceClock", "unit", 200, null]]);
    expect(ofA[0]?.actor.business_unit_id).toBe(a.business_unit_id);
    // A's entry is stamped by A's clock, a day ahead of the wall clock.
    const ahead = Date.parse(ofA[0]?.sandbox_clock_at ?? "") - Date.parse(ofA[0]?.recorded_at ?? "");
    expect(ahead).toBeGreaterThanOrEqual(86_400_000 - 60_000);
    expect(ofB.map(summary)).toEqual([
      ["updateSettings", "unit", 200, null],
      ["setDayList", "unit", 403, "403-05"],
    ]);
    expect(ofB.every((entry) => entry.actor.business_unit_id === b.business_unit_id)).toBe(true);
    // Asking for the other unit's entries lists nothing.
    const across = await withToken(a.sandbox_token, "GET", `/sandbox/v1/audit?business_unit_id=${b.business_unit_id}`);
    expect((across.body as { data: Entry[] }).data).toEqual([]);
    // The admin reads both units' entries.
    expect((await entries(`&business_unit_id=${a.business_unit_id}`)).map(summary)).toEqual(ofA.map(summary));
    expect((await entries(`&business_unit_id=${b.business_unit_id}`)).map(summary)).toEqual(ofB.map(summary));
  });
});
