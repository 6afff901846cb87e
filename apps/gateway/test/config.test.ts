// The settings that count something (MiB, connections, statements): a whole number within bounds is taken; anything
// else stops the start with a message naming the variable, what it expects and what it was given.
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.js";

const COUNTED = [
  { name: "LRG_SQLITE_CACHE_MIB", field: "sqliteCacheMib", unit: "MiB", max: 65_536 },
  { name: "LRG_DATABASE_POOL_SIZE", field: "databasePoolSize", unit: "connections", max: 10_000 },
  {
    name: "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS",
    field: "databaseAcknowledgeStatements",
    unit: "statements",
    max: 100,
  },
] as const;

describe.each(COUNTED)("$name", ({ name, field, unit, max }) => {
  it.each(["lots", "0", "1.5", "-8", String(max + 1), " 16", "1e3"])("refuses %j with what it expects", (value) => {
    expect(() => configFromEnv({ [name]: value })).toThrow(
      `${name} must be a whole number of ${unit} from 1 to ${max}, not "${value}"`,
    );
  });

  it("takes 1 and its largest value", () => {
    // (A pool large enough for the most acknowledgement statements, which must stay below it.)
    const pool = { LRG_DATABASE_POOL_SIZE: "10000" };
    expect(configFromEnv({ ...pool, [name]: "1" })[field]).toBe(1);
    expect(configFromEnv({ ...pool, [name]: String(max) })[field]).toBe(max);
  });

  it("leaves it unset when the variable is absent or empty", () => {
    expect(configFromEnv({})[field]).toBeUndefined();
    expect(configFromEnv({ [name]: "" })[field]).toBeUndefined();
  });
});

describe("LRG_DATABASE_ACKNOWLEDGE_STATEMENTS beside LRG_DATABASE_POOL_SIZE", () => {
  it("must stay below the pool (10 unless set), so that reads and writes keep a connection", () => {
    expect(configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "9" }).databaseAcknowledgeStatements).toBe(9);
    expect(() => configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "10" })).toThrow(
      "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS must be below LRG_DATABASE_POOL_SIZE (10), not 10: the statements would hold every connection",
    );
    expect(() => configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "4", LRG_DATABASE_POOL_SIZE: "4" })).toThrow(
      "must be below LRG_DATABASE_POOL_SIZE (4), not 4",
    );
    expect(
      configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "12", LRG_DATABASE_POOL_SIZE: "20" })
        .databaseAcknowledgeStatements,
    ).toBe(12);
  });
});
