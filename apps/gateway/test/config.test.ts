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
    expect(configFromEnv({ [name]: "1" })[field]).toBe(1);
    expect(configFromEnv({ [name]: String(max) })[field]).toBe(max);
  });

  it("leaves it unset when the variable is absent or empty", () => {
    expect(configFromEnv({})[field]).toBeUndefined();
    expect(configFromEnv({ [name]: "" })[field]).toBeUndefined();
  });
});
