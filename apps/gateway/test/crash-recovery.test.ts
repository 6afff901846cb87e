import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../src/storage/sqlite/driver.js";
import { afterAll, describe, expect, it } from "vitest";
import { basic, DEMO, SANDBOX_TOKEN, submission } from "./support/gateway.js";
import { startGatewayProcess, type GatewayProcess } from "./support/process.js";
import { checksumOf, rawPut, SAMPLES } from "./support/upload.js";

/** How many times the gateway is killed: a few in `npm test`, 20 or more with LRG_CRASH_RUNS. */
const RUNS = Number(process.env["LRG_CRASH_RUNS"] ?? 4);
const dataDir = mkdtempSync(join(tmpdir(), "lrg-crash-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const auth = { authorization: basic(DEMO) };
const sandbox = { authorization: `Bearer ${SANDBOX_TOKEN}`, "content-type": "application/json" };

/** What the gateway confirmed (answered 2xx): after any crash, all of it must still be there. */
const confirmed = {
  applications: new Map<string, string>(), // id → status confirmed last
  notifications: new Set<string>(),
  acknowledged: new Set<string>(),
  uploads: new Set<string>(),
  /** Transitions sent whose answer was lost in a crash: applied or not, either is correct. */
  unknownOutcome: new Set<string>(),
};

async function json(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** One step of mixed traffic; failures caused by the kill are expected and prove nothing either way. */
async function step(gateway: GatewayProcess): Promise<void> {
  const choice = Math.random();
  if (choice < 0.3) {
    const response = await fetch(`${gateway.url}/v0/applications`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify(submission()),
    });
    if (response.status === 202)
      confirmed.applications.set(
        ((await json(response)) as { data: { application_request_id: string } }).data.application_request_id,
        "VALIDATING",
      );
  } else if (choice < 0.6) {
    const validating = [...confirmed.applications].find(
      ([id, status]) => status === "VALIDATING" && !confirmed.unknownOutcome.has(id),
    );
    if (!validating) return;
    confirmed.unknownOutcome.add(validating[0]);
    const response = await fetch(`${gateway.url}/sandbox/v1/applications/${validating[0]}/transitions`, {
      method: "POST",
      headers: sandbox,
      body: JSON.stringify({ to: "ACCEPTED_PRIORITY_PROTECTED" }),
    });
    if (response.status === 200) {
      confirmed.unknownOutcome.delete(validating[0]);
      const result = (await json(response)) as { notifications: { notification_id: string }[] };
      confirmed.applications.set(validating[0], "ACCEPTED_PRIORITY_PROTECTED");
      for (const n of result.notifications) confirmed.notifications.add(n.notification_id);
    }
  } else if (choice < 0.8) {
    const listed = await fetch(`${gateway.url}/v1/notifications?limit=20`, { headers: auth });
    if (listed.status !== 200) return;
    const ids = ((await json(listed)) as { data: { notification_id: string }[] }).data
      .map((n) => n.notification_id)
      .slice(0, 5);
    if (ids.length === 0) return;
    const response = await fetch(`${gateway.url}/v1/notifications/acknowledge`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ data: ids }),
    });
    if (response.status === 200)
      for (const id of ((await json(response)) as { data: { acknowledged: string[] } }).data.acknowledged)
        confirmed.acknowledged.add(id);
  } else {
    const bytes = Buffer.concat([SAMPLES.pdf, Buffer.from(randomUUID())]);
    const created = await fetch(`${gateway.url}/v0/documents/url`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksumOf(bytes) },
      }),
    });
    if (created.status !== 200) return;
    const { upload_url: url, document_id: id } = (
      (await json(created)) as { data: { upload_url: string; document_id: string } }
    ).data;
    const answer = await rawPut(
      url,
      { "content-length": String(bytes.length), "x-provider-checksum-sha256": checksumOf(bytes) },
      bytes,
    );
    if (answer.status === 200) confirmed.uploads.add(id);
  }
}

