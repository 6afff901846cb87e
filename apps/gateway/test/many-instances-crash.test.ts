import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startPostgres } from "../src/testing/postgres.js";
import { basic, DEMO, submission } from "./support/gateway.js";
import { startGatewayProcess } from "./support/process.js";

const root = mkdtempSync(join(tmpdir(), "lrg-instances-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const auth = { authorization: basic(DEMO), "content-type": "application/json" };

/** What an instance confirmed (answered 2xx): all of it must still hold on the instance that survives. */
const confirmed = { applications: new Set<string>(), acknowledged: new Set<string>() };
let servedAfterKill = 0;
let faultsAfterKill = 0;

async function step(url: string): Promise<number> {
  if (Math.random() < 0.5) {
    const response = await fetch(`${url}/v0/applications`, {
      method: "POST",
      headers: { ...auth, "idempotency-key": randomUUID() },
      body: JSON.stringify(submission()),
    });
    if (response.status === 202)
      confirmed.applications.add(
        ((await response.json()) as { data: { application_request_id: string } }).data.application_request_id,
      );
    return response.status;
  }
  const listed = await fetch(`${url}/v0/notifications?limit=20`, { headers: auth });
  if (listed.status !== 200) return listed.status;
  const ids = ((await listed.json()) as { data: { notification_id: string; status: string }[] }).data
    .filter((n) => n.status === "NEW")
    .map((n) => n.notification_id)
    .slice(0, 5);
  if (ids.length === 0) return 200;
  const response = await fetch(`${url}/v0/notifications/acknowledge`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ data: ids }),
  });
  if (response.status === 200)
    for (const id of ((await response.json()) as { data: { acknowledged: string[] } }).data.acknowledged)
      confirmed.acknowledged.add(id);
  return response.status;
}

describe("two instances on one database, one killed under mixed load", () => {
  it("loses nothing confirmed, returns no acknowledged notification to NEW, and the other instance keeps serving", async () => {
    const postgres = await startPostgres();
    const env = {
      LRG_DATABASE_URL: await postgres.createDatabase(),
      LRG_BLOB_DIR: join(root, "blobs"),
      LRG_DECISION_DELAY_MS: "50",
    };
    const [a, b] = await Promise.all([
      startGatewayProcess(join(root, "a"), env),
      startGatewayProcess(join(root, "b"), env),
    ]);
    try {
      // Automatic processing: every submission is decided by one instance's background work, which makes notifications.
      await fetch(`${a.url}/sandbox/v1/settings`, {
        method: "PUT",
        headers: { authorization: "Bearer test-sandbox-token", "content-type": "application/json" },
        body: JSON.stringify({ processing: "automatic", duplicate_rate: 0 }),
      });
      let killed = false;
      const killAt = Date.now() + 1500;
      const stopAt = killAt + 1500;
      const workers = Array.from({ length: 4 }, async (_, worker) => {
        for (let turn = 0; Date.now() < stopAt; turn += 1) {
          const target = killed || (worker + turn) % 2 === 0 ? b : a;
          const status = await step(target.url).catch(() => 0);
          if (killed && target === b) {
            if (status >= 200 && status < 300) servedAfterKill += 1;
            else faultsAfterKill += 1;
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, killAt - Date.now()));
      a.child.kill("SIGKILL");
      killed = true;
      await Promise.all(workers);

      expect(servedAfterKill).toBeGreaterThan(0);
      expect(faultsAfterKill).toBe(0);
      for (const id of confirmed.applications) {
        expect((await fetch(`${b.url}/v0/applications/${id}/information`, { headers: auth })).status, id).toBe(200);
      }
      const acknowledged = new Set<string>();
      let after = "2000-01-01T00:00:00Z";
      for (;;) {
        const page = (
          (await (
            await fetch(`${b.url}/v1/notifications?status=ACKNOWLEDGED&created_after=${encodeURIComponent(after)}`, {
              headers: auth,
            })
          ).json()) as {
            data: { notification_id: string; created_datetime: string }[];
          }
        ).data;
        for (const n of page) acknowledged.add(n.notification_id);
        if (page.length < 100) break;
        after = page.at(-1)!.created_datetime;
      }
      for (const id of confirmed.acknowledged)
        expect(acknowledged.has(id), `acknowledged notification ${id} stays acknowledged`).toBe(true);
      console.log(
        `two instances, one killed: ${confirmed.applications.size} submissions and ${confirmed.acknowledged.size} acknowledgements confirmed; ${servedAfterKill} answers from the survivor after the kill`,
      );
      expect(confirmed.applications.size).toBeGreaterThan(0);
    } finally {
      await b.stop();
      await a.stop();
      await postgres.stop();
    }
  });
});
