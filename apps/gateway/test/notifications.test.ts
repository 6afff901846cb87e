import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { idempotencyKey, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";

interface Notification {
  notification_id: string;
  created_datetime: string;
  event_datetime: string;
  notification_type: string;
  subject: string;
  status: string;
  additional_provider_filter: string | null;
  payload_schema: string;
  payload: { data: Record<string, unknown> };
}

let gw: TestGateway;
let unit: Credentials;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw.stop();
});
beforeEach(async () => {
  // Each test gets a business unit of its own, so lists start empty.
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
  unit = await gw.newBusinessUnit();
});

async function submit(overrides: Record<string, unknown> = {}, as: Credentials = unit): Promise<string> {
  const answer = await gw.call("POST", "/v0/applications", {
    as,
    body: submission(overrides),
    headers: { "idempotency-key": idempotencyKey() },
  });
  return (answer.body as { data: { application_request_id: string } }).data.application_request_id;
}

/** Submits an application and moves it onto the day list: one notification (more with duplicates). */
async function acceptedApplication(overrides: Record<string, unknown> = {}, as: Credentials = unit): Promise<string> {
  const id = await submit(overrides, as);
  await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
  return id;
}

async function list(version: "v0" | "v1", query = "", as: Credentials = unit): Promise<Notification[]> {
  const answer = await gw.call("GET", `/${version}/notifications${query}`, { as });
  expect(answer.status).toBe(200);
  return (answer.body as { data: Notification[] }).data;
}

async function acknowledge(version: "v0" | "v1", ids: string[], as: Credentials = unit) {
  return gw.call("POST", `/${version}/notifications/acknowledge`, { as, body: { data: ids } });
}

