import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import type { WorkflowContext } from "../context.js";
import {
  DocumentSizeError,
  GatewayError,
  SignatureError,
  errorFromFetchResponse,
  errorFromResponse,
} from "../errors.js";
import { MAX_DOCUMENT_BYTES } from "@lrg/spec/constants";
import type { components } from "@lrg/spec/types/openapi";
import { networkErrorOf } from "../transport.js";

/** The largest document the registry accepts, in bytes (the spec's bound: 40 MiB). */
export { MAX_DOCUMENT_BYTES };

/** Hash in 1 MiB reads into one reused buffer: fast, and no garbage for a 40 MiB file. */
const HASH_CHUNK_BYTES = 1 << 20;
/** Send in 16 KiB chunks (the socket's own high-water mark): each is garbage once written, so they stay small. */
const SEND_CHUNK_BYTES = 16 * 1024;

/** A document type code the registry accepts for a supporting document (`TR1`, `AP1`, `MRTG_DEED`...). */
export type DocumentTypeCode = components["schemas"]["DocumentTypeCode"];

/**
 * What a document can be read from: a file path (read twice, never held in memory), bytes, a `Blob`, or a
 * stream of bytes (a Node `Readable`, any async iterable of `Uint8Array`). A stream cannot be read twice, so its
 * bytes are held in memory (at most 40 MiB) between the hashing pass and the upload; prefer a path for files.
 */
export type DocumentSource = string | Uint8Array | Blob | AsyncIterable<Uint8Array>;

/** Progress of an upload: `hashing` during the first pass over the bytes, `uploading` while they are sent. */
export interface UploadProgress {
  readonly phase: "hashing" | "uploading";
  /** Bytes done in this phase. */
  readonly loaded: number;
  /** Bytes in all, when known (always known while uploading). */
  readonly total: number | undefined;
}

/** Options of {@link uploadDocument}. */
export interface UploadDocumentOptions {
  readonly documentType: DocumentTypeCode;
  /** A sub-unit label for the document (1 to 300 printable ASCII characters). */
  readonly additionalProviderFilter?: string;
  readonly onProgress?: (progress: UploadProgress) => void;
  /** Aborts the hashing, the request for the address and the upload. */
  readonly signal?: AbortSignal;
}

/** An uploaded document: the id to name it by in a submission, and what the upload was signed for. */
export interface UploadedDocument {
  readonly document_id: string;
  readonly file_length: number;
  /** Base64 of the SHA-256 digest of the bytes (44 characters). */
  readonly file_sha256: string;
}

interface PreparedDocument {
  readonly length: number;
  readonly sha256: string;
  /** The bytes again, for the upload. */
  chunks(): AsyncIterable<Uint8Array>;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

function checkSize(size: number): void {
  if (size === 0 || size > MAX_DOCUMENT_BYTES) throw new DocumentSizeError(size, MAX_DOCUMENT_BYTES);
}

async function* sliceBytes(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += SEND_CHUNK_BYTES) {
    yield bytes.subarray(offset, Math.min(bytes.byteLength, offset + SEND_CHUNK_BYTES));
  }
}

/** Hashes `chunks` in one pass, counting bytes and refusing more than the limit as soon as it is passed. */
async function hashPass(
  chunks: AsyncIterable<unknown>,
  total: number | undefined,
  options: UploadDocumentOptions,
  keep?: Uint8Array[],
): Promise<{ length: number; sha256: string }> {
  const hash = createHash("sha256");
  let length = 0;
  for await (const chunk of chunks) {
    if (!(chunk instanceof Uint8Array))
      throw new TypeError("a document stream must yield bytes (Uint8Array), not text");
    length += chunk.byteLength;
    if (length > MAX_DOCUMENT_BYTES) throw new DocumentSizeError(length, MAX_DOCUMENT_BYTES);
    hash.update(chunk);
    keep?.push(chunk);
    options.onProgress?.({ phase: "hashing", loaded: length, total });
  }
  checkSize(length);
  return { length, sha256: hash.digest("base64") };
}

/** Hashes a file by reading it into one reused buffer (a read stream would allocate a buffer per chunk). */
async function hashFile(
  path: string,
  total: number,
  options: UploadDocumentOptions,
): Promise<{ length: number; sha256: string }> {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  const file = await open(path, "r");
  let length = 0;
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await file.read(buffer, 0, buffer.byteLength, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_DOCUMENT_BYTES) throw new DocumentSizeError(length, MAX_DOCUMENT_BYTES);
      hash.update(buffer.subarray(0, bytesRead));
      options.onProgress?.({ phase: "hashing", loaded: length, total });
    }
  } finally {
    await file.close();
  }
  checkSize(length);
  return { length, sha256: hash.digest("base64") };
}

async function prepareDocument(source: DocumentSource, options: UploadDocumentOptions): Promise<PreparedDocument> {
  const signal = options.signal;
  if (typeof source === "string") {
    const info = await stat(source);
    if (!info.isFile()) throw new TypeError(`not a file: ${source}`);
    checkSize(info.size);
    const { length, sha256 } = await hashFile(source, info.size, options);
    const read = () =>
      createReadStream(source, { highWaterMark: SEND_CHUNK_BYTES, ...(signal !== undefined && { signal }) });
    return { length, sha256, chunks: read };
  }
  if (source instanceof Uint8Array) {
    checkSize(source.byteLength);
    signal?.throwIfAborted();
    const sha256 = createHash("sha256").update(source).digest("base64");
    options.onProgress?.({ phase: "hashing", loaded: source.byteLength, total: source.byteLength });
    return { length: source.byteLength, sha256, chunks: () => sliceBytes(source) };
  }
  if (source instanceof Blob) {
    checkSize(source.size);
    const { length, sha256 } = await hashPass(source.stream(), source.size, options);
    return { length, sha256, chunks: () => source.stream() };
  }
  if (isAsyncIterable(source)) {
    const kept: Uint8Array[] = [];
    const { length, sha256 } = await hashPass(source, undefined, options, kept);
    return {
      length,
      sha256,
      chunks: async function* () {
        yield* kept;
      },
    };
  }
  throw new TypeError("a document is a file path, a Uint8Array, a Blob or a stream of bytes");
}

