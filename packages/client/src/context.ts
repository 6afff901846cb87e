import type { Client } from "openapi-fetch";
import type { paths } from "@lrg/spec/types/openapi";
import type { Fetch } from "./transport.js";

/** The openapi-fetch client over the registry interface, typed from the spec. */
export type ApiClient = Client<paths>;

/** What the workflows share: the typed client and the fetches under it. Internal. */
export interface WorkflowContext {
  /** The typed client: Basic auth, per-attempt timeout, answers read in full, retries for idempotent requests. */
  readonly api: ApiClient;
  /** The gateway's address, against which relative addresses are resolved. */
  readonly baseUrl: string;
  /** The bare transport: no credentials, no timeout, no retries (for the upload's streamed PUT). */
  readonly transport: Fetch;
  /** The transport with retries but no whole-request timeout and no credentials (for download bodies). */
  readonly transferFetch: Fetch;
  /** The client's fetch without reading the answer's body first (for a document the API may answer at once). */
  readonly streamingApiFetch: Fetch;
  /** Like the client's fetch, but retries a POST too (for operations the spec declares idempotent). */
  readonly idempotentFetch: Fetch;
}