describe("listing", () => {
  it("emits the notification of each transition in both views, with the payload of its type", async () => {
    const id = await acceptedApplication();
    const [attachment, v1] = await list("v1");
    const [v0, ...others] = await list("v0");
    // Leaving VALIDATING the registry reports each document first (version 1 only): this one was never uploaded.
    expect(attachment).toMatchObject({ notification_type: "application.attachment-failed", subject: id });
    expect(attachment?.payload.data).toEqual({
      failure_reason: "the document has not been uploaded",
      document_id: "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b",
    });
    expect(others).toEqual([]);
    expect(v1).toMatchObject({
      notification_type: "application.accepted-priority-protected",
      subject: id,
      status: "NEW",
      additional_provider_filter: null,
    });
    expect(v1?.payload.data).toMatchObject({
      status: "ACCEPTED_PRIORITY_PROTECTED",
      registry_reference: expect.stringMatching(/^[A-Z0-9]{7}$/),
    });
    expect(String(v1?.payload.data["priority"])).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(v0).toMatchObject({
      notification_id: v1?.notification_id,
      notification_type: "APPLICATION_ACCEPTED_ON_DAY_LIST",
      subject_type: "LAND_REGISTER_APPLICATION",
    });
    expect(v0?.payload.data).toMatchObject({
      status: "ACCEPTED",
      registry_reference: v1?.payload.data["registry_reference"],
    });
  });

  it("answers oldest first, at most 100, never more than limit, and pages with created_after", async () => {
    for (let i = 0; i < 6; i += 1) await acceptedApplication();
    const all = await list("v1");
    expect(all).toHaveLength(12); // an attachment result and an acceptance each
    const created = all.map((n) => n.created_datetime);
    expect([...created].sort()).toEqual(created);
    expect(await list("v1", "?limit=2")).toEqual(all.slice(0, 2));
    const next = await list("v1", `?limit=2&created_after=${encodeURIComponent(String(all[1]?.created_datetime))}`);
    expect(next.map((n) => n.notification_id)).toEqual(all.slice(2, 4).map((n) => n.notification_id));
  });

  it("caps a page at 100 (and v0 clamps a larger limit to 100)", async () => {
    const ids = await Promise.all(Array.from({ length: 105 }, () => submit()));
    for (const id of ids)
      await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "SYSTEM_ERROR" });
    expect(await list("v1")).toHaveLength(100);
    expect(await list("v0", "?limit=500")).toHaveLength(100);
    expect((await gw.call("GET", "/v1/notifications?limit=101", { as: unit })).status).toBe(400);
  }, 60_000);

  it("answers created_after later than created_before with exactly the requirement's problem", async () => {
    for (const version of ["v0", "v1"]) {
      const path = `/${version}/notifications`;
      const answer = await gw.call(
        "GET",
        `${path}?created_after=2025-02-02T00:00:00&created_before=2025-02-01T00:00:00`,
        { as: unit },
      );
      expect(answer.status).toBe(400);
      expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(answer.body).toEqual({
        type: "https://land-registration-gateway.example/problems/400-01",
        title: "Bad Request",
        status: 400,
        detail: "created_after cannot be after created_before",
        instance: path,
        code: "400-01",
      });
    }
  });

  it("filters by type, subject, event time, and additional_provider_filter (omitted → only unlabelled)", async () => {
    const plain = await acceptedApplication();
    const labelled = await acceptedApplication({ additional_provider_filter: "branch-leeds" });
    await gw.sandbox("POST", `/sandbox/v1/applications/${plain}/transitions`, { to: "COMPLETED" });

    expect((await list("v1")).map((n) => n.subject)).toEqual([plain, plain, plain]);
    const leeds = await list("v1", "?additional_provider_filter=branch-leeds");
    expect(leeds.map((n) => n.subject)).toEqual([labelled, labelled]);
    expect(leeds[0]?.additional_provider_filter).toBe("branch-leeds");
    expect((await list("v1", "?notification_type=application.completed")).map((n) => n.notification_type)).toEqual([
      "application.completed",
    ]);
    expect((await list("v0", "?notification_type=APPLICATION_COMPLETED")).map((n) => n.subject)).toEqual([plain]);
    expect(await list("v1", `?subject=${labelled}`)).toEqual([]);
    expect((await list("v1", `?subject=${plain}&subject_type=APPLICATION`)).length).toBe(3);
    const [first] = await list("v1");
    expect(await list("v1", `?occurred_before=${encodeURIComponent(String(first?.event_datetime))}`)).toEqual([]);
    expect((await list("v0", `?occured_after=${encodeURIComponent("2000-01-01T00:00:00")}`)).length).toBe(2);
  });

  it("refuses unknown query parameters (400-04), including the other version's spelling", async () => {
    expect(
      (await gw.call("GET", "/v1/notifications?occured_after=2025-01-01T00:00:00", { as: unit })).body,
    ).toMatchObject({ code: "400-04" });
    expect((await gw.call("GET", "/v0/notifications?subject_type=APPLICATION", { as: unit })).body).toMatchObject({
      code: "400-04",
    });
    expect((await gw.call("GET", "/v1/notifications?created_after=yesterday", { as: unit })).body).toMatchObject({
      code: "400-02",
    });
  });

  it("serves the payload schema named by every notification's payload_schema", async () => {
    const id = await acceptedApplication();
    await gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "COMPLETED" });
    for (const version of ["v0", "v1"] as const) {
      for (const notification of await list(version)) {
        const response = await fetch(notification.payload_schema);
        expect(response.status, notification.payload_schema).toBe(200);
        const schema = (await response.json()) as { required: string[] };
        for (const member of schema.required) expect(notification.payload.data).toHaveProperty(member);
      }
    }
  });

  it("answers under /api too, as the registry's test stubs do", async () => {
    await acceptedApplication();
    const answer = await gw.call("GET", "/api/v1/notifications", { as: unit });
    expect((answer.body as { data: unknown[] }).data).toHaveLength(2);
  });
});

describe("acknowledging", () => {
  it("removes acknowledged notifications from the default list and shows them under status=ACKNOWLEDGED", async () => {
    await acceptedApplication();
    await acceptedApplication();
    const [first, ...rest] = await list("v1");
    const answer = await acknowledge("v1", [String(first?.notification_id)]);
    expect(answer.body).toEqual({ data: { acknowledged: [first?.notification_id] } });
    expect((await list("v1")).map((n) => n.notification_id)).toEqual(rest.map((n) => n.notification_id));
    const acknowledged = await list("v1", "?status=ACKNOWLEDGED");
    expect(acknowledged.map((n) => [n.notification_id, n.status])).toEqual([[first?.notification_id, "ACKNOWLEDGED"]]);
  });

  it("is idempotent, and v0 lists unknown ids in not_found while v1 leaves them out", async () => {
    await acceptedApplication();
    const [notification] = await list("v0");
    const id = String(notification?.notification_id);
    const unknown = randomUUID();
    expect((await acknowledge("v0", [id, unknown])).body).toEqual({
      data: { acknowledged: [id], not_found: [unknown] },
    });
    expect((await acknowledge("v0", [id])).body).toEqual({ data: { acknowledged: [id], not_found: [] } });
    expect((await acknowledge("v1", [id, unknown])).body).toEqual({ data: { acknowledged: [id] } });
  });

  it("refuses 101 ids (400-02) and acknowledges none of them", async () => {
    await acceptedApplication();
    const [notification] = await list("v1");
    const ids = [String(notification?.notification_id), ...Array.from({ length: 100 }, () => randomUUID())];
    const answer = await acknowledge("v1", ids);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: "400-02",
      errors: [expect.objectContaining({ type: "maxItems", pointer: "/body/data" })],
    });
    expect(await list("v1")).toHaveLength(2);
    expect((await acknowledge("v1", ids.slice(0, 100))).status).toBe(200);
  });
});

