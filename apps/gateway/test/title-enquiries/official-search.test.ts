import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Problem } from "../../src/problems.js";
import { DEFAULT_SETTINGS } from "../../src/registry/sandbox-state.js";
import { errorEnvelopeOf, operationById } from "@lrg/spec";
import { DirectoryBlobStore } from "../../src/storage/blobs/directory-blob-store.js";
import { OfficialSearchService } from "../../src/title-enquiries/official-search.js";
import type { Answer, Credentials } from "../support/gateway.js";
import {
  dataOf,
  IN_SERVICE_HOURS,
  messageId,
  poll,
  search,
  searchRequest,
  SEARCH,
  startTitleGateway,
  type TitleGateway,
} from "./support.js";

type Data = Record<string, unknown> & {
  official_search_data: Record<string, unknown> & { result_entries: { advisory_entries: Record<string, unknown>[] } };
};

let gw: TitleGateway;
let unit: Credentials;
/** 10:15 London time (BST) on Tuesday 1 April 2025: inside the service hours. */
const IN_HOURS = IN_SERVICE_HOURS;

beforeAll(async () => {
  gw = await startTitleGateway();
  unit = await gw.newBusinessUnit();
});
afterAll(async () => {
  await gw.stop();
});
beforeEach(async () => {
  await gw.setClock(IN_HOURS);
});

const result = (answer: Answer) => dataOf<Data>(answer);
/** The registry's code for each problem code on the search and the poll (their `x-lrg-error-envelope`). */
const registryCodes = errorEnvelopeOf(operationById("officialSearchOfWhole"))?.codes ?? {};
/** An error in the official search's envelope: the rule's code, else the registry's code for the problem code. */
const expectProblem = (answer: Answer, status: number, code: string, rule?: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  const errors = (answer.body as { errors: Record<string, unknown>[] }).errors;
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors)
    expect(error).toMatchObject({
      status: String(status),
      code: rule ?? registryCodes[code] ?? code,
      trace_id: answer.headers.get("x-request-id"),
    });
};

