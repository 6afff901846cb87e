import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { idempotencyKey, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw.stop();
});
beforeEach(async () => {
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
  await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
});

async function submit(body = submission(), as?: Credentials, key = idempotencyKey()): Promise<string> {
  const answer = await gw.call("POST", "/v0/applications", {
    body,
    headers: { "idempotency-key": key },
    ...(as ? { as } : {}),
  });
  expect(answer.status).toBe(202);
  return (answer.body as { data: { application_request_id: string } }).data.application_request_id;
}

async function information(id: string, as?: Credentials) {
  return gw.call("GET", `/v0/applications/${id}/information`, as ? { as } : {});
}

async function status(id: string): Promise<string> {
  return ((await information(id)).body as { data: { status: string } }).data.status;
}

async function move(id: string, request: Record<string, unknown>) {
  return gw.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, request);
}

describe("submit an application", () => {
  it("answers 202 with an application_request_id and a Location of its information", async () => {
    const answer = await gw.call("POST", "/v0/applications", {
      body: submission(),
      headers: { "idempotency-key": idempotencyKey() },
    });
    expect(answer.status).toBe(202);
    const id = (answer.body as { data: { application_request_id: string } }).data.application_request_id;
    expect(answer.headers.get("location")).toBe(`/v0/applications/${id}/information`);
    expect(await status(id)).toBe("VALIDATING");
  });

  it("answers the same id for the same Idempotency-Key and body, whatever the member order", async () => {
    const key = idempotencyKey();
    const first = await submit(submission(), undefined, key);
    const reordered = Object.fromEntries(Object.entries(submission()).reverse());
    const second = await submit(reordered, undefined, key);
    expect(second).toBe(first);
  });

  it("refuses the same Idempotency-Key with another body (409-01) and submits nothing", async () => {
    const key = idempotencyKey();
    const first = await submit(submission(), undefined, key);
    const answer = await gw.call("POST", "/v0/applications", {
      body: submission({ customer_reference: "OTHER" }),
      headers: { "idempotency-key": key },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "409-01", status: 409 });
    expect(await submit(submission(), undefined, key)).toBe(first);
  });

  it("scopes Idempotency-Keys to the business unit", async () => {
    const other = await gw.newBusinessUnit();
    const key = idempotencyKey();
    const mine = await submit(submission(), undefined, key);
    const theirs = await submit(submission(), other, key);
    expect(theirs).not.toBe(mine);
  });

  it("refuses a submission without Idempotency-Key (400-02)", async () => {
    const answer = await gw.call("POST", "/v0/applications", { body: submission() });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: "400-02",
      errors: [expect.objectContaining({ pointer: "/headers/idempotency-key" })],
    });
  });
});

