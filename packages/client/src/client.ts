import createClient, { type Middleware } from "openapi-fetch";
import {
  applicationInformation,
  submitApplication,
  submitUntilDecided,
  type ApplicationInformation,
  type ApplicationSubmission,
  type DecidedApplication,
  type SubmitOptions,
  type SubmittedApplication,
  type SubmitUntilDecidedOptions,
} from "./applications.js";
import {
  attachDocument,
  attachMessage,
  type AttachableDocument,
  type AttachDocumentOptions,
  type AttachedDocument,
} from "./attachments.js";
import type { ApiClient, WorkflowContext } from "./context.js";
import {
  downloadDocument,
  type DownloadDocumentOptions,
  type DownloadedDocumentFile,
  type DownloadedDocumentStream,
} from "./documents/download.js";
import {
  uploadDocument,
  type DocumentSource,
  type UploadDocumentOptions,
  type UploadedDocument,
} from "./documents/upload.js";
import type { paths } from "@lrg/spec/types/openapi";
import {
  acknowledgeNotifications,
  consumeNotifications,
  listAllNotifications,
  listNotificationPages,
  type AcknowledgeOptions,
  type AcknowledgeResult,
  type ConsumeOptions,
  type ConsumeSummary,
  type ListAllOptions,
  type NotificationEvent,
  type NotificationOf,
  type NotificationVersion,
} from "./notifications.js";
import {
  officialSearchOfWhole,
  pollOfficialSearch,
  type OfficialSearchInput,
  type OfficialSearchOutcome,
  type PollOptions,
} from "./title-enquiries.js";
import {
  createSignalRetryingFetch,
  createTlsTransport,
  withSignal,
  type Fetch,
  type RetryEvent,
  type RetryOptions,
  type SignalFetch,
  type TlsOptions,
} from "./transport.js";

/** Options of {@link createGatewayClient}. */
export interface GatewayClientOptions {
  /** The gateway's address, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /** HTTP Basic credentials of a user of the business unit. */
  readonly username: string;
  readonly password: string;
  /** A client certificate for mutual TLS (required by the title enquiry services when the gateway runs TLS). */
  readonly tls?: TlsOptions;
  /** Aborts one attempt of an API call, its answer's body included, after this long. Default 30000 ms. */
  readonly timeoutMs?: number;
  /** Retries of idempotent requests; `false` turns them off. */
  readonly retry?: RetryOptions | false;
  /**
   * The transport to use instead of the global fetch (a test's recording fetch, a proxy). Called with the
   * finished `Request`, credentials included for API calls and absent for upload and download addresses.
   * With `tls` as well, `tls` is ignored: the given fetch is responsible for the connection.
   */
  readonly fetch?: Fetch;
  /** openapi-fetch middleware (logging, tracing), run once per API call around all of its attempts. */
  readonly middleware?: readonly Middleware[];
  /** Hears each retry before its wait (for logging). */
  readonly onRetry?: (event: RetryEvent) => void;
}

/** Submitting applications, following them, and attaching documents and messages to them. */
export interface ApplicationsClient {
  /** Submits with an `Idempotency-Key` (generated when not given); answers the id and the key. See {@link submitApplication}. */
  submit(body: ApplicationSubmission, options?: SubmitOptions): Promise<SubmittedApplication>;
  /** Submits, follows the application to its decision and resubmits with the same key after SYSTEM_ERROR. See {@link submitUntilDecided}. */
  submitUntilDecided(body: ApplicationSubmission, options?: SubmitUntilDecidedOptions): Promise<DecidedApplication>;
  /** An application's information. */
  information(id: string, options?: { signal?: AbortSignal }): Promise<ApplicationInformation>;
  /** Attaches a document to a pending application, sending it first when given a `source`; the outcome arrives as a notification. See {@link attachDocument}. */
  attachDocument(
    applicationId: string,
    document: AttachableDocument,
    options: AttachDocumentOptions,
  ): Promise<AttachedDocument>;
  /** Attaches a message of at most 4034 characters; the outcome arrives as a notification. See {@link attachMessage}. */
  attachMessage(applicationId: string, messageText: string, options?: { readonly signal?: AbortSignal }): Promise<void>;
}

/** Notifications, in either version (`{ version: "v0" }`; `v1` when not given). */
export interface NotificationsClient {
  /** Every matching notification, oldest first, paged by `created_after` 100 at a time. */
  listAll<V extends NotificationVersion = "v1">(
    options?: ListAllOptions<V>,
  ): AsyncGenerator<NotificationOf<V>, void, undefined>;
  /** The same, a page at a time (each page without the notifications already answered). */
  listPages<V extends NotificationVersion = "v1">(
    options?: ListAllOptions<V>,
  ): AsyncGenerator<NotificationOf<V>[], void, undefined>;
  /** Acknowledges by id, 100 ids a call. */
  acknowledge<V extends NotificationVersion = "v1">(
    ids: Iterable<string>,
    options?: AcknowledgeOptions<V>,
  ): Promise<AcknowledgeResult>;
  /** Handles each NEW event once (duplicates grouped) and acknowledges its deliveries after the handler succeeds. */
  consume<V extends NotificationVersion = "v1">(
    handler: (event: NotificationEvent<NotificationOf<V>>) => unknown,
    options?: ConsumeOptions<V>,
  ): Promise<ConsumeSummary>;
}

/**
 * The gateway client: every operation of the spec, typed (`client.GET("/v1/notifications", ...)` answers
 * openapi-fetch's `{ data, error, response }`), plus the workflows that take several calls.
 */