/**
 * The upload's body: the bytes as a stream, counted on the way so that a file that changed since it was hashed
 * fails here, clearly, instead of as a length mismatch deep in the HTTP stack.
 */
function uploadBody(
  document: PreparedDocument,
  onChunk: (loaded: number) => void,
  onError: (error: Error) => void,
): ReadableStream<Uint8Array> {
  const iterator = document.chunks()[Symbol.asyncIterator]();
  let loaded = 0;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, message: string) => {
    const error = new GatewayError(message);
    onError(error);
    controller.error(error);
    void iterator.return?.();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) {
        if (loaded === document.length) controller.close();
        else fail(controller, `the document shrank while it was sent: ${loaded} of ${document.length} bytes`);
        return;
      }
      loaded += next.value.byteLength;
      if (loaded > document.length) {
        fail(controller, `the document grew while it was sent: more than ${document.length} bytes`);
        return;
      }
      controller.enqueue(next.value);
      onChunk(loaded);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** The code of a PUT refused because its address expired before the upload started (ten minutes from generation). */
const EXPIRED_ADDRESS = "403-02";

/**
 * Sends a document in the registry's two calls. Reads the bytes once to learn their length and base64 SHA-256
 * (refusing an empty document or one over 41943040 bytes before any request), asks for a pre-signed upload
 * address (`POST /v0/documents/url`), then streams the bytes to it in a `PUT` with `Content-Length` and
 * `X-Provider-Checksum-Sha256`, and without credentials: the address is authorised by its signature, and the
 * Authorization header never goes to the upload host.
 *
 * An address is valid for ten minutes from its generation to the start of the upload. When the PUT is refused
 * because the address expired (403, code `403-02`: the process was paused, a queue held the upload...), the same
 * address can never succeed, so a new one is asked for and the bytes sent again, once (progress starts again from 0).
 *
 * @throws {DocumentSizeError} the document is empty or too large; nothing was sent.
 * @throws {SignatureError} the upload address refused the bytes (403): signature, length or checksum differ
 *   (`403-01`), or a second address expired too (`403-02`).
 * @throws {ProblemError} any other error answer (`HttpError` when the body is not a known envelope).
 * @throws {NetworkError} the connection failed or dropped, asking for the address or sending the bytes. The
 *   upload may or may not have landed: upload again (a new address, the same bytes).
 */
export async function uploadDocument(
  context: WorkflowContext,
  source: DocumentSource,
  options: UploadDocumentOptions,
): Promise<UploadedDocument> {
  const document = await prepareDocument(source, options);
  try {
    return await sendToNewAddress(context, document, options);
  } catch (error) {
    if (!(error instanceof SignatureError && error.code === EXPIRED_ADDRESS)) throw error;
    return sendToNewAddress(context, document, options);
  }
}

/** Asks for an upload address for the prepared document and PUTs its bytes there. */
async function sendToNewAddress(
  context: WorkflowContext,
  document: PreparedDocument,
  options: UploadDocumentOptions,
): Promise<UploadedDocument> {
  const signal = options.signal;
  const { data, error, response } = await context.api.POST("/v0/documents/url", {
    body: {
      data: {
        document_type: options.documentType,
        file_length: document.length,
        file_sha256: document.sha256,
        ...(options.additionalProviderFilter !== undefined && {
          additional_provider_filter: options.additionalProviderFilter,
        }),
      },
    },
    ...(signal !== undefined && { signal }),
  });
  if (data === undefined) {
    throw errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body: error });
  }

  let bodyError: Error | undefined;
  const body = uploadBody(
    document,
    (loaded) => options.onProgress?.({ phase: "uploading", loaded, total: document.length }),
    (failure) => {
      bodyError = failure;
    },
  );
  // redirect "error" and no window: otherwise fetch keeps a copy of every chunk sent, in case it has to follow
  // a redirect (nodejs/undici#4058), and a 40 MiB upload holds 40 MiB. A signed address never redirects.
  const request = new Request(new URL(data.data.upload_url, context.baseUrl), {
    method: "PUT",
    redirect: "error",
    window: null,
    headers: {
      "Content-Length": String(document.length),
      "Content-Type": "application/octet-stream",
      "X-Provider-Checksum-Sha256": document.sha256,
    },
    body,
    duplex: "half",
    ...(signal !== undefined && { signal }),
  });
  // The PUT is sent once (its body is streamed from the source); a network failure is thrown typed.
  const failed = (failure: unknown) =>
    bodyError ??
    (signal?.aborted === true ? failure : networkErrorOf(failure, { method: "PUT", url: request.url, attempts: 1 }));
  let answer: Response;
  try {
    answer = await context.transport(request);
  } catch (failure) {
    throw failed(failure);
  }
  if (!answer.ok) throw await errorFromFetchResponse(answer, { upload: true });
  await answer.body?.cancel().catch(() => undefined);
  return { document_id: data.data.document_id, file_length: document.length, file_sha256: document.sha256 };
}
