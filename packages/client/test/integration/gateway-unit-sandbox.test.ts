// createBusinessUnitSandbox against a real gateway: each business unit drives its own clock and settings with its
// unit token, and neither another unit nor the global (admin) view moves with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBusinessUnitSandbox, unwrap } from "../../src/index.js";
import { SANDBOX_TOKEN, startGateway, type RunningGateway } from "./gateway-support.js";

let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.stop();
});

const YEAR_MS = 365 * 24 * 3600 * 1000;

describe("createBusinessUnitSandbox", () => {
  it("answers a unit of one's own: its clock and settings move, nobody else's", async () => {
    const a = await createBusinessUnitSandbox({ baseUrl: gw.url, adminToken: SANDBOX_TOKEN, name: "Pipeline A" });
    const b = await createBusinessUnitSandbox({ baseUrl: gw.url, adminToken: SANDBOX_TOKEN, name: "Pipeline B" });
    const target = Date.now() + 5 * YEAR_MS;
    await unwrap(a.sandbox.PUT("/sandbox/v1/clock", { body: { now: new Date(target).toISOString() } }));
    await unwrap(a.sandbox.PUT("/sandbox/v1/settings", { body: { processing: "manual", duplicate_rate: 0 } }));

    expect(Date.parse((await unwrap(a.sandbox.GET("/sandbox/v1/clock"))).now)).toBeGreaterThanOrEqual(target);
    expect(await unwrap(a.sandbox.GET("/sandbox/v1/settings"))).toMatchObject({
      processing: "manual",
      duplicate_rate: 0,
    });
    for (const other of [b.sandbox, gw.sandbox]) {
      expect(Date.parse((await unwrap(other.GET("/sandbox/v1/clock"))).now)).toBeLessThan(target - YEAR_MS);
      expect(await unwrap(other.GET("/sandbox/v1/settings"))).toMatchObject({ processing: "automatic" });
    }
    // The registry credentials of the unit work on the registry interface.
    const client = gw.client({ username: a.username, password: a.password });
    expect((await unwrap(client.GET("/v1/notifications"))).data).toEqual([]);
  });

  it("refuses a unit token where the admin token is needed (403-05)", async () => {
    const a = await createBusinessUnitSandbox({ baseUrl: gw.url, adminToken: SANDBOX_TOKEN });
    await expect(createBusinessUnitSandbox({ baseUrl: gw.url, adminToken: a.token })).rejects.toMatchObject({
      name: "ProblemError",
      status: 403,
      code: "403-05",
    });
  });
});