describe("application information", () => {
  it("is 404 for an unknown id and for another business unit's application", async () => {
    const id = await submit();
    const other = await gw.newBusinessUnit();
    expect((await information(id, other)).status).toBe(404);
    expect((await information("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await information(id)).status).toBe(200);
  });

  it("is 400 for an id that is not a UUID, including path traversal", async () => {
    for (const id of ["not-a-uuid", "..%2F..%2Fetc%2Fpasswd", "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c1"]) {
      const answer = await gw.call("GET", `/v0/applications/${id}/information`);
      expect(answer.status, id).toBe(400);
      expect(answer.body).toMatchObject({ code: "400-02" });
    }
  });
});

describe("the state machine, driven through the control plane", () => {
  it("moves VALIDATING → ACCEPTED_PRIORITY_PROTECTED with a registry reference and priority timestamp, then COMPLETED with documents", async () => {
    const id = await submit();
    const accepted = await move(id, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    expect(accepted.status).toBe(200);
    const info = (await information(id)).body as { data: Record<string, unknown> };
    expect(info.data).toMatchObject({
      status: "ACCEPTED_PRIORITY_PROTECTED",
      registry_reference: expect.stringMatching(/^[A-Z0-9]{7}$/),
    });
    expect(info.data["priority_timestamp"]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const completed = await move(id, { to: "COMPLETED", early_completion: true });
    expect(completed.status).toBe(200);
    const documents = (completed.body as { documents: { type: { code: string } }[] }).documents;
    expect(documents.map((d) => d.type.code)).toEqual(["CMT", "REG"]);
    const after = (await information(id)).body as {
      data: { status: string; correspondence: { documents: unknown[] }[] };
    };
    expect(after.data.status).toBe("COMPLETED");
    expect(after.data.correspondence[0]?.documents).toEqual(documents);
  });

  it("refuses every move the state machine does not allow (409-03) and changes nothing", async () => {
    const id = await submit();
    for (const to of ["COMPLETED", "CANCELLED"]) {
      const answer = await move(id, { to });
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: "409-03" });
    }
    expect(await status(id)).toBe("VALIDATING");
    await move(id, {
      to: "VALIDATION_FAILED",
      errors: [{ type: "DV200", detail: "the plan is missing", pointer: "/documents" }],
    });
    for (const to of ["ACCEPTED_PRIORITY_PROTECTED", "VALIDATION_FAILED", "SYSTEM_ERROR"]) {
      expect((await move(id, { to })).status).toBe(409);
    }
    const info = (await information(id)).body as { data: { status: string; errors: unknown[] } };
    expect(info.data.status).toBe("VALIDATION_FAILED");
    expect(info.data.errors).toEqual([{ type: "DV200", detail: "the plan is missing", pointer: "/documents" }]);
  });

  it("answers 404 for a transition of an unknown application", async () => {
    expect((await move("00000000-0000-4000-8000-000000000001", { to: "SYSTEM_ERROR" })).status).toBe(404);
  });

  it("queues accepted applications while the day list is closed and gives them priority when it reopens", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "automatic" });
    await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: false });
    // No documents to check: the registry accepts it by itself after its short delay.
    const id = await submit(
      submission({ documents: { plan: { type: "PLAN", document_id: "00000000-0000-4000-8000-0000000000aa" } } }),
    );
    await expect.poll(() => status(id), { timeout: 5000 }).toBe("VALIDATION_FAILED");

    await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual" });
    const queued = await submit();
    await move(queued, { to: "ACCEPTED_AWAITING_PRIORITY" });
    const before = (await information(queued)).body as { data: Record<string, unknown> };
    expect(before.data["registry_reference"]).toBeUndefined();
    const reopened = await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
    expect(reopened.body).toMatchObject({ open: true, awaiting_priority: 0 });
    expect((reopened.body as { promoted: number }).promoted).toBeGreaterThanOrEqual(1);
    const after = (await information(queued)).body as { data: Record<string, unknown> };
    expect(after.data).toMatchObject({
      status: "ACCEPTED_PRIORITY_PROTECTED",
      registry_reference: expect.stringMatching(/^[A-Z0-9]{7}$/),
    });
  });

  it("fails validation automatically for unknown documents and dangling keys, with {type, detail, pointer} errors", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "automatic" });
    const id = await submit(
      submission({
        applicants: ["nobody"],
        transactions: {
          transfer: { type: "T", priority: 1, title_keys: ["title-1", "title-9"], document_keys: ["tr1"] },
        },
      }),
    );
    await expect.poll(() => status(id), { timeout: 5000 }).toBe("VALIDATION_FAILED");
    const info = (await information(id)).body as { data: { errors: { type: string; pointer: string | null }[] } };
    expect(info.data.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "OC018", pointer: "/documents/tr1/document_id" }),
        expect.objectContaining({ type: "references-resolve", pointer: "/transactions/transfer/title_keys/1" }),
        expect.objectContaining({ type: "references-resolve", pointer: "/applicants/0" }),
      ]),
    );
  });

  it("raises correspondence with downloadable document ids only once the application has a registry reference", async () => {
    const id = await submit();
    expect(
      (await gw.sandbox("POST", `/sandbox/v1/applications/${id}/correspondence`, { documents: ["LTR"] })).status,
    ).toBe(409);
    await move(id, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    const raised = await gw.sandbox("POST", `/sandbox/v1/applications/${id}/correspondence`, {
      documents: ["LTR", "OCR"],
    });
    expect(raised.status).toBe(201);
    const documents = (raised.body as { documents: { download_id: string; type: { code: string; name: string } }[] })
      .documents;
    expect(documents.map((d) => d.type)).toEqual([
      { code: "LTR", name: "LETTER" },
      { code: "OCR", name: "OFFICIAL COPY OF THE REGISTER" },
    ]);
    for (const document of documents) expect(document.download_id).toMatch(/^[0-9a-f]{64}$/);
    const info = (await information(id)).body as { data: { correspondence: { documents: unknown[] }[] } };
    expect(info.data.correspondence.at(-1)?.documents).toEqual(documents);
  });

  it("cancels a protected application with a cancellation letter", async () => {
    const id = await submit();
    await move(id, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    const cancelled = await move(id, { to: "CANCELLED" });
    expect((cancelled.body as { documents: { type: { code: string } }[] }).documents.map((d) => d.type.code)).toEqual([
      "CAN",
    ]);
    expect(await status(id)).toBe("CANCELLED");
  });
});

