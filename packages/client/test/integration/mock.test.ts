// Integration tests against the Prism mock of the bundled spec (@lrg/mock): every request the client builds
// must pass Prism's validation of the spec, and every answer the spec documents must be read as documented.
import { startMock, type RunningMock } from "@lrg/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  createGatewayClient,
  ProblemError,
  RateLimitError,
  unwrap,
  type Fetch,
  type GatewayClient,
  type Middleware,
} from "../../src/index.js";

const APPLICATION_ID = "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";
const DOWNLOAD_ID = "3b4c1f0e9d2a7c6b5e8f1a2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
}, 90_000);
afterAll(async () => {
  await mock?.close();
});

/** Asks Prism for a documented answer other than its default one (its `Prefer` header), for one operation. */
function prefer(schemaPath: string, preference: string): Middleware {
  return {
    onRequest: ({ request, schemaPath: path }) => {
      if (path === schemaPath) request.headers.set("Prefer", preference);
    },
  };
}

function client(options: { middleware?: Middleware[]; fetch?: Fetch; retry?: false } = {}): GatewayClient {
  return createGatewayClient({ baseUrl: mock.url, username: "alex", password: "secret", ...options });
}

describe("against the Prism mock", () => {
  it("reaches the operations of the spec with requests Prism accepts", async () => {
    const api = client();
    const notifications = await unwrap(
      api.GET("/v1/notifications", {
        params: { query: { status: "NEW", limit: 100, created_after: "2025-02-20T09:06:29" } },
      }),
    );
    expect(notifications.data.length).toBeGreaterThan(0);
    const v0 = await unwrap(
      api.GET("/v0/notifications", { params: { query: { occured_after: "2025-02-20T09:06:29.04" } } }),
    );
    expect(v0.data.every((notification) => notification.subject_type === "LAND_REGISTER_APPLICATION")).toBe(true);
    const information = await unwrap(
      api.GET("/v0/applications/{id}/information", { params: { path: { id: APPLICATION_ID } } }),
    );
    expect(information.data).toBeDefined();
    const names = await unwrap(
      api.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", {
        params: { path: { title_number: "ZZ100001" } },
      }),
    );
    expect(names.data.title_number).toBe("ZZ100001");
    const availability = await unwrap(
      api.GET("/s1/v1/titles/{title_number}/official-copies/availability", {
        params: { path: { title_number: "ZZ100001" } },
      }),
    );
    expect(availability.data).toBeDefined();
  });

  it("lists and consumes notifications, grouping the documented duplicate delivery", async () => {
    const api = client();
    const listed = [];
    for await (const notification of api.notifications.listAll({ since: "2025-01-01T00:00:00" }))
      listed.push(notification);
    expect(listed.length).toBeGreaterThan(0);

    const events: string[][] = [];
    const summary = await api.notifications.consume((event) => {
      events.push(event.notifications.map((notification) => notification.notification_id));
    });
    expect(summary.notifications).toBe(listed.length);
    // The documented list holds one event delivered twice: fewer events than notifications.
    expect(summary.events).toBeLessThan(summary.notifications);
    expect(events.some((ids) => ids.length === 2)).toBe(true);
    expect(summary.acknowledged).toBeGreaterThan(0);

    const v0 = await api.notifications.consume(() => undefined, { version: "v0" });
    expect(v0.notifications).toBeGreaterThan(0);
  });

  it("acknowledges in both versions", async () => {
    const api = client();
    const v1 = await api.notifications.acknowledge(["0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4"]);
    expect(v1.acknowledged.length).toBeGreaterThan(0);
    const v0 = await api.notifications.acknowledge(["0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4"], { version: "v0" });
    expect(Array.isArray(v0.not_found)).toBe(true);
  });

  it("uploads a document: the address request passes validation and the PUT carries the signed headers", async () => {
    // The documented upload_url names the gateway's default address; this test's transport sends it to the mock.
    const seen: Request[] = [];
    const toMock: Fetch = (request) => {
      seen.push(request);
      const url = new URL(request.url);
      if (url.origin === "http://127.0.0.1:8080") {
        const target = new URL(`${url.pathname}${url.search}`, mock.url);
        return globalThis.fetch(
          new Request(target, { method: request.method, headers: request.headers, body: request.body, duplex: "half" }),
        );
      }
      return globalThis.fetch(request);
    };
    const result = await client({ fetch: toMock }).uploadDocument(new TextEncoder().encode("%PDF-1.7 test"), {
      documentType: "TR1",
    });
    expect(result.document_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.file_sha256).toHaveLength(44);
    const put = seen.find((request) => request.method === "PUT");
    expect(put?.headers.get("authorization")).toBeNull();
    expect(put?.headers.get("x-provider-checksum-sha256")).toBe(result.file_sha256);
  });

  it("downloads a document through the documented 302 and the signed address", async () => {
    const api = client({ middleware: [prefer("/v1/documents/{download_id}", "code=302")] });
    const download = await api.downloadDocument(DOWNLOAD_ID);
    expect(download.contentType).toBe("application/pdf");
    expect((await new Response(download.body).arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("polls a deferred official search until the Poll Request Service answers the result", async () => {
    const api = client({ middleware: [prefer("/api/v1/official-searches-of-whole", "code=202")] });
    const outcome = await api.officialSearchOfWhole(
      {
        title_number: "ZZ100009",
        external_reference: { reference: "CONV-2025-0049" },
        official_search_of_whole_with_priority: {
          priority_type: "Purchase",
          property_description: "9 Sample Row, Exampleton",
          search_from_date: "2025-03-14",
          registered_proprietors_details_or_applicants_for_first_registration: "Casey Example",
          applicant_party: "Robin Sample",
        },
      },
      { timeoutMs: 30_000 },
    );
    expect(outcome.deferred?.data.acknowledgement_code).toMatch(/^BG2000[12]$/);
    expect(outcome.result.data.registry_reference).toMatch(/^[A-Z0-9]{7}$/);
  });

  it("turns the documented error answers into typed errors", async () => {
    const notFound = await unwrap(
      client({ middleware: [prefer("/v0/applications/{id}/information", "code=404")] }).GET(
        "/v0/applications/{id}/information",
        {
          params: { path: { id: APPLICATION_ID } },
        },
      ),
    ).catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(ProblemError);
    expect((notFound as ProblemError).code).toBe("404-01");

    const limited = await unwrap(
      client({ retry: false, middleware: [prefer("/v1/notifications", "code=429")] }).GET("/v1/notifications"),
    ).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfter).toBeGreaterThanOrEqual(0);

    const withoutCredentials: Middleware = {
      onRequest: ({ request }) => {
        request.headers.delete("Authorization");
      },
    };
    const unauthenticated = await unwrap(client({ middleware: [withoutCredentials] }).GET("/v1/notifications")).catch(
      (error: unknown) => error,
    );
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);

    const invalid = await client()
      .downloadDocument(DOWNLOAD_ID.toUpperCase())
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(TypeError); // refused before the mock sees it

    const { error } = await client().GET("/v1/documents/{download_id}", {
      params: { path: { download_id: "3B4C" } },
      redirect: "manual",
    });
    expect(error).toMatchObject({ status: 400, code: "400-02" });
  });
});
