import { json, parse } from "../rows.js";
import type { SettingStore } from "../ports/settings.js";
import type { SqliteConnection } from "./connection.js";

/** Settings on SQLite: a change of one is read here and written by the writer thread only if nothing changed it. */
export function sqliteSettings({ read, writer }: SqliteConnection): SettingStore {
  /** The setting changes of this gateway still running, by key (see updateSetting). */
  const settingChanges = new Map<string, Promise<void>>();
  return {
    async getSetting<T>(key: string) {
      const value = read("SELECT value FROM settings WHERE key = ?").pluck().get(key);
      return value === undefined ? undefined : parse<T>(value);
    },

    async putSetting(key, value) {
      return writer.run("putSetting", key, json(value));
    },

    async updateSetting<T, R>(key: string, change: (current: T | undefined) => { value: T; answer: R }) {
      // Read here, changed here, written by the writer thread only if nothing changed the value in between (else read
      // again), and not at all when the change keeps the value (a submission asks for a scheduled fault each time);
      // the changes of one key from this gateway queue behind each other, so they do not collide.
      const previous = settingChanges.get(key) ?? Promise.resolve();
      const update = previous.then(async () => {
        for (;;) {
          const stored = read("SELECT value FROM settings WHERE key = ?").pluck().get(key);
          const expected = stored === undefined ? null : String(stored);
          const { value, answer } = change(expected === null ? undefined : parse<T>(expected));
          const written = json(value);
          if (written === expected || (await writer.run("replaceSetting", key, expected, written))) return answer;
        }
      });
      const settled = update.then(
        () => undefined,
        () => undefined,
      );
      settingChanges.set(key, settled);
      void settled.then(() => {
        if (settingChanges.get(key) === settled) settingChanges.delete(key);
      });
      return update;
    },
  };
}
