// @lrg/client: the typed client of the Land Registration Gateway and the workflows integrators would otherwise
// write by hand. See README.md.
export {
  DEFAULT_SUBMIT_UNTIL_DECIDED,
  type ApplicationInformation,
  type ApplicationStatus,
  type ApplicationSubmission,
  type DecidedApplication,
  type SubmitOptions,
  type SubmittedApplication,
  type SubmitUntilDecidedOptions,
} from "./applications.js";
export {
  MAX_MESSAGE_LENGTH,
  type AttachableDocument,
  type AttachDocumentOptions,
  type AttachedDocument,
  type CertificationStatementType,
} from "./attachments.js";
export {
  basicAuthorization,
  createGatewayClient,
  DEFAULT_TIMEOUT_MS,
  type ApplicationsClient,
  type GatewayClient,
  type GatewayClientOptions,
  type NotificationsClient,
} from "./client.js";
export type { ApiClient } from "./context.js";
export {
  formatQueryDateTime,
  formatRegistryDateTime,
  normalizeRegistryDateTime,
  parseRegistryDateTime,
  tryParseRegistryDateTime,
} from "./date-time.js";
export {
  DOWNLOAD_ID_PATTERN,
  type DownloadDocumentOptions,
  type DownloadedDocumentFile,
  type DownloadedDocumentStream,
} from "./documents/download.js";
export {
  MAX_DOCUMENT_BYTES,
  type DocumentSource,
  type DocumentTypeCode,
  type UploadDocumentOptions,
  type UploadedDocument,
  type UploadProgress,
} from "./documents/upload.js";
export {
  AuthenticationError,
  DocumentSizeError,
  errorFromFetchResponse,
  errorFromResponse,
  GatewayError,
  HttpError,
  NetworkError,
  parseErrorBody,
  parseRetryAfter,
  ProblemError,
  RateLimitError,
  SignatureError,
  TimeoutError,
  unwrap,
  type ErrorContext,
  type ErrorItem,
  type FetchResult,
  type HttpErrorInit,
  type NetworkErrorInit,
  type ParsedErrorBody,
  type Problem,
  type RegistryErrors,
} from "./errors.js";
export type { components, operations, paths } from "@lrg/spec/types/openapi";
export type {
  components as SandboxComponents,
  operations as SandboxOperations,
  paths as SandboxPaths,
} from "@lrg/spec/types/sandbox";
export {
  ACKNOWLEDGE_CHUNK_SIZE,
  duplicateKey,
  groupDuplicates,
  NOTIFICATION_PAGE_SIZE,
  type AcknowledgeOptions,
  type AcknowledgeResult,
  type ConsumeOptions,
  type ConsumeSummary,
  type ListAllOptions,
  type NotificationEvent,
  type NotificationFilters,
  type NotificationOf,
  type NotificationV0,
  type NotificationV1,
  type NotificationVersion,
} from "./notifications.js";
export {
  createBusinessUnitSandbox,
  createSandboxClient,
  type BusinessUnitSandbox,
  type BusinessUnitSandboxOptions,
  type SandboxClient,
  type SandboxClientOptions,
} from "./sandbox.js";
export {
  createMessageId,
  DeferredResultTimeoutError,
  MESSAGE_ID_PATTERN,
  type OfficialSearchDeferred,
  type OfficialSearchInput,
  type OfficialSearchOutcome,
  type OfficialSearchRequest,
  type OfficialSearchResult,
  type PollOptions,
} from "./title-enquiries.js";
export {
  backoffDelay,
  createRetryingFetch,
  createTlsTransport,
  DEFAULT_RETRY,
  isIdempotent,
  RETRYABLE_STATUSES,
  retryDelayForResponse,
  type Fetch,
  type RetryEvent,
  type RetryingFetchOptions,
  type RetryOptions,
  type TlsOptions,
  type TlsTransport,
} from "./transport.js";
export type { Middleware } from "openapi-fetch";
