import { toBusinessUnit, toUnitSandboxState, toUser, type Row } from "../rows.js";
import type { BusinessUnitStore } from "../ports/business-units.js";
import type { SqliteConnection } from "./connection.js";

/** The business units, their users, tokens and own state, on SQLite. */
export function sqliteBusinessUnits({ read, writer }: SqliteConnection): BusinessUnitStore {
  return {
    async createBusinessUnit(unit, user) {
      return writer.run("createBusinessUnit", unit, user);
    },

    async findBusinessUnit(id) {
      const row = read("SELECT id, name, created_ms, token_hash FROM business_units WHERE id = ?").get(id) as
        Row | undefined;
      return row && toBusinessUnit(row);
    },

    async findBusinessUnitByTokenHash(tokenHash) {
      const row = read("SELECT id, name, created_ms, token_hash FROM business_units WHERE token_hash = ?").get(
        tokenHash,
      ) as Row | undefined;
      return row && toBusinessUnit(row);
    },

    async setTokenHash(businessUnitId, tokenHash) {
      return writer.run("setTokenHash", businessUnitId, tokenHash);
    },

    async unitSandboxStates() {
      const rows = read(
        "SELECT id, clock_offset_ms, settings FROM business_units WHERE clock_offset_ms IS NOT NULL OR settings IS NOT NULL",
      ).all() as Row[];
      return rows.map(toUnitSandboxState);
    },

    async putUnitSandboxState(state) {
      return writer.run("putUnitSandboxState", state);
    },

    async resetBusinessUnit(businessUnitId, settingKeysLike) {
      return writer.run("resetBusinessUnit", businessUnitId, settingKeysLike);
    },

    async findUser(username) {
      const row = read("SELECT * FROM users WHERE username = ?").get(username) as Row | undefined;
      return row && toUser(row);
    },

    async setPasswordHash(username, passwordHash) {
      return writer.run("setPasswordHash", username, passwordHash);
    },
  };
}
