import type { WorkflowContext } from "./context.js";
import {
  uploadDocument,
  type DocumentSource,
  type UploadDocumentOptions,
  type UploadedDocument,
} from "./documents/upload.js";
import { errorFromResponse } from "./errors.js";
import { MAX_MESSAGE_LENGTH } from "@lrg/spec/constants";
import type { components } from "@lrg/spec/types/openapi";

/** How an attached document is certified: `CERTIFIED`, `CERTIFIED_BY_ANOTHER` or `NOT_CERTIFIED`. */
export type CertificationStatementType =
  components["schemas"]["AttachDocumentRequest"]["data"]["certification_statement_type"];

/** The longest message Attach a message takes, in characters (the spec's bound). */
export { MAX_MESSAGE_LENGTH };

/** The document to attach: one already sent with Send a document, or one to send first. */
export type AttachableDocument =
  { readonly documentId: string } | ({ readonly source: DocumentSource } & UploadDocumentOptions);

/** Options of {@link attachDocument}. */
export interface AttachDocumentOptions {
  readonly certificationStatementType: CertificationStatementType;
  readonly signal?: AbortSignal;
}

/** An accepted attachment: the outcome follows as a notification about the application. */
export interface AttachedDocument {
  readonly documentId: string;
  /** The upload, when the document was sent first. */
  readonly uploaded?: UploadedDocument;
}

/**
 * Attaches a document to a pending application (Attach a document). Given a `source`, sends it first with Send a
 * document; given a `documentId`, names a document this business unit sent already. The gateway answers 202: the
 * outcome arrives later as an `application.attachment-success` or `application.attachment-failed` notification
 * (with the document's id in `payload.data.document_id`).
 *
 * @throws {ProblemError} 404 `OC200` (no such application for this business unit), 400 `OC036` (the application is
 *   not pending), 400 for a request that does not match the schema; the registry's envelope is read into `code`,
 *   `detail` and `errors`.
 * @throws {DocumentSizeError} the document to send first is empty or too large; nothing was sent.
 */
export async function attachDocument(
  context: WorkflowContext,
  applicationId: string,
  document: AttachableDocument,
  options: AttachDocumentOptions,
): Promise<AttachedDocument> {
  const uploaded =
    "source" in document
      ? await uploadDocument(context, document.source, {
          ...document,
          ...(options.signal !== undefined && { signal: options.signal }),
        })
      : undefined;
  const documentId = uploaded?.document_id ?? (document as { documentId: string }).documentId;
  const { response, error } = await context.api.POST("/v1/applications/{id}/attachments", {
    params: { path: { id: applicationId } },
    body: { data: { document_id: documentId, certification_statement_type: options.certificationStatementType } },
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  if (!response.ok)
    throw errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body: error });
  return uploaded === undefined ? { documentId } : { documentId, uploaded };
}

/**
 * Attaches a message (at most {@link MAX_MESSAGE_LENGTH} characters) to a pending application (Attach a message).
 * The gateway answers 202: the outcome arrives later as an `application.message-success` (with the registry's
 * `attachment_id`) or `application.message-failed` notification.
 *
 * @throws {RangeError} the message is empty or longer than 4034 characters; nothing was sent.
 * @throws {ProblemError} 404 `OC200`, 400 `OC036`, as for {@link attachDocument}.
 */
export async function attachMessage(
  context: WorkflowContext,
  applicationId: string,
  messageText: string,
  options: { readonly signal?: AbortSignal } = {},
): Promise<void> {
  // Characters as the spec's maxLength counts them: code points, not UTF-16 units.
  const length = [...messageText].length;
  if (length === 0 || length > MAX_MESSAGE_LENGTH)
    throw new RangeError(`a message has 1 to ${MAX_MESSAGE_LENGTH} characters; this one has ${length}`);
  const { response, error } = await context.api.POST("/v1/applications/{id}/messages", {
    params: { path: { id: applicationId } },
    body: { data: { message_text: messageText } },
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  if (!response.ok)
    throw errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body: error });
}