describe("at-least-once delivery", () => {
  it("delivers duplicates that share event_datetime and notification_type, each acknowledged separately", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { duplicate_rate: 1 });
    await acceptedApplication();
    expect(await list("v1")).toHaveLength(4); // the attachment result and the acceptance, each delivered twice
    const accepted = "?notification_type=application.accepted-priority-protected";
    const delivered = await list("v1", accepted);
    expect(delivered).toHaveLength(2);
    const [one, two] = delivered;
    expect(one?.notification_id).not.toBe(two?.notification_id);
    expect(one?.event_datetime).toBe(two?.event_datetime);
    expect(one?.notification_type).toBe(two?.notification_type);
    await acknowledge("v1", [String(one?.notification_id)]);
    expect((await list("v1", accepted)).map((n) => n.notification_id)).toEqual([two?.notification_id]);
  });
});

describe("retention", () => {
  it("deletes notifications one month after creation, acknowledged or not, by the gateway's clock", async () => {
    await acceptedApplication();
    await acceptedApplication();
    const [first] = await list("v1");
    await acknowledge("v1", [String(first?.notification_id)]);
    await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 27 * 24 * 3600 });
    expect(await list("v1")).toHaveLength(3);
    await gw.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 5 * 24 * 3600 });
    expect(await list("v1")).toEqual([]);
    expect(await list("v1", "?status=ACKNOWLEDGED")).toEqual([]);
    await gw.sandbox("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
  });
});

describe("business units", () => {
  it("never show one unit's notifications to another, nor let it acknowledge them", async () => {
    const other = await gw.newBusinessUnit();
    await acceptedApplication();
    await acceptedApplication({}, other);
    const mine = await list("v1");
    const theirs = await list("v1", "", other);
    expect(mine).toHaveLength(2);
    expect(theirs).toHaveLength(2);
    expect(mine[0]?.subject).not.toBe(theirs[0]?.subject);
    const answer = await acknowledge("v0", [String(theirs[0]?.notification_id)]);
    expect(answer.body).toEqual({ data: { acknowledged: [], not_found: [theirs[0]?.notification_id] } });
    expect(await list("v1", "", other)).toHaveLength(2);
  });
});

describe("as the registry shows them", () => {
  it("version 0 lists NEW and ACKNOWLEDGED notifications without a status filter; version 1 lists only NEW", async () => {
    await acceptedApplication();
    await acceptedApplication();
    const [first, second] = await list("v0");
    await acknowledge("v0", [String(first?.notification_id)]);
    expect((await list("v0")).map((n) => [n.notification_id, n.status])).toEqual([
      [first?.notification_id, "ACKNOWLEDGED"],
      [second?.notification_id, "NEW"],
    ]);
    expect((await list("v0", "?status=NEW")).map((n) => n.notification_id)).toEqual([second?.notification_id]);
    expect((await list("v1")).every((n) => n.status === "NEW")).toBe(true);
  });

  it("gives version 0 payload_schema addresses the requirement's v1 segment, apart from version 1's where the payloads differ", async () => {
    await acceptedApplication();
    const [v0] = await list("v0");
    const [, v1] = await list("v1");
    expect(new URL(String(v0?.payload_schema)).pathname).toBe("/schemas/v1/vcad/accepted-priority-protected.json");
    expect(new URL(String(v1?.payload_schema)).pathname).toBe(
      "/schemas/v1/application/accepted-priority-protected.json",
    );
    const served = (await (await fetch(String(v0?.payload_schema))).json()) as {
      properties: { status: { enum: string[] } };
    };
    expect(served.properties.status.enum).toEqual(["ACCEPTED"]);
    expect((await fetch(`${gw.url}/schemas/v0/application/accepted-priority-protected.json`)).status).toBe(404);
  });

  it("never fails an acknowledge because of an id: malformed ids are not_found in version 0 and ignored in version 1", async () => {
    await acceptedApplication();
    const [one, two] = await list("v1");
    const odd = ["not-a-uuid", "", "../../etc/passwd", "x".repeat(300), String(one?.notification_id).toUpperCase()];
    const v0 = await acknowledge("v0", [String(one?.notification_id), ...odd]);
    expect(v0.status).toBe(200);
    expect(v0.body).toEqual({ data: { acknowledged: [one?.notification_id], not_found: odd } });
    const v1 = await acknowledge("v1", [...odd, String(two?.notification_id)]);
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual({ data: { acknowledged: [two?.notification_id] } });
    expect(await list("v1")).toEqual([]);
  });

  it("refuses a body that is not a list of strings, and acknowledges none of its ids", async () => {
    await acceptedApplication();
    const [one] = await list("v1");
    for (const data of [
      [String(one?.notification_id), 1],
      [String(one?.notification_id), null],
      [{ id: one?.notification_id }],
      String(one?.notification_id),
    ]) {
      const answer = await gw.call("POST", "/v0/notifications/acknowledge", { as: unit, body: { data } });
      expect(answer.status, JSON.stringify(data)).toBe(400);
      expect(answer.body).toMatchObject({ code: "400-02" });
    }
    expect(await list("v1")).toHaveLength(2);
  });
});

