import { json, parse } from "../rows.js";
import type { SettingStore } from "../ports/settings.js";
import type { PostgresDatabase } from "./database.js";

/** Settings on PostgreSQL: a change of one under its row lock, so that instances take turns. */
export function postgresSettings(db: PostgresDatabase): SettingStore {
  return {
    async getSetting<T>(key: string) {
      const row = (await db.query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key])).rows[0];
      return row === undefined ? undefined : parse<T>(row.value);
    },

    async putSetting(key, value) {
      await db.transaction(async (client, changed) => {
        changed.push({ kind: "state" });
        await db.query(
          "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          [key, json(value)],
          client,
        );
      });
    },

    async updateSetting<T, R>(key: string, change: (current: T | undefined) => { value: T; answer: R }) {
      // First without a lock: a change that keeps the value (a submission asks for a scheduled fault each time) is
      // answered from the value read, which was the latest committed, and writes nothing. Otherwise, under the row lock.
      const seen = (await db.query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key])).rows[0];
      if (seen !== undefined) {
        const { value, answer } = change(parse<T | null>(seen.value) ?? undefined);
        if (json(value) === seen.value) return answer;
      }
      return db.transaction(async (client) => {
        // The row exists before it is locked, so that two instances creating it at once still take turns.
        await db.query(
          "INSERT INTO settings (key, value) VALUES ($1, 'null') ON CONFLICT (key) DO NOTHING",
          [key],
          client,
        );
        const row = (
          await db.query<{ value: string }>("SELECT value FROM settings WHERE key = $1 FOR UPDATE", [key], client)
        ).rows[0];
        const current = row === undefined ? undefined : (parse<T | null>(row.value) ?? undefined);
        const { value, answer } = change(current);
        await db.query("UPDATE settings SET value = $2 WHERE key = $1", [key, json(value)], client);
        return answer;
      });
    },
  };
}
