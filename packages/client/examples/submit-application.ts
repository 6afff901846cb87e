// file: submit-application.ts
import { createGatewayClient, ProblemError, type ApplicationSubmission } from "@lrg/client";

const client = createGatewayClient({ baseUrl: "http://127.0.0.1:8080", username: "demo", password: "demo-password" });

const submission: ApplicationSubmission = {
  type: "REGISTER_UPDATE",
  submission_warning_understood: true,
  customer_reference: "CONV-2025-0042",
  application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
  titles: { main: { title_number: "ZZ100001", whole_of_title: true } },
  transactions: { transfer: { type: "T", priority: 1, title_keys: ["main"], document_keys: ["transfer"] } },
  documents: { transfer: { type: "TR1", document_id: "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b" } },
};

// One submission: an Idempotency-Key is generated (keep it to retry the same submission safely).
const { application_request_id, idempotency_key } = await client.applications.submit(submission);
console.log(application_request_id, idempotency_key, (await client.applications.information(application_request_id)).status);

// Or submit and follow the application to its decision, resubmitting with the same key after SYSTEM_ERROR
// (the registry released the key, so each retry is a new application), at most three submissions in all.
try {
  const decided = await client.applications.submitUntilDecided(submission, { maxAttempts: 3, timeoutMs: 120_000 });
  if (decided.information.status === "SYSTEM_ERROR") console.error("the system error persists: contact support", decided.attempts);
  else console.log(decided.application_request_id, decided.information.status, decided.information.errors);
} catch (error) {
  if (error instanceof ProblemError && error.status === 409) console.error("this Idempotency-Key was used with another body");
  else throw error;
}
