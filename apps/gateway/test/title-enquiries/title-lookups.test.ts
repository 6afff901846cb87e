import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allTitles } from "../../src/title-enquiries/register.js";
import { TITLE_RATE_LIMIT } from "../../src/title-enquiries/routes.js";
import type { Credentials } from "../support/gateway.js";
import { dataOf, startTitleGateway, type TitleGateway } from "./support.js";

let gw: TitleGateway;
let unit: Credentials;
beforeAll(async () => {
  gw = await startTitleGateway();
  unit = await gw.newBusinessUnit();
});
afterAll(async () => {
  await gw.stop();
});

const availability = (title: string) => `/s1/v1/titles/${title}/official-copies/availability`;
const proprietors = (title: string) => `/s2/v1/titles/${title}/registered-proprietor-names`;

describe("official copy availability (s1)", () => {
  it.each(allTitles().map((t) => [t.title_number, t] as const))("%s answers its availability from the register", async (number, title) => {
    const answer = await gw.call("GET", availability(number), { as: unit });
    expect(answer.status).toBe(200);
    expect(dataOf(answer)).toEqual({ title_number: number, ...title.official_copies });
  });

  it("answers the OC1 and OC2 availability of the clean title as the spec's example", async () => {
    const data = dataOf(await gw.call("GET", availability("ZZ100001"), { as: unit }));
    expect(data).toMatchObject({ title_status_code: "VALID", applications_pending: false, register: { availability_code: "IMMEDIATE" } });
    expect(data["referred_to_documents"]).toEqual([
      expect.objectContaining({ type_code: "TRANSFER", entry_numbers: ["A2", "C1"], availability_code: "IMMEDIATE", plan_only: false }),
      expect.objectContaining({ type_code: "CONVEYANCE", filed_under: "ZZ100003", availability_code: "MANUAL", plan_only: true }),
    ]);
  });

  it("answers a closed title as closed and continued, without copies", async () => {
    const data = dataOf(await gw.call("GET", availability("ZZ100006"), { as: unit }));
    expect(data).toMatchObject({ title_status_code: "CLOSED_AND_CONTINUED", continued_under_title_number: "ZZ100012", register: { availability_code: "UNAVAILABLE" } });
  });
});

describe("registered proprietor names (s2)", () => {
  it.each(allTitles().map((t) => [t.title_number, t] as const))("%s answers its proprietors from the register", async (number, title) => {
    const answer = await gw.call("GET", proprietors(number), { as: unit });
    expect(answer.status).toBe(200);
    expect(dataOf(answer)).toEqual({ title_number: number, ...title.proprietor_names, proprietors: title.proprietors });
  });

  it.each([
    ["private individuals", "ZZ100001", { title_status_code: "VALID", proprietors: [expect.objectContaining({ proprietor_type: "PRIVATE_INDIVIDUAL", proprietor_name: "ALEX EXAMPLE", sequence: 1 }), expect.objectContaining({ proprietor_name: "SAM EXAMPLE", sequence: 2 })] }],
    ["an organisation", "ZZ100008", { proprietors: [{ proprietor_type: "ORGANISATION", proprietor_name: "EXAMPLE HOMES LIMITED", organisation_type: "CORPORATE_BODY", company_location: "ENGLAND_OR_WALES" }] }],
    ["a closed title", "ZZ100006", { title_status_code: "CLOSED_AND_CONTINUED", continued_under_title_number: "ZZ100012", proprietors: [] }],
    ["a pending first registration", "ZZ100011", { title_status_code: "PENDING_NEW_TITLE", proprietors: [expect.objectContaining({ proprietor_name: "EXAMPLE ESTATES LIMITED" })] }],
  ])("%s", async (_name, title, want) => {
    expect(dataOf(await gw.call("GET", proprietors(title), { as: unit }))).toMatchObject(want);
  });
});

describe("s1 and s2 refuse what the spec refuses", () => {
  it.each([
    ["a lower-case title number", "zz100001", 400, "BG40001"],
    ["a mixed-case title number", "Zz100001", 400, "BG40001"],
    ["a title number of ten characters", "ZZ10000100", 400, "BG40001"],
    ["a title number with a hyphen", "ZZ-10001", 400, "BG40001"],
    ["a title number not on the register", "ZZ100010", 404, "BG40002"],
    ["another unknown title number", "AB1", 404, "BG40002"],
  ])("%s: in the registry's envelope, with its code", async (_name, title, status, code) => {
    for (const path of [availability(title), proprietors(title)]) {
      const answer = await gw.call("GET", path, { as: unit });
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      const errors = (answer.body as { errors: unknown[] }).errors;
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) {
        expect(error).toEqual({
          error_code: code,
          error_message: expect.any(String),
          http_status: String(status),
          timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/),
          trace_id: answer.headers.get("x-request-id"),
        });
      }
    }
  });

  it("refuses an undefined query parameter", async () => {
    const answer = await gw.call("GET", `${availability("ZZ100001")}?edition=1`, { as: unit });
    expect(answer.body).toMatchObject({ errors: [{ http_status: "400", error_code: "BG40001" }] });
  });

  it("any path segment answers 200, 400 or 404 (or 429 past the rate limit), never 5xx", async () => {
    const caller = await gw.newBusinessUnit();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s !== "." && s !== ".."), fc.stringMatching(/^[A-Za-z]{0,3}[1-9][0-9]{0,6}$/), fc.constantFrom(...allTitles().map((t) => t.title_number))),
        fc.boolean(),
        async (segment, s1) => {
          const path = s1 ? availability(encodeURIComponent(segment)) : proprietors(encodeURIComponent(segment));
          const answer = await gw.call("GET", path, { as: caller });
          expect([200, 400, 404, 429]).toContain(answer.status);
          if (answer.status === 200) expect(segment).toMatch(/^[A-Z0-9]{1,9}$/);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("rate limit", () => {
  it("reports the bucket on each 200 and answers 429 with Retry-After once it is empty, until it refills", async () => {
    const caller = await gw.newBusinessUnit();
    const first = await gw.call("GET", proprietors("ZZ100001"), { as: caller });
    expect(first.headers.get("x-ratelimit-burst-capacity")).toBe(String(TITLE_RATE_LIMIT.burstCapacity));
    expect(first.headers.get("x-ratelimit-replenish-rate")).toBe(String(TITLE_RATE_LIMIT.replenishPerSecond));
    expect(first.headers.get("x-ratelimit-requested-tokens")).toBe("1");
    expect(first.headers.get("x-ratelimit-remaining")).toBe(String(TITLE_RATE_LIMIT.burstCapacity - 1));

    let limited: Awaited<ReturnType<TitleGateway["call"]>> | undefined;
    for (let i = 0; i < 10 * TITLE_RATE_LIMIT.burstCapacity && !limited; i += 1) {
      const answer = await gw.call("GET", i % 2 ? availability("ZZ100001") : proprietors("ZZ100002"), { as: caller });
      if (answer.status === 429) limited = answer;
      else expect(answer.status).toBe(200);
    }
    expect(limited?.body).toMatchObject({ errors: [{ http_status: "429", error_code: "BG40006" }] });
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // Another caller has its own bucket.
    expect((await gw.call("GET", proprietors("ZZ100001"), { as: unit })).status).toBe(200);

    // The bucket refills by the gateway's clock.
    await gw.advanceClock(60);
    const refilled = await gw.call("GET", proprietors("ZZ100001"), { as: caller });
    expect(refilled.status).toBe(200);
    expect(refilled.headers.get("x-ratelimit-remaining")).toBe(String(TITLE_RATE_LIMIT.burstCapacity - 1));
  });
});