describe("scenario titles", () => {
  it("ZZ100001: a clean result with priority, fee and a certificate to download", async () => {
    const body = searchRequest();
    const answer = await search(gw, body, unit);
    expect(answer.status).toBe(201);
    expect(answer.headers.get("location")).toBe(poll(String(body["message_id"])));
    const data = result(answer);
    expect(data).toMatchObject({
      message_id: body["message_id"],
      external_reference: { reference: "CONV-TEST-1" },
      actual_price: { gross_price_amount: 3, net_price_amount: 3, vat_amount: 0, currency_id: "GBP" },
      acknowledgement_message: expect.any(String),
    });
    expect(data["warning_message"]).toBeUndefined();
    expect(data.official_search_data).toMatchObject({
      title_number: "ZZ100001",
      search_from_date: "2025-03-14",
      has_register_changed: false,
      has_advisory_entries: false,
      proprietor_names: ["ALEX EXAMPLE", "SAM EXAMPLE"],
      priority_period_expiry_date: "2025-05-16",
      applicants: "Robin Sample",
      result_entries: {
        register_status_entry: { official_copy_timestamp: "2025-03-14T10:02:11.000Z" },
        advisory_entries: [],
      },
    });
    expect(Date.parse(String(data.official_search_data["certificate_timestamp"])) - Date.parse(IN_HOURS)).toBeLessThan(
      10_000,
    );

    const certificate = data["certificate"] as { type: string; link: string };
    expect(certificate.type).toBe("LINK");
    const match = new RegExp(`^${gw.url}/v1/documents/([0-9a-f]{64})$`).exec(certificate.link);
    expect(match).not.toBeNull();
    const downloadId = String(match?.[1]);
    const document = await gw.gateway.storage.findRegistryDocument(downloadId);
    expect(document).toMatchObject({
      businessUnitId: unit.business_unit_id,
      applicationId: null,
      contentType: "application/pdf",
    });
    const bytes = readFileSync(`${gw.dataDir}/blobs/${downloadId.slice(0, 2)}/${downloadId}`);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.length).toBe(document?.size);
    expect(bytes.toString("latin1")).toContain(String(data.official_search_data["official_search_number"]));

    // The link downloads the certificate (302 to a signed address), for this business unit only.
    const download = await gw.call("GET", `/v1/documents/${downloadId}`, { as: unit });
    expect(download.status).toBe(302);
    const fetched = await fetch(new URL(String(download.headers.get("location")), gw.url));
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-type")).toMatch(/^application\/pdf/);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await gw.call("GET", `/v1/documents/${downloadId}`, { as: await gw.newBusinessUnit() })).status).toBe(404);
  });

  it("ZZ100001: the register has changed when searched from before its edition", async () => {
    const data = result(await search(gw, searchRequest({}, { search_from_date: "2025-03-13" }), unit));
    expect(data.official_search_data).toMatchObject({ has_register_changed: true });
  });

  it("ZZ100002: the names never match; accepted with NAME_MISMATCH_ON_REGISTER they give an advisory entry and a warning", async () => {
    expectProblem(
      await search(gw, searchRequest({ title_number: "ZZ100002" }), unit),
      422,
      "422-01",
      "bg.state.nonamematch",
    );
    const answer = await search(
      gw,
      searchRequest({ title_number: "ZZ100002" }, { continue_application_if: ["NAME_MISMATCH_ON_REGISTER"] }),
      unit,
    );
    expect(answer.status).toBe(201);
    const data = result(answer);
    expect(data["warning_message"]).toMatch(/names/);
    expect(data.official_search_data).toMatchObject({
      has_advisory_entries: true,
      result_entries: {
        advisory_entries: [
          { entry_text: expect.any(String), name_mismatch: { registered_proprietor_names: ["JORDAN EXAMPLE"] } },
        ],
      },
    });
  });

  it("ZZ100003: a new edition and a commonhold title, with the seeded search that still has priority", async () => {
    const data = result(
      await search(gw, searchRequest({ title_number: "ZZ100003" }, { search_from_date: "2025-03-03" }), unit),
    );
    expect(data.official_search_data).toMatchObject({
      has_register_changed: true,
      has_advisory_entries: true,
      proprietor_names: ["MORGAN SAMPLE"],
      pending_official_searches_of_whole: [
        {
          certificate_timestamp: "2025-03-25T11:30:00.000Z",
          priority_type: "Charge",
          applicant: "Example Building Society",
        },
      ],
      result_entries: {
        register_status_entry: {
          entry_text: expect.stringContaining("20 March 2025"),
          official_copy_timestamp: "2025-03-20T08:45:12.000Z",
        },
        advisory_entries: [expect.objectContaining({ commonhold_title: { commonhold_title_number: "ZZ100013" } })],
      },
    });
    // Searched from the edition's day, the register has not changed.
    const later = result(
      await search(gw, searchRequest({ title_number: "ZZ100003" }, { search_from_date: "2025-03-20" }), unit),
    );
    expect(later.official_search_data["has_register_changed"]).toBe(false);
  });

  it("ZZ100004: the fee of 6.00 exceeds the expected fee unless the client expects it or accepts it", async () => {
    const price = (gross: number) => ({
      gross_price_amount: gross,
      net_price_amount: gross,
      vat_amount: 0,
      currency_id: "GBP",
    });
    const refused = await search(gw, searchRequest({ title_number: "ZZ100004" }), unit);
    expectProblem(refused, 422, "422-01", "bg.fee.feeMismatch");
    expect((refused.body as { errors: { detail: string }[] }).errors[0]?.detail).toContain("6.00 GBP");
    expectProblem(
      await search(gw, searchRequest({ title_number: "ZZ100004", expected_price: price(5.99) }), unit),
      422,
      "422-01",
      "bg.fee.feeMismatch",
    );

    const expected = result(
      await search(gw, searchRequest({ title_number: "ZZ100004", expected_price: price(6) }), unit),
    );
    expect(expected).toMatchObject({ actual_price: price(6) });
    expect(expected["warning_message"]).toBeUndefined();

    const accepted = await search(
      gw,
      searchRequest({ title_number: "ZZ100004" }, { continue_application_if: ["ACTUAL_FEE_EXCEEDS_EXPECTED_FEE"] }),
      unit,
    );
    expect(accepted.status).toBe(201);
    expect(result(accepted)).toMatchObject({
      actual_price: price(6),
      warning_message: expect.stringContaining("6.00 GBP"),
    });
  });

  it("any title: an expected fee below the standard fee is a fee mismatch", async () => {
    const answer = await search(
      gw,
      searchRequest({
        expected_price: { gross_price_amount: 2.5, net_price_amount: 2.5, vat_amount: 0, currency_id: "GBP" },
      }),
      unit,
    );
    expectProblem(answer, 422, "422-01", "bg.fee.feeMismatch");
  });

  it.each([
    ["ZZ100005", "bg.title.pendingsearchofpart", "PENDING_SEARCHES_OF_PART"],
    ["ZZ100008", "bg.title.developertitle", "DEVELOPER_TITLE"],
  ])("%s: refused with %s unless %s is accepted, then made with a warning", async (title, rule, waiver) => {
    expectProblem(await search(gw, searchRequest({ title_number: title }), unit), 422, "422-01", rule);
    const answer = await search(
      gw,
      searchRequest({ title_number: title }, { continue_application_if: [waiver] }),
      unit,
    );
    expect(answer.status).toBe(201);
    expect(result(answer)["warning_message"]).toEqual(expect.any(String));
  });

  it.each([
    ["ZZ100006", "bg.title.closed"],
    ["ZZ100007", "bg.title.caution"],
    ["ZZ100010", "bg.title.invalid"],
    ["AB123", "bg.title.invalid"],
  ])("%s: refused with %s, whatever the client accepts", async (title, rule) => {
    const everything = [
      "NAME_MISMATCH_ON_REGISTER",
      "ACTUAL_FEE_EXCEEDS_EXPECTED_FEE",
      "PENDING_SEARCHES_OF_PART",
      "DEVELOPER_TITLE",
    ];
    expectProblem(
      await search(gw, searchRequest({ title_number: title }, { continue_application_if: everything }), unit),
      422,
      "422-01",
      rule,
    );
  });

  it("ZZ100009: always processed by hand, 202 BG20001, ready 15 minutes after receipt with priority from receipt", async () => {
    const body = searchRequest({ title_number: "ZZ100009" }, { search_from_date: "2025-01-10" });
    const accepted = await search(gw, body, unit);
    expect(accepted.status).toBe(202);
    const id = String(body["message_id"]);
    expect(accepted.headers.get("location")).toBe(poll(id));
    const deferred = dataOf(accepted);
    expect(deferred).toMatchObject({ message_id: id, acknowledgement_code: "BG20001" });
    const expectedAt = Date.parse(String(deferred["expected_response_at"]));
    expect(expectedAt - Date.parse(IN_HOURS)).toBeGreaterThanOrEqual(15 * 60_000);
    expect(expectedAt - Date.parse(IN_HOURS)).toBeLessThan(15 * 60_000 + 10_000);
    expect(Number(accepted.headers.get("retry-after"))).toBeGreaterThan(890);

    const pending = await gw.call("GET", poll(id), { as: unit });
    expect(pending.status).toBe(202);
    expect(pending.body).toEqual(accepted.body);
    expect(Number(pending.headers.get("retry-after"))).toBeGreaterThan(800);

    await gw.advanceClock(15 * 60);
    const ready = await gw.call("GET", poll(id), { as: unit });
    expect(ready.status).toBe(200);
    const data = result(ready);
    expect(data["id"]).toBe(deferred["id"]);
    expect(data.official_search_data).toMatchObject({
      title_number: "ZZ100009",
      proprietor_names: ["DRAKE SAMPLE"],
      priority_period_expiry_date: "2025-05-16",
    });
    expect(Date.parse(String(data.official_search_data["certificate_timestamp"]))).toBe(expectedAt - 15 * 60_000);
    expect((await gw.call("GET", poll(id), { as: unit })).body).toEqual(ready.body);
  });

  it("ZZ100011: a pending first registration may be searched without search_from_date", async () => {
    const body = searchRequest(
      { title_number: "ZZ100011" },
      {
        search_from_date: undefined,
        registered_proprietors_details_or_applicants_for_first_registration: "Example Estates Limited",
      },
    );
    const answer = await search(gw, body, unit);
    expect(answer.status).toBe(201);
    expect(result(answer).official_search_data).toMatchObject({
      search_from_date: "2025-02-17",
      has_register_changed: false,
      proprietor_names: ["EXAMPLE ESTATES LIMITED"],
    });
  });

  it("ZZ100012 and ZZ100013: open titles searched cleanly", async () => {
    for (const title of ["ZZ100012", "ZZ100013"])
      expect((await search(gw, searchRequest({ title_number: title }), unit)).status).toBe(201);
  });

  it("upper-cases a lower-case title number before looking it up", async () => {
    const answer = await search(gw, searchRequest({ title_number: "zz100001" }), unit);
    expect(answer.status).toBe(201);
    expect(result(answer).official_search_data["title_number"]).toBe("ZZ100001");
  });

  it("lists the business unit's earlier searches of the title that still have priority", async () => {
    const caller = await gw.newBusinessUnit();
    await search(
      gw,
      searchRequest({ title_number: "ZZ100012" }, { priority_type: "Charge", applicant_party: "First Lender plc" }),
      caller,
    );
    const second = result(await search(gw, searchRequest({ title_number: "ZZ100012" }), caller));
    expect(second.official_search_data["pending_official_searches_of_whole"]).toEqual([
      expect.objectContaining({ priority_type: "Charge", applicant: "First Lender plc" }),
    ]);
    // Another business unit does not see them.
    const other = result(await search(gw, searchRequest({ title_number: "ZZ100012" }), await gw.newBusinessUnit()));
    expect(other.official_search_data["pending_official_searches_of_whole"]).toEqual([]);
  });
});

