// file: official-search.ts
import { readFileSync } from "node:fs";
import { createGatewayClient, DeferredResultTimeoutError, ProblemError } from "@lrg/client";

// The gateway of `npm start`: its HTTPS port with mutual TLS, the demo login, and the demo client certificate made
// on first start in the data directory (the start banner prints these paths).
const tls = process.env.LRG_TLS_DIR ?? "apps/gateway/.data/tls";
const client = createGatewayClient({
  baseUrl: "https://127.0.0.1:8443",
  username: "demo",
  password: "demo-password",
  tls: { cert: readFileSync(`${tls}/client.crt`), key: readFileSync(`${tls}/client.key`), ca: readFileSync(`${tls}/ca.crt`) },
});

try {
  // No message_id: the client generates a unique one (and returns it).
  const { message_id, result } = await client.officialSearchOfWhole(
    {
      title_number: "ZZ100001",
      external_reference: { reference: "CONV-2025-0042" },
      official_search_of_whole_with_priority: {
        priority_type: "Purchase",
        property_description: "1 Sample Row, Exampleton",
        search_from_date: "2025-03-14",
        registered_proprietors_details_or_applicants_for_first_registration: "Alex Example and Sam Example",
        applicant_party: "Robin Sample",
      },
    },
    { timeoutMs: 60_000 }, // how long to poll a deferred (202) result
  );
  console.log(message_id, result.data.official_search_data.priority_period_expiry_date);
} catch (error) {
  if (error instanceof DeferredResultTimeoutError) {
    console.log("still deferred; poll later with", error.messageId, error.deferred.data.expected_response_at);
  } else if (error instanceof ProblemError && error.status === 422) {
    console.error("refused by the register's rule", error.rule);
  } else throw error;
} finally {
  await client.close();
}