describe("strict_date_times", () => {
  const zoned = "?created_after=2020-01-01T00:00:00Z";
  afterAll(async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { strict_date_times: false });
  });

  it("refuses every date-time shape but the requirement's zone-less example with a documented 400, in both versions", async () => {
    await acceptedApplication();
    expect(await list("v1", zoned)).toHaveLength(2); // off by default: every shape of QueryDateTime
    await gw.sandbox("PUT", "/sandbox/v1/settings", { strict_date_times: true });
    const refused = [
      "created_after=2020-01-01T00:00:00Z",
      "created_before=2020-01-01T00:00:00.000Z",
      "created_after=2020-01-01T01:00:00%2B01:00",
      "created_after=2020-01-01T00:00",
      "created_after=2020-01-01t00:00:00",
    ];
    for (const query of refused) {
      const answer = await gw.call("GET", `/v1/notifications?${query}`, { as: unit });
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({
        code: "400-02",
        errors: [expect.objectContaining({ pointer: `/query/${query.split("=")[0]}` })],
      });
    }
    const v0 = await gw.call("GET", "/v0/notifications?occured_after=2020-01-01T00:00:00Z", { as: unit });
    expect(v0.body).toMatchObject({
      code: "400-02",
      errors: [expect.objectContaining({ pointer: "/query/occured_after" })],
    });
    expect(await list("v1", "?created_after=2020-01-01T00:00:00")).toHaveLength(2);
    expect(await list("v0", "?created_after=2020-01-01T00:00:00.5&occured_before=2999-01-01T00:00:00")).toHaveLength(1);
    await gw.sandbox("PUT", "/sandbox/v1/settings", { strict_date_times: false });
    expect(await list("v1", zoned)).toHaveLength(2);
  });
});

describe("duplicates by default, reproducible under a seed", () => {
  /** Which of `count` accepted applications got a duplicate delivery of their acceptance, in submission order. */
  async function duplicatePattern(count: number): Promise<boolean[]> {
    const as = await gw.newBusinessUnit();
    const pattern: boolean[] = [];
    for (let i = 0; i < count; i += 1) {
      const id = await acceptedApplication({}, as);
      pattern.push(
        (await list("v1", `?subject=${id}&notification_type=application.accepted-priority-protected`, as)).length === 2,
      );
    }
    return pattern;
  }

  it("a fresh gateway duplicates notifications at the documented default rate of 0.1", async () => {
    const fresh = await startGateway();
    try {
      const settings = (await fresh.sandbox("GET", "/sandbox/v1/settings")).body as {
        duplicate_rate: number;
        duplicate_seed: number | null;
      };
      expect(settings).toMatchObject({ duplicate_rate: 0.1, duplicate_seed: null, strict_date_times: false });
    } finally {
      await fresh.stop();
    }
  });

  it("the same seed and the same actions give the same duplicates; another seed other ones", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { duplicate_rate: 0.5, duplicate_seed: 20261122 });
    const first = await duplicatePattern(12);
    await gw.sandbox("PUT", "/sandbox/v1/settings", { duplicate_seed: 20261122 });
    const again = await duplicatePattern(12);
    await gw.sandbox("PUT", "/sandbox/v1/settings", { duplicate_seed: 7 });
    const other = await duplicatePattern(12);
    await gw.sandbox("PUT", "/sandbox/v1/settings", { duplicate_seed: null });
    expect(again).toEqual(first);
    expect(first.some(Boolean) && !first.every(Boolean)).toBe(true);
    expect(other).not.toEqual(first);
  });
});
