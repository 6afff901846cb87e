// file: errors-and-date-times.ts
import {
  AuthenticationError,
  createGatewayClient,
  NetworkError,
  normalizeRegistryDateTime,
  ProblemError,
  RateLimitError,
  unwrap,
} from "@lrg/client";

const client = createGatewayClient({ baseUrl: "http://127.0.0.1:8080", username: "demo", password: "demo-password" });

// unwrap() turns { data, error, response } into data, or throws the typed error.
try {
  const { data } = await unwrap(client.GET("/v1/notifications", { params: { query: { limit: 10 } } }));
  // One documented shape for every date-time the registry emits: ISO 8601, UTC, milliseconds, Z.
  for (const notification of data) console.log(normalizeRegistryDateTime(notification.event_datetime));
} catch (error) {
  if (error instanceof AuthenticationError) console.error("check the credentials");
  else if (error instanceof RateLimitError) console.error(`slow down; retry in ${error.retryAfter ?? "?"} s`);
  else if (error instanceof ProblemError) console.error(error.status, error.code, error.detail, error.errors);
  else if (error instanceof NetworkError) console.error(`no complete answer after ${error.attempts} attempt(s)`, error.cause);
  else throw error;
}

normalizeRegistryDateTime("2025-02-20T09:06:29.04"); // "2025-02-20T09:06:29.040Z" (no zone: UTC)
normalizeRegistryDateTime("2025-02-20t15:29:51:405z"); // "2025-02-20T15:29:51.405Z"
