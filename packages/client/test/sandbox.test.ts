import { describe, expect, it } from "vitest";
import { createBusinessUnitSandbox, createSandboxClient } from "../src/index.js";
import { FAKE_GATEWAY } from "./support/clients.js";
import { jsonResponse, problemResponse, recordingFetch } from "./support/recording-fetch.js";

describe("createSandboxClient", () => {
  it("sends the bearer token on typed calls of the control plane", async () => {
    const recorder = recordingFetch(() => jsonResponse(200, { now: "2025-02-20T09:06:29.040Z" }));
    const sandbox = createSandboxClient({
      baseUrl: `${FAKE_GATEWAY}/`,
      token: "sandbox-token",
      fetch: recorder.fetch,
    });
    const { data } = await sandbox.GET("/sandbox/v1/clock");
    expect(data).toMatchObject({ now: "2025-02-20T09:06:29.040Z" });
    expect(recorder.last().url.href).toBe(`${FAKE_GATEWAY}/sandbox/v1/clock`);
    expect(recorder.last().headers.get("authorization")).toBe("Bearer sandbox-token");
  });
});

describe("createBusinessUnitSandbox", () => {
  const created = {
    business_unit_id: "2b7e4c1a-9d3f-4e6b-8a2c-5f1d0e9b7a36",
    username: "bu-2b7e4c1a",
    password: "q7Vw2LmZ9xRt4KpB8sNe3HcY",
    sandbox_token: "lrgu_RXhhbXBsZSBvbmx5OiBub3QgYSByZWFsIHVuaXQgdG8",
  };

  it("creates the unit with the admin token, then sends the unit's own token", async () => {
    const recorder = recordingFetch((request) =>
      request.url.pathname === "/sandbox/v1/business-units"
        ? jsonResponse(201, created)
        : jsonResponse(200, { now: "2025-02-20T09:06:29.040Z" }),
    );
    const unit = await createBusinessUnitSandbox({
      baseUrl: FAKE_GATEWAY,
      adminToken: "admin-token",
      name: "Pipeline 7",
      fetch: recorder.fetch,
    });
    expect(recorder.last().headers.get("authorization")).toBe("Bearer admin-token");
    expect(JSON.parse(recorder.last().body)).toEqual({ name: "Pipeline 7" });
    expect(unit).toMatchObject({
      businessUnitId: created.business_unit_id,
      username: created.username,
      password: created.password,
      token: created.sandbox_token,
    });
    await unit.sandbox.GET("/sandbox/v1/clock");
    expect(recorder.last().headers.get("authorization")).toBe(`Bearer ${created.sandbox_token}`);
    expect(recorder.requests).toHaveLength(2);
  });

  it("throws the typed error of a refusal", async () => {
    const recorder = recordingFetch(() =>
      problemResponse(403, "403-05", "creating a business unit needs the admin token"),
    );
    await expect(
      createBusinessUnitSandbox({
        baseUrl: FAKE_GATEWAY,
        adminToken: created.sandbox_token,
        fetch: recorder.fetch,
      }),
    ).rejects.toMatchObject({ name: "ProblemError", status: 403, code: "403-05" });
  });
});
