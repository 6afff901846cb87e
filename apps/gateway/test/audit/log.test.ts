import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_TOKEN } from "../support/gateway.js";
import { startGatewayProcess } from "../support/process.js";

const dataDir = mkdtempSync(join(tmpdir(), "lrg-audit-log-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the structured log of the control plane", () => {
  it("writes one info line per action with its audit entry, and never a token", async () => {
    const gateway = await startGatewayProcess(dataDir, { LRG_LOG: "on" });
    const wrong = "wrong-token-for-the-log-test";
    try {
      const settings = await fetch(`${gateway.url}/sandbox/v1/settings`, {
        method: "PUT",
        headers: { authorization: `Bearer ${SANDBOX_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ processing: "manual" }),
      });
      expect(settings.status).toBe(200);
      const refused = await fetch(`${gateway.url}/sandbox/v1/reset`, {
        method: "POST",
        headers: { authorization: `Bearer ${wrong}` },
      });
      expect(refused.status).toBe(401);
      const read = await fetch(`${gateway.url}/sandbox/v1/clock`, {
        headers: { authorization: `Bearer ${SANDBOX_TOKEN}` },
      });
      expect(read.status).toBe(200);
    } finally {
      await gateway.stop();
    }
    // The start banner is text; the log is the JSON lines.
    const lines = gateway
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map(
        (line) => JSON.parse(line) as { level: number; msg: string; reqId?: string; audit?: Record<string, unknown> },
      );
    const audited = lines.filter((line) => line.audit !== undefined);
    expect(audited.map((line) => [line.level, line.msg, line.audit?.["operation_id"], line.audit?.["status"]])).toEqual(
      [
        [30, "control-plane action", "updateSettings", 200],
        [30, "control-plane action", "resetSandbox", 401],
      ],
    );
    expect(audited[0]?.audit).toMatchObject({
      actor: { kind: "admin", business_unit_id: null },
      method: "PUT",
      path: "/sandbox/v1/settings",
      request_body: { processing: "manual" },
      problem_code: null,
    });
    expect(audited[1]?.audit).toMatchObject({
      actor: { kind: "unknown", business_unit_id: null },
      problem_code: "401-01",
    });
    for (const line of audited) expect(line.audit?.["request_id"]).toBe(line.reqId);
    const log = lines.map((line) => JSON.stringify(line)).join("\n");
    expect(log).not.toContain(SANDBOX_TOKEN);
    expect(log).not.toContain(wrong);
  });
});
