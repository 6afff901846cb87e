// The fuzzer's records: pools per unit that requests name, and which records each unit owns.
import { describe, expect, it } from "vitest";
import { FuzzContext, recordsIn, Ref, stringsIn } from "../../src/fuzz/context.js";

describe("the fuzzer's records", () => {
  it("resolves a reference to a record of its pool, or to a well-formed stand-in when there is none", () => {
    const context = new FuzzContext("t", ["ZZ1"]);
    context.add("a", "application", "app-1");
    context.add("a", "application", "app-2");
    context.add("a", "application", "app-1");
    expect([0, 1, 2].map((pick) => context.resolve(new Ref("application", pick)))).toEqual(["app-1", "app-2", "app-1"]);
    expect(context.resolve(new Ref("title", 5))).toBe("ZZ1");
    expect(context.resolve(new Ref("download", 1))).toMatch(/^[0-9a-f]{64}$/);
    expect(context.resolve(new Ref("document", 1))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it("counts a record as a unit's own only when the unit made it or was answered it", () => {
    const context = new FuzzContext("t", []);
    context.harvest("a", { data: { application_request_id: "app-a", items: [{ download_id: "d1" }] } }, true);
    context.harvest("a", { application_request_id: "app-s" }, false);
    expect([context.has("a", "application", "app-a"), context.has("a", "download", "d1")]).toEqual([true, true]);
    expect(context.has("a", "application", "app-s")).toBe(false);
    expect(context.resolve(new Ref("application", 1))).toBe("app-s");
    context.clear();
    expect(context.has("a", "application", "app-a")).toBe(false);
  });

  it("takes from a request only the identifiers a client makes up, and a unit's new token from an answer", () => {
    const context = new FuzzContext("t", []);
    context.harvestChosen("b", { message_id: "m-1", document_id: "doc" }, true);
    expect([context.has("b", "message", "m-1"), context.has("b", "document", "doc")]).toEqual([true, false]);
    context.units = {
      a: { username: "a", password: "p", businessUnitId: "bu-a", sandboxToken: "old" },
      b: { username: "b", password: "p", businessUnitId: "bu-b", sandboxToken: "b" },
    };
    context.renewToken({ business_unit_id: "bu-a", sandbox_token: "new" });
    expect([context.units.a.sandboxToken, context.unitsOrThrow().b.sandboxToken]).toEqual(["new", "b"]);
    expect(() => new FuzzContext("t", []).unitsOrThrow()).toThrow(/no business units/);
  });

  it("reads the records and the strings a JSON value holds", () => {
    const value = { data: [{ notification_id: "n", payload: { registry_reference: "ABC1234", x: "y" } }], n: 1 };
    expect(recordsIn(value)).toEqual([
      { pool: "notification", value: "n" },
      { pool: "registry_reference", value: "ABC1234" },
    ]);
    expect(stringsIn(value)).toEqual(["n", "ABC1234", "y"]);
  });
});