describe("crash recovery", () => {
  it(`keeps everything it confirmed across ${RUNS} kill -9s under mixed load, and no half-written blob is visible`, async () => {
    let gateway = await startGatewayProcess(dataDir);
    await fetch(`${gateway.url}/sandbox/v1/settings`, {
      method: "PUT",
      headers: sandbox,
      body: JSON.stringify({ processing: "manual", duplicate_rate: 0 }),
    });
    const confirmedSoFar = () => confirmed.applications.size + confirmed.acknowledged.size + confirmed.uploads.size;
    for (let run = 0; run < RUNS; run += 1) {
      let stopAt = Number.POSITIVE_INFINITY;
      const workers = Array.from({ length: 4 }, async () => {
        while (Date.now() < stopAt) await step(gateway).catch(() => undefined);
      });
      // Kill at a random moment once this run has confirmed something: on a loaded machine the first answers can
      // take seconds, and a kill before any of them would test nothing.
      const before = confirmedSoFar();
      const patience = Date.now() + 60_000;
      while (confirmedSoFar() === before && Date.now() < patience)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 700));
      gateway.child.kill("SIGKILL");
      stopAt = Date.now() + 200; // requests in flight at the kill, and a few refused ones after it
      await Promise.all(workers);
      gateway = await startGatewayProcess(dataDir);
    }
    try {
      for (const [id, status] of confirmed.applications) {
        const info = (await json(
          await fetch(`${gateway.url}/v0/applications/${id}/information`, { headers: auth }),
        )) as { data: { status: string } };
        if (confirmed.unknownOutcome.has(id))
          expect(["VALIDATING", "ACCEPTED_PRIORITY_PROTECTED"], id).toContain(info.data.status);
        else expect(info.data.status, id).toBe(status);
      }
      const seen = new Map<string, string>();
      for (const state of ["NEW", "ACKNOWLEDGED"]) {
        // Pages overlap by a millisecond (created_after is exclusive and several notifications can share one).
        let after = "2000-01-01T00:00:00Z";
        for (;;) {
          const page = (
            (await json(
              await fetch(
                `${gateway.url}/v1/notifications?status=${state}&created_after=${encodeURIComponent(after)}`,
                { headers: auth },
              ),
            )) as { data: { notification_id: string; created_datetime: string }[] }
          ).data;
          const fresh = page.filter((n) => !seen.has(n.notification_id));
          for (const n of page) seen.set(n.notification_id, state);
          if (page.length < 100 || fresh.length === 0) break;
          after = new Date(Date.parse(page.at(-1)?.created_datetime ?? after) - 1).toISOString();
        }
      }
      for (const id of confirmed.notifications) expect(seen.has(id), `emitted notification ${id} survives`).toBe(true);
      for (const id of confirmed.acknowledged)
        expect(seen.get(id), `acknowledged notification ${id} stays acknowledged`).toBe("ACKNOWLEDGED");
    } finally {
      await gateway.stop();
    }
    // Every blob under its name is exactly the bytes that name (the content address); no leftovers of writes.
    const blobs = join(dataDir, "blobs");
    for (const prefix of readdirSync(blobs).filter((name) => name !== "incoming")) {
      for (const file of readdirSync(join(blobs, prefix))) {
        expect(
          createHash("sha256")
            .update(readFileSync(join(blobs, prefix, file)))
            .digest("hex"),
        ).toBe(file);
      }
    }
    expect(readdirSync(join(blobs, "incoming"))).toEqual([]);
    const db = openSqlite(join(dataDir, "gateway.sqlite"), { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      for (const id of confirmed.uploads) {
        expect(db.prepare("SELECT status FROM documents WHERE id = ?").pluck().get(id), `upload ${id}`).not.toBe(
          "AWAITING_UPLOAD",
        );
      }
    } finally {
      db.close();
    }
    console.log(
      `crash recovery: ${RUNS} kills; confirmed ${confirmed.applications.size} submissions, ${confirmed.notifications.size} emitted notifications, ${confirmed.acknowledged.size} acknowledgements, ${confirmed.uploads.size} uploads; ${confirmed.unknownOutcome.size} transitions of unknown outcome`,
    );
    expect(confirmed.applications.size).toBeGreaterThan(0);
    expect(confirmed.acknowledged.size + confirmed.uploads.size).toBeGreaterThan(0);
  }, 400_000);
});
