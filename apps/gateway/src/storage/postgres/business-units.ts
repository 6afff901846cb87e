import { json, toBusinessUnit, toUnitSandboxState, toUser, UNIT_RECORD_TABLES } from "../rows.js";
import type { BusinessUnitStore } from "../ports/business-units.js";
import type { PostgresDatabase } from "./database.js";

/**
 * The business units, their users, tokens and own state, on PostgreSQL; a unit's reset deletes its rows of the store
 * parts' tables (`partTables`, see `StorePart.tables`) first.
 */
export function postgresBusinessUnits(db: PostgresDatabase, partTables: readonly string[]): BusinessUnitStore {
  return {
    async createBusinessUnit(unit, user) {
      await db.transaction(async (client) => {
        await db.query(
          "INSERT INTO business_units (id, name, created_ms, token_hash) VALUES ($1, $2, $3, $4)",
          [unit.id, unit.name, unit.createdMs, unit.tokenHash ?? null],
          client,
        );
        await db.query(
          "INSERT INTO users (username, business_unit_id, password_hash, created_ms) VALUES ($1, $2, $3, $4)",
          [user.username, user.businessUnitId, user.passwordHash, user.createdMs],
          client,
        );
      });
    },

    async findBusinessUnit(id) {
      const row = (await db.query("SELECT id, name, created_ms, token_hash FROM business_units WHERE id = $1", [id]))
        .rows[0];
      return row && toBusinessUnit(row);
    },

    async findBusinessUnitByTokenHash(tokenHash) {
      const row = (
        await db.query("SELECT id, name, created_ms, token_hash FROM business_units WHERE token_hash = $1", [tokenHash])
      ).rows[0];
      return row && toBusinessUnit(row);
    },

    async setTokenHash(businessUnitId, tokenHash) {
      // Tokens are looked up in the store on every request: no instance holds the old one to forget.
      const updated = await db.query("UPDATE business_units SET token_hash = $1 WHERE id = $2", [
        tokenHash,
        businessUnitId,
      ]);
      return updated.rowCount === 1;
    },

    async unitSandboxStates() {
      const { rows } = await db.query(
        "SELECT id, clock_offset_ms, settings FROM business_units WHERE clock_offset_ms IS NOT NULL OR settings IS NOT NULL",
      );
      return rows.map(toUnitSandboxState);
    },

    async putUnitSandboxState(state) {
      await db.transaction(async (client, changed) => {
        changed.push({ kind: "state" });
        await db.query(
          "UPDATE business_units SET clock_offset_ms = $1, settings = $2 WHERE id = $3",
          [state.clockOffsetMs, state.settings === null ? null : json(state.settings), state.businessUnitId],
          client,
        );
      });
    },

    async resetBusinessUnit(businessUnitId, settingKeysLike) {
      await db.transaction(async (client, changed) => {
        changed.push({ kind: "notifications", businessUnitId }, { kind: "state" });
        await db.query(
          "DELETE FROM correspondence WHERE application_id IN (SELECT id FROM applications WHERE business_unit_id = $1)",
          [businessUnitId],
          client,
        );
        for (const table of [...partTables, ...UNIT_RECORD_TABLES]) {
          await db.query(`DELETE FROM ${table} WHERE business_unit_id = $1`, [businessUnitId], client);
        }
        for (const pattern of settingKeysLike)
          await db.query("DELETE FROM settings WHERE key LIKE $1", [pattern], client);
        await db.query(
          "UPDATE business_units SET clock_offset_ms = NULL, settings = NULL WHERE id = $1",
          [businessUnitId],
          client,
        );
      });
    },

    async findUser(username) {
      const row = (await db.query("SELECT * FROM users WHERE username = $1", [username])).rows[0];
      return row && toUser(row);
    },

    async setPasswordHash(username, passwordHash) {
      await db.transaction(async (client, changed) => {
        // Other instances drop the credentials they remember, so that the old password stops working there too.
        changed.push({ kind: "state" });
        await db.query("UPDATE users SET password_hash = $1 WHERE username = $2", [passwordHash, username], client);
      });
    },
  };
}