describe("priority period", () => {
  it("expires 30 working days later, across Christmas, Boxing Day and New Year and their weekends", async () => {
    await gw.setClock("2025-12-10T11:00:00.000Z");
    const data = result(await search(gw, searchRequest(), unit));
    expect(data.official_search_data["priority_period_expiry_date"]).toBe("2026-01-26");
  });

  it("expires 30 working days later, across the substitute days of Christmas 2027 and New Year 2028", async () => {
    await gw.setClock("2027-12-01T12:00:00.000Z");
    expect(result(await search(gw, searchRequest(), unit)).official_search_data["priority_period_expiry_date"]).toBe(
      "2028-01-17",
    );
  });

  it("a search at 22:59 London time has priority from that day", async () => {
    await gw.setClock("2025-04-01T21:59:00.000Z"); // 22:59 London, 1 April
    expect(result(await search(gw, searchRequest(), unit)).official_search_data["priority_period_expiry_date"]).toBe(
      "2025-05-16",
    );
  });
});

describe("service hours", () => {
  it("out of hours: 202 BG20002, result at the next 06:30 London time with priority from then", async () => {
    await gw.setClock("2025-04-04T22:30:00.000Z"); // 23:30 London on Friday 4 April
    const body = searchRequest();
    const id = String(body["message_id"]);
    const accepted = await search(gw, body, unit);
    expect(accepted.status).toBe(202);
    expect(dataOf(accepted)).toMatchObject({
      acknowledgement_code: "BG20002",
      expected_response_at: "2025-04-05T05:30:00.000Z",
      message_id: id,
    });
    expect(Number(accepted.headers.get("retry-after"))).toBeGreaterThan(6 * 3600);

    const pending = await gw.call("GET", poll(id), { as: unit });
    expect(pending.status).toBe(202);
    expect(pending.body).toEqual(accepted.body);

    await gw.setClock("2025-04-05T05:29:58.000Z");
    const almost = await gw.call("GET", poll(id), { as: unit });
    expect(almost.status).toBe(202);
    expect(Number(almost.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    await gw.setClock("2025-04-05T05:30:00.000Z");
    const ready = await gw.call("GET", poll(id), { as: unit });
    expect(ready.status).toBe(200);
    // Priority from Saturday 5 April 06:30: 30 working days skip Good Friday, Easter Monday and the early May holiday.
    expect(result(ready).official_search_data).toMatchObject({
      certificate_timestamp: "2025-04-05T05:30:00.000Z",
      priority_period_expiry_date: "2025-05-21",
    });
  });

  it("early morning in winter waits for 06:30 GMT", async () => {
    await gw.setClock("2025-01-15T05:00:00.000Z");
    const accepted = await search(gw, searchRequest({}, { search_from_date: "2025-01-14" }), unit);
    expect(dataOf(accepted)).toMatchObject({
      acknowledgement_code: "BG20002",
      expected_response_at: "2025-01-15T06:30:00.000Z",
    });
  });

  it("out of hours, the business rules still refuse at once", async () => {
    await gw.setClock("2025-04-01T23:30:00.000Z");
    expectProblem(
      await search(gw, searchRequest({ title_number: "ZZ100006" }), unit),
      422,
      "422-01",
      "bg.title.closed",
    );
  });

  it("out of hours, a manual-processing title is answered BG20002 too", async () => {
    await gw.setClock("2025-04-01T23:30:00.000Z");
    const accepted = await search(gw, searchRequest({ title_number: "ZZ100009" }), unit);
    expect(dataOf(accepted)).toMatchObject({
      acknowledgement_code: "BG20002",
      expected_response_at: "2025-04-02T05:30:00.000Z",
    });
  });

  it("a search_from_date of today's London date is not in the future, even when UTC is still on the day before", async () => {
    await gw.setClock("2025-04-01T23:30:00.000Z"); // 00:30 London on 2 April
    expect((await search(gw, searchRequest({}, { search_from_date: "2025-04-02" }), unit)).status).toBe(202);
    expectProblem(
      await search(gw, searchRequest({}, { search_from_date: "2025-04-03" }), unit),
      422,
      "422-01",
      "bg.date.futuredate",
    );
  });
});

describe("message_id", () => {
  it("a reused message_id is refused with 409 and nothing is searched; the first result stays", async () => {
    const body = searchRequest();
    const first = await search(gw, body, unit);
    expect(first.status).toBe(201);
    const blobs = gw.blobCount();
    const again = await search(gw, { ...body, title_number: "ZZ100012" }, unit);
    expectProblem(again, 409, "409-02");
    expect((again.body as { errors: { detail: string }[] }).errors[0]?.detail).toContain(
      poll(String(body["message_id"])),
    );
    expect(gw.blobCount()).toBe(blobs);
    expect((await gw.call("GET", poll(String(body["message_id"])), { as: unit })).body).toEqual(first.body);
  });

  it("of two concurrent searches with one message_id, exactly one is made", async () => {
    const body = searchRequest();
    const blobs = gw.blobCount();
    const answers = await Promise.all([search(gw, body, unit), search(gw, body, unit), search(gw, body, unit)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(gw.blobCount()).toBe(blobs + 1); // one certificate: the refused ones issued none
  });

  it("of interleaved calls to the service with one message_id, exactly one issues a certificate", async () => {
    const service = new OfficialSearchService({
      storage: gw.gateway.storage,
      clock: gw.gateway.clock,
      blobs: new DirectoryBlobStore(gw.dataDir),
      settings: () => DEFAULT_SETTINGS,
    });
    const principal = { username: unit.username, businessUnitId: String(unit.business_unit_id) };
    const body = searchRequest() as Parameters<OfficialSearchService["search"]>[1];
    const blobs = gw.blobCount();
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => service.search(principal, body, gw.url)));
    expect(
      outcomes.map((o) => (o.status === "fulfilled" ? o.value.status : (o.reason as Problem).code)).sort(),
    ).toEqual([201, "409-02", "409-02"]);
    expect(gw.blobCount()).toBe(blobs + 1);
  });

  it("a deferred search uses up its message_id too", async () => {
    const body = searchRequest({ title_number: "ZZ100009" });
    expect((await search(gw, body, unit)).status).toBe(202);
    expectProblem(await search(gw, body, unit), 409, "409-02");
  });

  it("a search refused with 422 or 400 does not use up its message_id", async () => {
    const id = messageId();
    expectProblem(
      await search(gw, searchRequest({ message_id: id, title_number: "ZZ100002" }), unit),
      422,
      "422-01",
      "bg.state.nonamematch",
    );
    expectProblem(await gw.call("GET", poll(id), { as: unit }), 404, "404-01");
    expectProblem(await search(gw, searchRequest({ message_id: id }, { applicant_party: "" }), unit), 400, "400-02");
    const accepted = await search(
      gw,
      searchRequest(
        { message_id: id, title_number: "ZZ100002" },
        { continue_application_if: ["NAME_MISMATCH_ON_REGISTER"] },
      ),
      unit,
    );
    expect(accepted.status).toBe(201);
  });

  it("message_ids belong to their user: another user may use the same one and cannot poll mine", async () => {
    const other = await gw.newBusinessUnit();
    const body = searchRequest();
    const mine = await search(gw, body, unit);
    expect(mine.status).toBe(201);
    const id = String(body["message_id"]);
    expectProblem(await gw.call("GET", poll(id), { as: other }), 404, "404-01");
    const theirs = await search(gw, body, other);
    expect(theirs.status).toBe(201);
    expect(result(theirs)["id"]).not.toBe(result(mine)["id"]);
    expect((await gw.call("GET", poll(id), { as: unit })).body).toEqual(mine.body);
    expect((await gw.call("GET", poll(id), { as: other })).body).toEqual(theirs.body);
  });

  it("results are kept per user even within one business unit", async () => {
    const storage = gw.gateway.storage;
    const unitId = String(unit.business_unit_id);
    const row = {
      id: randomUUID(),
      businessUnitId: unitId,
      username: "first-user",
      messageId: "shared-message-id",
      titleNumber: "ZZ100001",
      priorityType: "Purchase",
      applicant: "A",
      receivedMs: 0,
      readyMs: 0,
      certificateMs: 0,
      priorityExpiryDate: "1970-02-11",
      deferred: null,
      result: { data: {} },
    };
    expect(await storage.insertOfficialSearch(row)).toBe(true);
    expect(await storage.insertOfficialSearch({ ...row, id: randomUUID() })).toBe(false);
    expect(await storage.findOfficialSearch(unitId, "second-user", "shared-message-id")).toBeUndefined();
    const second = { ...row, id: randomUUID(), username: "second-user" };
    expect(await storage.insertOfficialSearch(second)).toBe(true);
    expect((await storage.findOfficialSearch(unitId, "first-user", "shared-message-id"))?.id).toBe(row.id);
    expect((await storage.findOfficialSearch(unitId, "second-user", "shared-message-id"))?.id).toBe(second.id);
  });

  it("the poll service answers an immediate result again, and 404 for an unknown message_id", async () => {
    const body = searchRequest();
    const answer = await search(gw, body, unit);
    expect(await gw.call("GET", poll(String(body["message_id"])), { as: unit })).toMatchObject({
      status: 200,
      body: answer.body,
    });
    expectProblem(await gw.call("GET", poll("never-used-0001"), { as: unit }), 404, "404-01");
  });

  it("polling the same message_id always answers one body, whatever the id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9-]{4,49}$/), async (id) => {
        const answer = await search(gw, searchRequest({ message_id: id }), unit);
        if (answer.status === 409) return; // generated twice
        expect(answer.status).toBe(201);
        expect(result(answer)["message_id"]).toBe(id);
        expect((await gw.call("GET", poll(id), { as: unit })).body).toEqual(answer.body);
      }),
      { numRuns: 25 },
    );
  });
});

