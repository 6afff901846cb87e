import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type TestGateway } from "./support/gateway.js";
import { metric } from "./support/metrics.js";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw.stop();
});

describe("operations", () => {
  it("implements every operation of the spec", () => {
    expect(gw.gateway.unimplemented).toEqual([]);
  });

  it("answers health and readiness", async () => {
    expect(await (await fetch(`${gw.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
  });

  it("counts requests per route and status in Prometheus text", async () => {
    await fetch(`${gw.url}/v1/notifications`);
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    expect(text).toMatch(/lrg_http_requests_total\{method="GET",route="\/v1\/notifications",status="401"\} \d+/);
    expect(text).toMatch(
      /lrg_http_request_duration_seconds_bucket\{method="GET",route="\/v1\/notifications",status="401",le="\+Inf"\} \d+/,
    );
  });

  it("reports the process's memory, live", async () => {
    const figure = (name: string) => metric(gw.url, `lrg_process_${name}`);
    const [resident, heapTotal, heapUsed] = [
      await figure("resident_bytes"),
      await figure("heap_total_bytes"),
      await figure("heap_used_bytes"),
    ];
    expect(heapUsed).toBeGreaterThan(0);
    expect(heapTotal).toBeGreaterThanOrEqual(heapUsed);
    expect(resident).toBeGreaterThan(heapTotal);
    // This gateway runs in the test's process: 32 MiB held outside the heap shows in the next answer (give or take
    // what the collector freed meanwhile).
    const before = await figure("external_bytes");
    const held = Buffer.alloc(32 * 1024 * 1024, 1);
    expect((await figure("external_bytes")) - before).toBeGreaterThanOrEqual(held.length * 0.75);
  });

  it("serves the bundled spec, and a request id on every answer", async () => {
    const response = await fetch(`${gw.url}/openapi.json`);
    const spec = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(spec.openapi).toBe("3.1.0");
    expect(Object.keys(spec.paths)).toContain("/v1/notifications");
    expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it("serves the docs", async () => {
    const response = await fetch(`${gw.url}/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    expect((await fetch(`${gw.url}/docs/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  it("serves the bundled spec under /docs as text a browser displays", async () => {
    const response = await fetch(`${gw.url}/docs/spec/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toMatch(/^openapi: 3\.1\.0/);
  });

  it("finishes in-flight requests on close and then refuses new ones", async () => {
    const other = await startGateway();
    await other.sandbox("PUT", "/sandbox/v1/settings", { latency_ms: 300 });
    const inFlight = fetch(`${other.url}/v1/notifications`, {
      headers: { authorization: `Basic ${Buffer.from("demo:demo-password-for-tests").toString("base64")}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = other.stop();
    const response = await inFlight;
    expect(response.status).toBe(200);
    await closing;
    await expect(fetch(`${other.url}/healthz`)).rejects.toThrow();
  });

  it("injects faults on request: every lifecycle call answers 503 with Retry-After at error_rate 1", async () => {
    await gw.sandbox("PUT", "/sandbox/v1/settings", { error_rate: 1 });
    const answer = await gw.call("GET", "/v1/notifications");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(answer.body).toMatchObject({ code: "503-01" });
    expect((await gw.sandbox("GET", "/sandbox/v1/settings")).status).toBe(200);
    await gw.sandbox("PUT", "/sandbox/v1/settings", { error_rate: 0 });
    expect((await gw.call("GET", "/v1/notifications")).status).toBe(200);
  });
});