export interface GatewayClient extends ApiClient {
  readonly baseUrl: string;
  /** Sends a document (hash, upload address, streamed PUT without credentials). See {@link uploadDocument}. */
  uploadDocument(source: DocumentSource, options: UploadDocumentOptions): Promise<UploadedDocument>;
  /** Downloads a document by `download_id` to a file. See {@link downloadDocument}. */
  downloadDocument(
    downloadId: string,
    options: DownloadDocumentOptions & { to: string },
  ): Promise<DownloadedDocumentFile>;
  /** Downloads a document by `download_id` as a stream. */
  downloadDocument(downloadId: string, options?: DownloadDocumentOptions): Promise<DownloadedDocumentStream>;
  readonly notifications: NotificationsClient;
  readonly applications: ApplicationsClient;
  /** Official search of whole with priority; polls a deferred result. See {@link officialSearchOfWhole}. */
  officialSearchOfWhole(request: OfficialSearchInput, options?: PollOptions): Promise<OfficialSearchOutcome>;
  /** The result of an earlier official search by `message_id`, polled while deferred. */
  pollOfficialSearch(messageId: string, options?: PollOptions): Promise<OfficialSearchOutcome>;
  /** Releases the connections of the client-certificate transport (a no-op without `tls`). */
  close(): Promise<void>;
}

/** The `Authorization` header value of HTTP Basic. */
export function basicAuthorization(username: string, password: string): string {
  if (username.includes(":")) throw new TypeError("an HTTP Basic username cannot contain a colon");
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}

/** The default per-attempt timeout of API calls. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Creates a client of the gateway (or of the registry itself, or the mock: they share the spec).
 *
 * - HTTP Basic on every API call; never on the pre-signed upload and download addresses.
 * - With `tls`, mutual TLS through an undici `Agent` for requests to `baseUrl`'s origin.
 * - Each attempt of an API call is aborted after `timeoutMs`.
 * - Each answer of an API call is read within its attempt (API answers are small), so an answer cut off in the
 *   middle of its body counts as a network error.
 * - Idempotent requests (GET, HEAD, OPTIONS, PUT, DELETE, and POST with an `Idempotency-Key`) are retried on
 *   429, 502, 503, 504, network errors and timeouts, with exponential backoff and full jitter, honouring
 *   `Retry-After`; the last answer is handed back as a value like any other. A network failure that outlasts
 *   the retries (or of a request that is not retried) is thrown as a `NetworkError` (`TimeoutError`).
 */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const origin = new URL(baseUrl).origin;
  const tls =
    options.fetch === undefined && options.tls !== undefined ? createTlsTransport(options.tls, origin) : undefined;
  // `window: null` keeps a streamed upload (redirect "error") from being copied by fetch (undici#4058). The
  // client's own transports take an attempt's signal beside the request (fetch copies the request anyway); a
  // given fetch gets it in a copy of the request.
  const send: SignalFetch =
    options.fetch !== undefined
      ? withSignal(options.fetch)
      : (tls?.fetch ??
        ((request, signal) =>
          globalThis.fetch(request, signal === undefined ? { window: null } : { window: null, signal })));
  const transport: Fetch = options.fetch ?? ((request) => send(request));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const shared = { retry: options.retry, onRetry: options.onRetry };
  // API answers are small: each is read within its attempt, so a body cut off is retried (or typed) there.
  const apiFetch = createSignalRetryingFetch(send, { ...shared, timeoutMs, bufferBody: true });

  const api = createClient<paths>({
    baseUrl,
    fetch: apiFetch,
    headers: { Authorization: basicAuthorization(options.username, options.password) },
  });
  if (options.middleware !== undefined && options.middleware.length > 0) api.use(...options.middleware);

  const context: WorkflowContext = {
    api,
    baseUrl,
    transport,
    transferFetch: createSignalRetryingFetch(send, shared),
    streamingApiFetch: createSignalRetryingFetch(send, { ...shared, timeoutMs }),
    idempotentFetch: createSignalRetryingFetch(send, { ...shared, timeoutMs, idempotent: true, bufferBody: true }),
  };

  const notifications: NotificationsClient = {
    listAll: (listOptions) => listAllNotifications(context, listOptions),
    listPages: (listOptions) => listNotificationPages(context, listOptions),
    acknowledge: (ids, ackOptions) => acknowledgeNotifications(context, ids, ackOptions),
    consume: (handler, consumeOptions) => consumeNotifications(context, handler, consumeOptions),
  };

  const applications: ApplicationsClient = {
    submit: (body, submitOptions) => submitApplication(context, body, submitOptions),
    submitUntilDecided: (body, submitOptions) => submitUntilDecided(context, body, submitOptions),
    information: (id, informationOptions) => applicationInformation(context, id, informationOptions),
    attachDocument: (applicationId, document, attachOptions) =>
      attachDocument(context, applicationId, document, attachOptions),
    attachMessage: (applicationId, messageText, messageOptions) =>
      attachMessage(context, applicationId, messageText, messageOptions),
  };

  return {
    ...api,
    baseUrl,
    applications,
    uploadDocument: (source, uploadOptions) => uploadDocument(context, source, uploadOptions),
    downloadDocument: ((downloadId: string, downloadOptions?: DownloadDocumentOptions) =>
      downloadDocument(context, downloadId, downloadOptions)) as GatewayClient["downloadDocument"],
    notifications,
    officialSearchOfWhole: (request, pollOptions) => officialSearchOfWhole(context, request, pollOptions),
    pollOfficialSearch: (messageId, pollOptions) => pollOfficialSearch(context, messageId, pollOptions),
    close: async () => {
      await tls?.close();
    },
  };
}