describe("bad input: a documented 4xx, nothing stored", () => {
  const withoutMember = (path: string[]) => {
    const body = searchRequest() as Record<string, Record<string, unknown>>;
    const [first, second] = path as [string, string | undefined];
    if (second) delete body[first]?.[second];
    else delete body[first];
    return body;
  };

  const cases: [string, () => unknown, string][] = [
    ["a message_id of 4 characters", () => searchRequest({ message_id: "abcd" }), "/body/message_id"],
    ["a message_id of 51 characters", () => searchRequest({ message_id: "a".repeat(51) }), "/body/message_id"],
    ["a message_id with an underscore", () => searchRequest({ message_id: "abc_defg" }), "/body/message_id"],
    ["a message_id starting with a hyphen", () => searchRequest({ message_id: "-abcdefg" }), "/body/message_id"],
    ["a message_id with a space", () => searchRequest({ message_id: "abc defg" }), "/body/message_id"],
    ["a title number of ten characters", () => searchRequest({ title_number: "ZZ10000100" }), "/body/title_number"],
    ["a title number with seven digits", () => searchRequest({ title_number: "ZZ1000011" }), "/body/title_number"],
    ["a title number with a leading zero", () => searchRequest({ title_number: "ZZ0100001" }), "/body/title_number"],
    [
      "a search_from_date before 1800",
      () => searchRequest({}, { search_from_date: "1799-12-31" }),
      "/body/official_search_of_whole_with_priority/search_from_date",
    ],
    [
      "an impossible search_from_date",
      () => searchRequest({}, { search_from_date: "2025-02-30" }),
      "/body/official_search_of_whole_with_priority/search_from_date",
    ],
    [
      "a search_from_date with a time",
      () => searchRequest({}, { search_from_date: "2025-03-14T00:00:00Z" }),
      "/body/official_search_of_whole_with_priority/search_from_date",
    ],
    [
      "a registered title without search_from_date",
      () => searchRequest({}, { search_from_date: undefined }),
      "/body/official_search_of_whole_with_priority/search_from_date",
    ],
    [
      "no applicant_party",
      () => withoutMember(["official_search_of_whole_with_priority", "applicant_party"]),
      "/body/official_search_of_whole_with_priority/applicant_party",
    ],
    [
      "no registered proprietors",
      () =>
        withoutMember([
          "official_search_of_whole_with_priority",
          "registered_proprietors_details_or_applicants_for_first_registration",
        ]),
      "/body/official_search_of_whole_with_priority/registered_proprietors_details_or_applicants_for_first_registration",
    ],
    [
      "no priority_type",
      () => withoutMember(["official_search_of_whole_with_priority", "priority_type"]),
      "/body/official_search_of_whole_with_priority/priority_type",
    ],
    ["no external_reference", () => withoutMember(["external_reference"]), "/body/external_reference"],
    ["no message_id", () => withoutMember(["message_id"]), "/body/message_id"],
    ["no title_number", () => withoutMember(["title_number"]), "/body/title_number"],
    [
      "an unknown priority_type",
      () => searchRequest({}, { priority_type: "Mortgage" }),
      "/body/official_search_of_whole_with_priority/priority_type",
    ],
    [
      "an unknown waiver",
      () => searchRequest({}, { continue_application_if: ["EVERYTHING"] }),
      "/body/official_search_of_whole_with_priority/continue_application_if/0",
    ],
    [
      "a repeated waiver",
      () => searchRequest({}, { continue_application_if: ["DEVELOPER_TITLE", "DEVELOPER_TITLE"] }),
      "/body/official_search_of_whole_with_priority/continue_application_if",
    ],
    [
      "an applicant_party of 101 characters",
      () => searchRequest({}, { applicant_party: "x".repeat(101) }),
      "/body/official_search_of_whole_with_priority/applicant_party",
    ],
    [
      "a reference of 26 characters",
      () => searchRequest({ external_reference: { reference: "r".repeat(26) } }),
      "/body/external_reference/reference",
    ],
    [
      "a short telephone number",
      () => searchRequest({ contact: [{ name: "A", telephone_number: "0113" }] }),
      "/body/contact/0/telephone_number",
    ],
    [
      "a price in euros",
      () =>
        searchRequest({
          expected_price: { gross_price_amount: 3, net_price_amount: 3, vat_amount: 0, currency_id: "EUR" },
        }),
      "/body/expected_price/currency_id",
    ],
    ["an unknown member", () => searchRequest({ colour: "red" }), "/body"],
  ];

  it.each(cases)("%s", async (_name, make, pointer) => {
    const body = make() as { message_id?: unknown };
    const blobs = gw.blobCount();
    const answer = await search(gw, body, unit);
    expectProblem(answer, 400, "400-02");
    // The envelope points into the body from its root, as the registry does.
    const pointers = (answer.body as { errors: { source?: { pointer: string } }[] }).errors.map(
      (error) => error.source?.pointer,
    );
    expect(pointers).toContain(pointer.replace(/^\/body/, ""));
    expect(gw.blobCount()).toBe(blobs);
    if (typeof body.message_id === "string" && /^[a-zA-Z0-9][a-zA-Z0-9-]{4,49}$/.test(body.message_id)) {
      expectProblem(await gw.call("GET", poll(body.message_id), { as: unit }), 404, "404-01");
    }
  });

  it.each([
    ["malformed JSON", '{"message_id":', "application/json", 400, "400-03"],
    ["an empty body", "", "application/json", 400, "400-03"],
    ["a form body", "message_id=abcde", "application/x-www-form-urlencoded", 415, "415-01"],
  ])("%s", async (_name, rawBody, contentType, status, code) => {
    expectProblem(
      await gw.call("POST", SEARCH, { as: unit, rawBody, headers: { "content-type": contentType } }),
      status,
      code,
    );
  });

  it.each([
    ["4 characters", "abcd"],
    ["51 characters", "a".repeat(51)],
    ["an underscore", "abc_defg"],
    ["a leading hyphen", "-abcdefg"],
  ])("a poll with a message_id of %s is refused with 400", async (_name, id) => {
    const answer = await gw.call("GET", poll(id), { as: unit });
    expectProblem(answer, 400, "400-02");
    expect(answer.body).toMatchObject({
      errors: expect.arrayContaining([expect.objectContaining({ source: { pointer: "/path/message_id" } })]),
    });
  });

  it("arbitrary JSON answers a documented 4xx, never 5xx, and stores nothing", async () => {
    const blobs = gw.blobCount();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            message_id: fc.string(),
            title_number: fc.string({ maxLength: 12 }),
            official_search_of_whole_with_priority: fc.object(),
          }),
        ),
        async (value) => {
          const answer = await search(gw, value, unit);
          expect([400, 409, 422]).toContain(answer.status);
        },
      ),
      { numRuns: 150 },
    );
    expect(gw.blobCount()).toBe(blobs);
  });

  it("without credentials: 401 and nothing stored", async () => {
    const body = searchRequest();
    const answer = await gw.call("POST", SEARCH, { as: null, body });
    expectProblem(answer, 401, "401-01");
    expect((await search(gw, body, unit)).status).toBe(201);
  });
});
