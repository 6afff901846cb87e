import { createHash, randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../src/testing/postgres.js";
import { SANDBOX_TOKEN, startGateway, type Credentials, type TestGateway } from "./support/gateway.js";
import { checksumOf, rawPut, SAMPLES } from "./support/upload.js";

/** A business unit the sandbox created: its registry credentials and its own token of the control plane. */
interface Unit extends Credentials {
  business_unit_id: string;
  sandbox_token: string;
}

const DAY_S = 24 * 3600;
const DAY_MS = DAY_S * 1000;

/** What the tests below do through one gateway (or, on PostgreSQL, through either of two). */
function unitsOf(gw: TestGateway) {
  const control = (unit: Unit | string, method: string, path: string, body?: unknown) =>
    gw.control(typeof unit === "string" ? unit : unit.sandbox_token, method, path, body);
  return {
    control,
    async newUnit(settings: Record<string, unknown> = { processing: "manual", duplicate_rate: 0 }): Promise<Unit> {
      const unit = (await gw.newBusinessUnit()) as Unit;
      expect((await control(unit, "PUT", "/sandbox/v1/settings", settings)).status).toBe(200);
      return unit;
    },
    submit: (unit: Unit): Promise<string> => gw.submit(unit),
    async status(unit: Unit, id: string): Promise<string | number> {
      const answer = await gw.call("GET", `/v0/applications/${id}/information`, { as: unit });
      return answer.status === 200 ? (answer.body as { data: { status: string } }).data.status : answer.status;
    },
    async notifications(unit: Unit): Promise<{ notification_type: string; created_datetime: string }[]> {
      const answer = await gw.call("GET", "/v1/notifications", { as: unit });
      expect(answer.status).toBe(200);
      return (answer.body as { data: { notification_type: string; created_datetime: string }[] }).data;
    },
    async clockOf(token: Unit | string): Promise<number> {
      const answer = await control(token, "GET", "/sandbox/v1/clock");
      expect(answer.status).toBe(200);
      return Date.parse((answer.body as { now: string }).now);
    },
    async settingsOf(token: Unit | string): Promise<Record<string, unknown>> {
      return (await control(token, "GET", "/sandbox/v1/settings")).body as Record<string, unknown>;
    },
  };
}

/** A gateway started before the tests of a `describe` and stopped after them; read its parts inside a test. */
function gatewayForTheseTests() {
  let started: TestGateway | undefined;
  let helpers: ReturnType<typeof unitsOf> | undefined;
  beforeAll(async () => {
    started = await startGateway();
    helpers = unitsOf(started);
  });
  afterAll(async () => {
    await started?.stop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the gateway of these tests has not started");
    return value;
  };
  return { gw: () => ready(started), units: () => ready(helpers) };
}

describe("unit tokens", () => {
  const { gw, units } = gatewayForTheseTests();

  it("are answered at creation and kept only as their SHA-256 hash, nowhere in clear in the store", async () => {
    const unit = await units().newUnit();
    expect(unit.sandbox_token).toMatch(/^lrgu_[A-Za-z0-9_-]{43}$/);
    const stored = await gw().gateway.storage.findBusinessUnit(unit.business_unit_id);
    expect(stored?.tokenHash).toBe(createHash("sha256").update(unit.sandbox_token).digest("hex"));
    await gw().gateway.storage.ping();
    for (const file of readdirSync(gw().dataDir).filter((name) => name.startsWith("gateway.sqlite"))) {
      expect(readFileSync(join(gw().dataDir, file)).includes(unit.sandbox_token), file).toBe(false);
    }
  });

  it("rotate: the new token is answered once and the old one stops working at once", async () => {
    const unit = await units().newUnit();
    const other = await units().newUnit();
    const path = `/sandbox/v1/business-units/${unit.business_unit_id}/token`;
    const rotated = await units().control(unit, "POST", path);
    expect(rotated.status).toBe(200);
    const fresh = (rotated.body as { business_unit_id: string; sandbox_token: string }).sandbox_token;
    expect(rotated.body).toMatchObject({ business_unit_id: unit.business_unit_id });
    expect(fresh).not.toBe(unit.sandbox_token);
    expect((await units().control(unit, "GET", "/sandbox/v1/clock")).status).toBe(401);
    expect((await units().control(fresh, "GET", "/sandbox/v1/clock")).status).toBe(200);

    // The admin rotates any unit's token; another unit's token is told the unit does not exist.
    const byAdmin = await gw().sandbox("POST", path);
    expect(byAdmin.status).toBe(200);
    expect((await units().control(fresh, "GET", "/sandbox/v1/clock")).status).toBe(401);
    expect((await units().control(other, "POST", path)).body).toMatchObject({ status: 404, code: "404-01" });
    expect((await gw().sandbox("POST", `/sandbox/v1/business-units/${randomUUID()}/token`)).status).toBe(404);
    // The credentials of the registry interface are unchanged.
    expect((await gw().call("GET", "/v1/notifications", { as: unit })).status).toBe(200);
  });

  it("an unknown token of the unit shape is refused like any wrong token (401)", async () => {
    const forged = `lrgu_${randomBytes(32).toString("base64url")}`;
    const answer = await units().control(forged, "GET", "/sandbox/v1/clock");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("are refused the admin's operations (403-05) and change nothing; reading the day list is allowed", async () => {
    const unit = await units().newUnit();
    const created = await units().control(unit, "POST", "/sandbox/v1/business-units", { name: "Not allowed" });
    expect(created.body).toMatchObject({ status: 403, code: "403-05" });
    const closed = await units().control(unit, "PUT", "/sandbox/v1/day-list", { open: false });
    expect(closed.body).toMatchObject({ status: 403, code: "403-05" });
    expect((await gw().sandbox("GET", "/sandbox/v1/day-list")).body).toMatchObject({ open: true });
    expect((await units().control(unit, "GET", "/sandbox/v1/day-list")).body).toMatchObject({
      open: true,
      awaiting_priority: 0,
    });
  });
});

describe("a unit token acts on its own business unit alone", () => {
  const { gw, units } = gatewayForTheseTests();

  it("its clock: A's 32 days move A's retention and upload expiry, not B's, nor the global clock", async () => {
    const [a, b] = [await units().newUnit(), await units().newUnit()];
    const uploads = new Map<Unit, string>();
    for (const unit of [a, b]) {
      const id = await units().submit(unit);
      expect(
        (
          await units().control(unit, "POST", `/sandbox/v1/applications/${id}/transitions`, {
            to: "ACCEPTED_PRIORITY_PROTECTED",
          })
        ).status,
      ).toBe(200);
      expect((await units().notifications(unit)).length).toBeGreaterThan(0);
      const url = await gw().call("POST", "/v0/documents/url", {
        as: unit,
        body: {
          data: { document_type: "TR1", file_length: SAMPLES.pdf.length, file_sha256: checksumOf(SAMPLES.pdf) },
        },
      });
      uploads.set(unit, (url.body as { data: { upload_url: string } }).data.upload_url);
    }

    const advanced = await units().control(a, "POST", "/sandbox/v1/clock/advance", { seconds: 32 * DAY_S });
    expect(Date.parse((advanced.body as { now: string }).now)).toBeGreaterThan(Date.now() + 31 * DAY_MS);
    expect(await units().clockOf(a)).toBeGreaterThan(Date.now() + 31 * DAY_MS);
    for (const other of [b.sandbox_token, SANDBOX_TOKEN])
      expect(await units().clockOf(other)).toBeLessThan(Date.now() + DAY_MS);

    // Through the registry interface: A's notifications are past their month, B's are not.
    expect(await units().notifications(a)).toEqual([]);
    expect((await units().notifications(b)).length).toBeGreaterThan(0);
    const put = (unit: Unit) =>
      rawPut(
        uploads.get(unit) as string,
        { "content-length": String(SAMPLES.pdf.length), "x-provider-checksum-sha256": checksumOf(SAMPLES.pdf) },
        SAMPLES.pdf,
      );
    const expired = await put(a);
    expect(expired.status).toBe(403);
    expect(JSON.parse(expired.body)).toMatchObject({ code: "403-02" });
    expect((await put(b)).status).toBe(200);

    // A's new records carry A's time; B's carry real time.
    for (const unit of [a, b]) {
      const id = await units().submit(unit);
      await units().control(unit, "POST", `/sandbox/v1/applications/${id}/transitions`, { to: "VALIDATION_FAILED" });
    }
    const newest = async (unit: Unit) =>
      Math.max(...(await units().notifications(unit)).map((n) => Date.parse(n.created_datetime)));
    expect(await newest(a)).toBeGreaterThan(Date.now() + 31 * DAY_MS);
    expect(await newest(b)).toBeLessThan(Date.now() + DAY_MS);
  });

  it("its settings: A's faults and date-time rule apply to A's requests only", async () => {
    const [a, b] = [await units().newUnit(), await units().newUnit()];
    expect((await units().control(a, "PUT", "/sandbox/v1/settings", { error_rate: 1 })).body).toMatchObject({
      error_rate: 1,
      processing: "manual",
    });
    const faulted = await gw().call("GET", "/v1/notifications", { as: a });
    expect(faulted.body).toMatchObject({ status: 503, code: "503-01" });
    expect((await gw().call("GET", "/v1/notifications", { as: b })).status).toBe(200);
    expect(await units().settingsOf(b)).toMatchObject({ error_rate: 0 });
    expect(await units().settingsOf(SANDBOX_TOKEN)).toMatchObject({ error_rate: 0, processing: "automatic" });

    await units().control(a, "PUT", "/sandbox/v1/settings", { error_rate: 0, strict_date_times: true });
    const query = "/v1/notifications?created_after=2025-01-01T00:00:00Z";
    expect((await gw().call("GET", query, { as: a })).body).toMatchObject({ status: 400, code: "400-02" });
    expect((await gw().call("GET", query, { as: b })).status).toBe(200);
  });

  it("its processing: A's manual processing leaves A's applications VALIDATING while B's are decided", async () => {
    const a = await units().newUnit();
    const b = await units().newUnit({ duplicate_rate: 0 });
    expect(await units().settingsOf(b)).toMatchObject({ processing: "automatic" });
    const mine = await units().submit(a);
    const theirs = await units().submit(b);
    for (let attempt = 0; attempt < 400 && (await units().status(b, theirs)) === "VALIDATING"; attempt += 1)
      await sleep(25);
    expect(await units().status(b, theirs)).not.toBe("VALIDATING");
    expect(await units().status(a, mine)).toBe("VALIDATING");
  });

  it("transitions and correspondence: another unit's application is 404, the same answer as a missing one", async () => {
    const [a, b] = [await units().newUnit(), await units().newUnit()];
    const theirs = await units().submit(b);
    const move = (unit: Unit, id: string) =>
      units().control(unit, "POST", `/sandbox/v1/applications/${id}/transitions`, {
        to: "ACCEPTED_PRIORITY_PROTECTED",
      });
    const foreign = await move(a, theirs);
    const missing = await move(a, randomUUID());
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const shape = (body: unknown) => {
      const { detail: _detail, instance: _instance, ...rest } = body as Record<string, unknown>;
      return rest;
    };
    expect(shape(foreign.body)).toEqual(shape(missing.body));
    expect(await units().status(b, theirs)).toBe("VALIDATING");

    expect((await move(b, theirs)).status).toBe(200);
    const letter = { documents: ["LTR"] };
    const path = `/sandbox/v1/applications/${theirs}/correspondence`;
    expect((await units().control(a, "POST", path, letter)).status).toBe(404);
    expect((await units().control(b, "POST", path, letter)).status).toBe(201);
    // The admin token still reaches every unit's application.
    expect((await gw().sandbox("POST", path, letter)).status).toBe(201);
  });

  it("system errors: scheduled for its own submissions only", async () => {
    const [a, b] = [await units().newUnit(), await units().newUnit()];
    const scheduled = await units().control(a, "POST", "/sandbox/v1/system-errors", {});
    expect(scheduled.body).toMatchObject({ business_unit_id: a.business_unit_id, pending: 1 });
    const foreign = await units().control(a, "POST", "/sandbox/v1/system-errors", {
      business_unit_id: b.business_unit_id,
    });
    expect(foreign.body).toMatchObject({ status: 404, code: "404-01" });
    expect(await units().status(b, await units().submit(b))).toBe("VALIDATING");
    expect(await units().status(a, await units().submit(a))).toBe("SYSTEM_ERROR");
  });

  it("reset: A's records, clock and settings go; A's unit, credentials and token stay; B keeps everything", async () => {
    const [a, b] = [await units().newUnit(), await units().newUnit()];
    const ids = new Map<Unit, string>();
    for (const unit of [a, b]) {
      const id = await units().submit(unit);
      await units().control(unit, "POST", `/sandbox/v1/applications/${id}/transitions`, {
        to: "ACCEPTED_PRIORITY_PROTECTED",
      });
      ids.set(unit, id);
    }
    await units().control(a, "POST", "/sandbox/v1/clock/advance", { seconds: 5 * DAY_S });
    await units().control(b, "POST", "/sandbox/v1/clock/advance", { seconds: 2 * DAY_S });

    expect((await units().control(a, "POST", "/sandbox/v1/reset")).status).toBe(204);
    expect(await units().status(a, ids.get(a) as string)).toBe(404);
    expect(await units().notifications(a)).toEqual([]);
    expect(await units().clockOf(a)).toBeLessThan(Date.now() + DAY_MS);
    expect(await units().settingsOf(a)).toEqual(await units().settingsOf(SANDBOX_TOKEN));
    expect(await gw().gateway.storage.findBusinessUnit(a.business_unit_id)).toBeDefined();

    expect(await units().status(b, ids.get(b) as string)).toBe("ACCEPTED_PRIORITY_PROTECTED");
    expect((await units().notifications(b)).length).toBeGreaterThan(0);
    expect(await units().clockOf(b)).toBeGreaterThan(Date.now() + DAY_MS);
    expect(await units().settingsOf(b)).toMatchObject({ processing: "manual", duplicate_rate: 0 });
  });
});

describe("the admin token keeps its meaning", () => {
  const { gw, units } = gatewayForTheseTests();

  it("the global clock and settings move every unit that did not set its own", async () => {
    const own = await units().newUnit({ processing: "manual" });
    const follower = (await gw().newBusinessUnit()) as Unit;
    await units().control(own, "PUT", "/sandbox/v1/clock", { now: new Date(Date.now() + 100 * DAY_MS).toISOString() });
    await gw().sandbox("PUT", "/sandbox/v1/clock", { now: new Date(Date.now() + 10 * DAY_MS).toISOString() });
    await gw().sandbox("PUT", "/sandbox/v1/settings", { strict_date_times: true });

    expect(await units().clockOf(follower)).toBeGreaterThan(Date.now() + 9 * DAY_MS);
    expect(await units().clockOf(follower)).toBeLessThan(Date.now() + 11 * DAY_MS);
    expect(await units().clockOf(own)).toBeGreaterThan(Date.now() + 99 * DAY_MS);
    // The unit set processing, not strict date-times: it follows the global value of the latter.
    expect(await units().settingsOf(own)).toMatchObject({ processing: "manual", strict_date_times: true });
    expect(await units().settingsOf(follower)).toMatchObject({ processing: "automatic", strict_date_times: true });
    expect(await units().settingsOf(SANDBOX_TOKEN)).toMatchObject({ processing: "automatic", strict_date_times: true });
  });

  it("automatic decisions fall due by each unit's clock", async () => {
    // A decision an hour after submission: only the unit whose clock moved two hours gets it.
    const slow = await startGateway({ decisionDelayMs: 3_600_000 });
    try {
      const slowUnits = unitsOf(slow);
      const [a, b] = [await slowUnits.newUnit({ duplicate_rate: 0 }), await slowUnits.newUnit({ duplicate_rate: 0 })];
      const [mine, theirs] = [await slowUnits.submit(a), await slowUnits.submit(b)];
      await slowUnits.control(a, "POST", "/sandbox/v1/clock/advance", { seconds: 2 * 3600 });
      expect(await slowUnits.status(a, mine)).not.toBe("VALIDATING");
      expect(await slowUnits.status(b, theirs)).toBe("VALIDATING");
    } finally {
      await slow.stop();
    }
  });

  it("a global reset wipes every business unit, tokens included", async () => {
    const unit = await units().newUnit();
    expect((await gw().sandbox("POST", "/sandbox/v1/reset")).status).toBe(204);
    expect((await units().control(unit, "GET", "/sandbox/v1/clock")).status).toBe(401);
    expect(await units().clockOf(SANDBOX_TOKEN)).toBeLessThan(Date.now() + DAY_MS);
  });
});

describe("on PostgreSQL, two instances share every unit's clock, settings, tokens and reset", () => {
  let server: TestPostgres;
  let one: TestGateway;
  let two: TestGateway;
  beforeAll(async () => {
    server = await startPostgres();
    const databaseUrl = await server.createDatabase();
    one = await startGateway({ databaseUrl });
    two = await startGateway({ databaseUrl });
  });
  afterAll(async () => {
    await one?.stop();
    await two?.stop();
    await server?.stop();
  });

  it("what a unit changes on one instance holds on the other, and for that unit only", async () => {
    const [onOne, onTwo] = [unitsOf(one), unitsOf(two)];
    const [a, b] = [await onOne.newUnit(), await onOne.newUnit()];
    const id = await onOne.submit(a);
    await onOne.control(a, "POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    const other = await onOne.submit(b);
    await onOne.control(b, "POST", `/sandbox/v1/applications/${other}/transitions`, {
      to: "ACCEPTED_PRIORITY_PROTECTED",
    });

    await onOne.control(a, "POST", "/sandbox/v1/clock/advance", { seconds: 32 * DAY_S });
    expect(await onTwo.clockOf(a)).toBeGreaterThan(Date.now() + 31 * DAY_MS);
    expect(await onTwo.clockOf(b)).toBeLessThan(Date.now() + DAY_MS);
    expect(await onTwo.notifications(a)).toEqual([]);
    expect((await onTwo.notifications(b)).length).toBeGreaterThan(0);

    await onOne.control(a, "PUT", "/sandbox/v1/settings", { error_rate: 1 });
    expect((await two.call("GET", "/v1/notifications", { as: a })).status).toBe(503);
    expect((await two.call("GET", "/v1/notifications", { as: b })).status).toBe(200);
    await onTwo.control(a, "PUT", "/sandbox/v1/settings", { error_rate: 0 });

    const rotated = await onOne.control(a, "POST", `/sandbox/v1/business-units/${a.business_unit_id}/token`);
    const fresh = (rotated.body as { sandbox_token: string }).sandbox_token;
    expect((await onTwo.control(a, "GET", "/sandbox/v1/clock")).status).toBe(401);
    expect((await onTwo.control(fresh, "POST", "/sandbox/v1/reset")).status).toBe(204);
    expect(await onOne.status(a, id)).toBe(404);
    expect(await onOne.status(b, other)).toBe("ACCEPTED_PRIORITY_PROTECTED");
    expect(await onOne.clockOf(fresh)).toBeLessThan(Date.now() + DAY_MS);
  });
});
