import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsOf } from "@lrg/spec";
import { startGateway, type TestGateway } from "./support/gateway.js";
import { errorCodeOf } from "./support/conformance.js";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
  // Over plain HTTP the title enquiries would answer 403 (no client certificate) before asking for credentials.
  await gw.sandbox("PUT", "/sandbox/v1/settings", { require_client_certificate: false });
});
afterAll(async () => {
  await gw.stop();
});

const SAMPLE_ID = "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, SAMPLE_ID);
const protectedOperations = operationsOf("registry").filter(
  (o) => !Array.isArray(o.operation["security"]) || (o.operation["security"] as unknown[]).length > 0,
);

describe("authentication", () => {
  it.each(protectedOperations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    "%s answers 401 in its documented error shape without or with wrong credentials",
    async (_name, o) => {
      for (const as of [null, { username: "demo", password: "wrong" }, { username: "nobody", password: "x" }]) {
        const answer = await gw.call(o.method.toUpperCase(), concrete(o.path), {
          as,
          unchecked: false,
          ...(o.method === "POST" ? { body: {} } : {}),
        });
        expect(answer.status).toBe(401);
        expect(answer.headers.get("www-authenticate")).toMatch(/^Basic/);
        // The registry's code for 401 where the operation's envelope maps it (BG40004 on the title enquiries).
        const envelope = o.operation["x-lrg-error-envelope"] as { codes: Record<string, string> } | undefined;
        expect(errorCodeOf(answer.body).code).toBe(envelope?.codes["401-01"] ?? "401-01");
      }
    },
  );

  it.each(operationsOf("sandbox").map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    "sandbox %s refuses a missing or wrong bearer token",
    async (_name, o) => {
      for (const authorization of [undefined, "Bearer wrong", "Basic ZGVtbzpkZW1v"]) {
        const response = await fetch(`${gw.url}${concrete(o.path)}`, {
          method: o.method.toUpperCase(),
          headers: authorization ? { authorization } : {},
        });
        expect(response.status).toBe(401);
        expect(((await response.json()) as { code: string }).code).toBe("401-01");
      }
    },
  );

  it("refuses a malformed Authorization header", async () => {
    for (const authorization of [
      "Basic",
      "Basic !!!",
      "Bearer x",
      `Basic ${Buffer.from("no-colon").toString("base64")}`,
    ]) {
      const response = await fetch(`${gw.url}/v1/notifications`, { headers: { authorization } });
      expect(response.status, authorization).toBe(401);
    }
  });
});
