// The control plane's audit trail through the typed sandbox client: the operation comes from the spec, its query
// and answer are typed, and an action taken through the client is read back with its actor and result.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrap } from "../../src/index.js";
import { startGateway, type RunningGateway } from "./gateway-support.js";

let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.stop();
});

describe("the audit trail through createSandboxClient", () => {
  it("lists a settings change with its actor, request and result, filtered by operation", async () => {
    await unwrap(gw.sandbox.PUT("/sandbox/v1/settings", { body: { processing: "manual" } }));
    const { data } = await unwrap(
      gw.sandbox.GET("/sandbox/v1/audit", { params: { query: { operation_id: "updateSettings", limit: 10 } } }),
    );
    expect(data.map((entry) => [entry.actor.kind, entry.method, entry.status, entry.request_body])).toEqual([
      ["admin", "PUT", 200, { processing: "manual" }],
    ]);
  });

  it("answers a bad query as a typed 400 problem", async () => {
    const { error, response } = await gw.sandbox.GET("/sandbox/v1/audit", { params: { query: { limit: 0 } } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: "400-02" });
  });
});
