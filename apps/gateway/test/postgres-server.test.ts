import pg from "pg";
import { describe, expect, it } from "vitest";
import { startPostgres } from "../src/testing/postgres.js";

describe("the tests' own PostgreSQL server", () => {
  it("starts on a free port in a temporary directory, serves a fresh database and stops", async () => {
    const server = await startPostgres();
    try {
      const url = await server.createDatabase();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ answer: number }>("SELECT 1 + 1 AS answer");
      await client.end();
      expect(rows[0]?.answer).toBe(2);
    } finally {
      await server.stop();
    }
    const client = new pg.Client({ connectionString: server.url });
    await expect(client.connect()).rejects.toThrow();
  });
});
