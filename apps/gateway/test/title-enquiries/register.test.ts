import { describe, expect, it } from "vitest";
import { componentSchema, operationById } from "@lrg/spec";
import { validatorOf } from "@lrg/spec/check";
import { allTitles, findTitle } from "../../src/registry/register.js";

const validator = (name: string) => validatorOf(componentSchema(name));
const descriptionOf = (operationId: string) => String(operationById(operationId).operation["description"]);

describe("the seeded register", () => {
  const titles = allTitles();

  it("holds the scenario titles ZZ100001 to ZZ100013 but ZZ100010", () => {
    const expected = Array.from({ length: 13 }, (_, i) => `ZZ1000${String(i + 1).padStart(2, "0")}`).filter(
      (n) => n !== "ZZ100010",
    );
    expect(titles.map((t) => t.title_number)).toEqual(expected);
    expect(findTitle("ZZ100010")).toBeUndefined();
  });

  it.each(titles.map((t) => [t.title_number, t] as const))(
    "%s answers bodies that the spec's schemas accept",
    (number, title) => {
      const upperCase = validator("TitleNumberUpperCase");
      const searchPattern = validator("TitleNumber");
      expect(upperCase(number) && searchPattern(number)).toBe(true);
      const availability = validator("OfficialCopiesAvailability");
      expect(
        availability({ data: { title_number: number, ...title.official_copies } }),
        JSON.stringify(availability.errors),
      ).toBe(true);
      const names = validator("ProprietorNames");
      expect(
        names({ data: { title_number: number, ...title.proprietor_names, proprietors: title.proprietors } }),
        JSON.stringify(names.errors),
      ).toBe(true);
      expect(Number.isNaN(Date.parse(title.edition))).toBe(false);
    },
  );

  it("documents every seeded title in each operation's scenario table", () => {
    for (const operationId of [
      "officialSearchOfWhole",
      "getOfficialCopiesAvailability",
      "getRegisteredProprietorNames",
    ]) {
      const description = descriptionOf(operationId);
      for (const title of titles)
        expect(description, `${operationId} mentions ${title.title_number}`).toContain(title.title_number);
    }
  });

  it("agrees with the spec's tables on the titles' states", () => {
    expect(findTitle("ZZ100006")?.official_copies).toMatchObject({
      title_status_code: "CLOSED_AND_CONTINUED",
      continued_under_title_number: "ZZ100012",
    });
    expect(findTitle("ZZ100005")?.official_copies).toMatchObject({
      title_status_code: "PENDING_APPLICATIONS",
      applications_pending: true,
    });
    expect(findTitle("ZZ100011")?.official_copies.title_status_code).toBe("PENDING_FIRST");
    expect(findTitle("ZZ100011")?.proprietor_names.title_status_code).toBe("PENDING_NEW_TITLE");
    expect(findTitle("ZZ100009")?.official_copies.register.availability_code).toBe("MANUAL");
    expect(findTitle("ZZ100001")?.edition.startsWith("2025-03-14")).toBe(true);
    expect(findTitle("ZZ100003")?.edition.startsWith("2025-03-20")).toBe(true);
    expect(findTitle("ZZ100004")?.search.fee_gbp).toBe(6);
  });
});
