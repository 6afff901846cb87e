import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { basic, DEMO, idempotencyKey, SANDBOX_TOKEN, submission } from "./support/gateway.js";
import { startGatewayProcess } from "./support/process.js";
import { startTestGateway } from "../src/testing.js";

const dataDir = mkdtempSync(join(tmpdir(), "lrg-kill9-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const startProcess = () => startGatewayProcess(dataDir);

describe("durability", () => {
  it("keeps every answered write after kill -9 and a restart", async () => {
    const first = await startProcess();
    const auth = { authorization: basic(DEMO) };
    const sandbox = { authorization: `Bearer ${SANDBOX_TOKEN}`, "content-type": "application/json" };
    await fetch(`${first.url}/sandbox/v1/settings`, {
      method: "PUT",
      headers: sandbox,
      body: JSON.stringify({ processing: "manual", duplicate_rate: 0 }),
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await fetch(`${first.url}/v0/applications`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "idempotency-key": idempotencyKey() },
        body: JSON.stringify(submission()),
      });
      const id = ((await response.json()) as { data: { application_request_id: string } }).data.application_request_id;
      await fetch(`${first.url}/sandbox/v1/applications/${id}/transitions`, {
        method: "POST",
        headers: sandbox,
        body: JSON.stringify({ to: "ACCEPTED_PRIORITY_PROTECTED" }),
      });
      ids.push(id);
    }
    const listed = (await (await fetch(`${first.url}/v1/notifications`, { headers: auth })).json()) as {
      data: { notification_id: string }[];
    };
    const acknowledged = listed.data.slice(0, 2).map((n) => n.notification_id);
    await fetch(`${first.url}/v1/notifications/acknowledge`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ data: acknowledged }),
    });

    first.child.kill("SIGKILL");
    await once(first.child, "exit");

    const second = await startProcess();
    try {
      for (const id of ids) {
        const info = (await (
          await fetch(`${second.url}/v0/applications/${id}/information`, { headers: auth })
        ).json()) as { data: { status: string } };
        expect(info.data.status).toBe("ACCEPTED_PRIORITY_PROTECTED");
      }
      const fresh = (await (await fetch(`${second.url}/v1/notifications`, { headers: auth })).json()) as {
        data: { notification_id: string }[];
      };
      const done = (await (
        await fetch(`${second.url}/v1/notifications?status=ACKNOWLEDGED`, { headers: auth })
      ).json()) as { data: { notification_id: string }[] };
      expect(done.data.map((n) => n.notification_id)).toEqual(acknowledged);
      expect(fresh.data).toHaveLength(8); // 5 attachment results and 5 acceptances, 2 acknowledged
      const settings = (await (await fetch(`${second.url}/sandbox/v1/settings`, { headers: sandbox })).json()) as {
        processing: string;
      };
      expect(settings.processing).toBe("manual");
    } finally {
      await second.stop();
    }
  });
});

describe("the demo login", () => {
  it("works with the password of the latest start, even when the data directory is older", async () => {
    const directory = mkdtempSync(join(tmpdir(), "lrg-demo-"));
    try {
      const first = await startTestGateway({
        dataDir: directory,
        demoUser: { username: "demo", password: "first-password" },
      });
      await first.stop();
      const second = await startTestGateway({
        dataDir: directory,
        demoUser: { username: "demo", password: "second-password" },
      });
      const url = second.url;
      try {
        const as = (password: string) =>
          fetch(`${url}/v1/notifications`, { headers: { authorization: basic({ username: "demo", password }) } });
        expect((await as("second-password")).status).toBe(200);
        expect((await as("first-password")).status).toBe(401);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
