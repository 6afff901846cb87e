// file: create-client.ts
import { readFileSync } from "node:fs";
import { createGatewayClient } from "@lrg/client";

const client = createGatewayClient({
  baseUrl: "https://gateway.example:8443",
  username: process.env.LRG_USERNAME ?? "",
  password: process.env.LRG_PASSWORD ?? "",
  // Mutual TLS, required by the title enquiry services.
  tls: {
    cert: readFileSync("client.crt"),
    key: readFileSync("client.key"),
    ca: readFileSync("operator-ca.crt"),
  },
  timeoutMs: 15_000,
  retry: { attempts: 4 },
  onRetry: ({ method, url, attempt, delayMs, status }) =>
    console.warn(`retry ${attempt} of ${method} ${url} in ${delayMs} ms (${status ?? "network error"})`),
});

// Every operation of the spec, typed; errors come back as values.
const { data, error, response } = await client.GET("/v0/applications/{id}/information", {
  params: { path: { id: "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10" } },
});
if (error !== undefined) console.error(response.status, error.code, error.detail);
else console.log(data.data.status);

await client.close();
