import { describe, expect, it } from "vitest";
import { createSandboxClient } from "../src/index.js";
import { jsonResponse, recordingFetch } from "./support/recording-fetch.js";

describe("createSandboxClient", () => {
  it("sends the bearer token on typed calls of the control plane", async () => {
    const recorder = recordingFetch(() => jsonResponse(200, { now: "2025-02-20T09:06:29.040Z" }));
    const sandbox = createSandboxClient({
      baseUrl: "http://gateway.test/",
      token: "sandbox-token",
      fetch: recorder.fetch,
    });
    const { data } = await sandbox.GET("/sandbox/v1/clock");
    expect(data).toMatchObject({ now: "2025-02-20T09:06:29.040Z" });
    expect(recorder.last().url.href).toBe("http://gateway.test/sandbox/v1/clock");
    expect(recorder.last().headers.get("authorization")).toBe("Bearer sandbox-token");
  });
});