describe("SYSTEM_ERROR and the retry the requirement asks for", () => {
  async function scheduleSystemErrors(body?: Record<string, unknown>) {
    const answer = await gw.sandbox("POST", "/sandbox/v1/system-errors", body);
    expect(answer.status).toBe(200);
    return answer.body as { business_unit_id: string | null; pending: number };
  }

  it("ends the next submission of the named business unit in SYSTEM_ERROR, with application.error, and no other unit's", async () => {
    const unit = await gw.newBusinessUnit();
    const other = await gw.newBusinessUnit();
    expect(await scheduleSystemErrors({ business_unit_id: unit.business_unit_id })).toEqual({
      business_unit_id: unit.business_unit_id,
      pending: 1,
    });
    const theirs = await submit(submission(), other);
    const mine = await submit(submission(), unit);
    const later = await submit(submission(), unit);
    expect(((await information(theirs, other)).body as { data: { status: string } }).data.status).toBe("VALIDATING");
    expect(((await information(mine, unit)).body as { data: { status: string } }).data.status).toBe("SYSTEM_ERROR");
    expect(((await information(later, unit)).body as { data: { status: string } }).data.status).toBe("VALIDATING");
    const errors = await gw.call("GET", `/v1/notifications?notification_type=application.error&subject=${mine}`, {
      as: unit,
    });
    expect((errors.body as { data: unknown[] }).data).toHaveLength(1);
    const v0 = await gw.call("GET", `/v0/notifications?notification_type=SYSTEM_ERROR&subject=${mine}`, { as: unit });
    expect((v0.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it("without a business unit, fails the next submissions of any unit; a replay does not use one up", async () => {
    const unit = await gw.newBusinessUnit();
    const key = idempotencyKey();
    const first = await submit(submission(), unit, key);
    expect(await scheduleSystemErrors({ count: 1 })).toEqual({ business_unit_id: null, pending: 1 });
    expect(await submit(submission(), unit, key)).toBe(first); // a replay is not a new submission
    expect(((await information(first, unit)).body as { data: { status: string } }).data.status).toBe("VALIDATING");
    const failed = await submit(submission(), unit);
    expect(((await information(failed, unit)).body as { data: { status: string } }).data.status).toBe("SYSTEM_ERROR");
  });

  it("fails a submission that meets a scheduled system error however soon automatic processing decides, and decides the others", async () => {
    // Decisions due at once, and run again by every clock advance while the submissions arrive.
    const quick = await startGateway({ decisionDelayMs: 0 });
    try {
      await quick.sandbox("PUT", "/sandbox/v1/settings", { processing: "automatic", duplicate_rate: 0 });
      const unit = await quick.newBusinessUnit();
      const statusOf = async (id: string) =>
        (
          (await quick.call("GET", `/v0/applications/${id}/information`, { as: unit })).body as {
            data: { status: string };
          }
        ).data.status;
      const submitted = async () => {
        const answer = await quick.call("POST", "/v0/applications", {
          body: submission(),
          headers: { "idempotency-key": idempotencyKey() },
          as: unit,
        });
        expect(answer.status).toBe(202);
        return (answer.body as { data: { application_request_id: string } }).data.application_request_id;
      };
      const advancing = async (work: Promise<string[]>) => {
        let done = false;
        const advances = (async () => {
          while (!done) await quick.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 1 });
        })();
        try {
          return await work;
        } finally {
          done = true;
          await advances;
        }
      };
      await quick.sandbox("POST", "/sandbox/v1/system-errors", { business_unit_id: unit.business_unit_id, count: 20 });
      const failed = await advancing(Promise.all(Array.from({ length: 20 }, submitted)));
      expect(await Promise.all(failed.map(statusOf))).toEqual(failed.map(() => "SYSTEM_ERROR"));

      // Fewer errors than submissions: the ones that did not get one are decided as usual.
      await quick.sandbox("POST", "/sandbox/v1/system-errors", { business_unit_id: unit.business_unit_id, count: 2 });
      const mixed = await advancing(Promise.all(Array.from({ length: 6 }, submitted)));
      await quick.sandbox("POST", "/sandbox/v1/clock/advance", { seconds: 1 });
      const statuses = await Promise.all(mixed.map(statusOf));
      expect(statuses.filter((status) => status === "SYSTEM_ERROR")).toHaveLength(2);
      expect(statuses.filter((status) => status === "VALIDATING")).toEqual([]);
    } finally {
      await quick.stop();
    }
  });

  it("answers 404 for an unknown business unit and 400 for a count out of 1..100", async () => {
    expect(
      (
        await gw.sandbox("POST", "/sandbox/v1/system-errors", {
          business_unit_id: "3d5e7f90-1a2b-4c3d-8e4f-5a6b7c8d9e0f",
        })
      ).status,
    ).toBe(404);
    expect((await gw.sandbox("POST", "/sandbox/v1/system-errors", { count: 0 })).status).toBe(400);
    expect((await gw.sandbox("POST", "/sandbox/v1/system-errors", { count: 101 })).status).toBe(400);
  });

  it("releases the Idempotency-Key of an application that ended in SYSTEM_ERROR: the same key creates a new application", async () => {
    const unit = await gw.newBusinessUnit();
    const key = idempotencyKey();
    await scheduleSystemErrors({ business_unit_id: unit.business_unit_id });
    const failed = await submit(submission(), unit, key);
    expect(((await information(failed, unit)).body as { data: { status: string } }).data.status).toBe("SYSTEM_ERROR");

    const retried = await submit(submission(), unit, key);
    expect(retried).not.toBe(failed);
    expect(((await information(retried, unit)).body as { data: { status: string } }).data.status).toBe("VALIDATING");
    expect(((await information(failed, unit)).body as { data: { status: string } }).data.status).toBe("SYSTEM_ERROR");
    // The key now names the new application: the usual replay and 409 rules apply to it.
    expect(await submit(submission(), unit, key)).toBe(retried);
    const changed = await gw.call("POST", "/v0/applications", {
      as: unit,
      body: submission({ customer_reference: "CASE-2" }),
      headers: { "idempotency-key": key },
    });
    expect(changed.status).toBe(409);
  });

  it("takes another body with a released key too, and releases a key whose application was moved to SYSTEM_ERROR by a transition", async () => {
    const key = idempotencyKey();
    const first = await submit(submission(), undefined, key);
    expect((await move(first, { to: "SYSTEM_ERROR" })).status).toBe(200);
    const corrected = await submit(submission({ customer_reference: "CASE-2" }), undefined, key);
    expect(corrected).not.toBe(first);
  });

  it("keeps the key of an application in any other status (replay, or 409 for another body)", async () => {
    const key = idempotencyKey();
    const first = await submit(submission(), undefined, key);
    await move(first, { to: "VALIDATION_FAILED" });
    expect(await submit(submission(), undefined, key)).toBe(first);
    const changed = await gw.call("POST", "/v0/applications", {
      body: submission({ customer_reference: "CASE-2" }),
      headers: { "idempotency-key": key },
    });
    expect(changed.status).toBe(409);
  });
});

describe("early completion", () => {
  /** A title number of this test's own, so that no other test's application shares it. */
  const ownTitle = () => `ZZ${100_000 + Math.floor(Math.random() * 800_000)}`;
  const completed = async (title: string, early: boolean) => {
    const id = await submit(submission({ titles: { "title-1": { title_number: title } } }));
    await move(id, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    expect((await move(id, { to: "COMPLETED", early_completion: early })).status).toBe(200);
    return id;
  };
  const despatched = async (id: string) => {
    const answer = await gw.call(
      "GET",
      `/v1/notifications?notification_type=application.correspondence-despatched&subject=${id}`,
    );
    return (answer.body as { data: { payload: { data: { documents: { type: { code: string } }[] } } }[] }).data;
  };

  it("sends the ECM and ECR documents in a later correspondence-despatched when the next application of the title completes, once", async () => {
    const title = ownTitle();
    const early = await completed(title, true);
    expect(await despatched(early)).toEqual([]);
    await completed(ownTitle(), false); // another title: no evidence of discharge for this one
    expect(await despatched(early)).toEqual([]);

    await completed(title, false);
    const [notification, ...more] = await despatched(early);
    expect(more).toEqual([]);
    expect(notification?.payload.data.documents.map((d) => d.type.code)).toEqual(["ECM", "ECR"]);
    const info = (await information(early)).body as {
      data: { correspondence: { documents: { type: { code: string } }[] }[] };
    };
    expect(info.data.correspondence.map((record) => record.documents.map((d) => d.type.code).join())).toEqual([
      "CMT,REG",
      "ECM,ECR",
    ]);

    await completed(title, false);
    expect(await despatched(early)).toHaveLength(1);
  });

  it("sends nothing to an application that completed without early completion", async () => {
    const title = ownTitle();
    const plain = await completed(title, false);
    await completed(title, false);
    expect(await despatched(plain)).toEqual([]);
  });
});
