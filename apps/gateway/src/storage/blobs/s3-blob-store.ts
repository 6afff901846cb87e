import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import {
  addressOf,
  BlobNotFoundError,
  checkedAddress,
  PROBE_NAME,
  type BlobStore,
  type BlobStoreHealth,
  type IncomingBlob,
} from "./blob-store.js";
import { DEFAULT_BLOB_TIMEOUT_MS, type BucketAddress, type S3Options } from "./bucket.js";
import { IncomingFiles } from "./incoming-files.js";

/**
 * Blobs as objects of an S3 bucket, `<prefix><first two hex digits>/<address>` (the directory store's layout, so
 * that a directory can be copied into a bucket as it is). An upload is written to a local temporary file first and
 * sent once whole: a PUT of an object is atomic, so nothing partial ever appears under an address. For instances
 * on different machines.
 */
export class S3BlobStore implements BlobStore {
  readonly #client: S3Client;
  readonly #address: BucketAddress;
  readonly #incoming: IncomingFiles;

  /** `incomingDirectory`: this instance's own place for uploads in progress (in its data directory). */
  constructor(address: BucketAddress, options: S3Options, incomingDirectory: string) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_BLOB_TIMEOUT_MS;
    this.#address = address;
    this.#incoming = new IncomingFiles(incomingDirectory);
    this.#client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where an operation requires them: the SDK's default (a CRC32 sent as a trailer of an
      // aws-chunked body) is refused by many S3-compatible services. Each PUT carries its SHA-256 instead.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // A frozen or silent service fails the call (answered 503-02) instead of holding the request.
      requestHandler: { connectionTimeout: timeoutMs, socketTimeout: timeoutMs },
      // A timed-out call is answered 503-02 at once (the client retries after Retry-After), not retried here.
      maxAttempts: 1,
    });
  }

  #keyOf(sha256Hex: string): string {
    return `${this.#address.keyPrefix}${checkedAddress(sha256Hex).slice(0, 2)}/${sha256Hex}`;
  }

  async #send(sha256Hex: string, body: Buffer | Readable, length: number): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#address.bucket,
        Key: this.#keyOf(sha256Hex),
        Body: body,
        ContentLength: length,
        // The service checks the bytes it received against the address and refuses the object otherwise.
        ChecksumSHA256: Buffer.from(sha256Hex, "hex").toString("base64"),
      }),
    );
  }

  incoming(): IncomingBlob {
    // The SDK does not retry a request whose body is a stream: a failed PUT fails the upload (a 5xx), whose address
    // stays usable for another attempt, since nothing was recorded.
    return this.#incoming.open(async (path, sha256Hex) => {
      await this.#send(sha256Hex, createReadStream(path), (await stat(path)).size);
    });
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256Hex = addressOf(bytes);
    if (!(await this.has(sha256Hex))) await this.#send(sha256Hex, bytes, bytes.length);
    return sha256Hex;
  }

  async has(sha256Hex: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#address.bucket, Key: this.#keyOf(sha256Hex) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async read(sha256Hex: string): Promise<Readable> {
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#address.bucket, Key: this.#keyOf(sha256Hex) }),
      );
      // In Node the body is the response stream itself (an IncomingMessage).
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(sha256Hex);
      throw error;
    }
  }

  /**
   * Writes the probe object (`<prefix>readyz-probe`, a few bytes, always the same), then removes it: that the bucket
   * exists, answers and takes this instance's writes with its credentials. A removal refused (credentials that may
   * write but not delete) leaves the probe, which no blob address can name.
   */
  async probe(): Promise<BlobStoreHealth> {
    const object = { Bucket: this.#address.bucket, Key: `${this.#address.keyPrefix}${PROBE_NAME}` };
    try {
      await this.#client.send(new PutObjectCommand({ ...object, Body: PROBE_NAME }));
      await this.#client.send(new DeleteObjectCommand(object)).catch(() => undefined);
      return { kind: "bucket", reachable: true, writable: true };
    } catch (error) {
      // The service answered (a refusal: no such bucket, access denied), or never did (network, timeout).
      const reachable = error instanceof S3ServiceException && error.$metadata.httpStatusCode !== undefined;
      return { kind: "bucket", reachable, writable: false, problem: (error as Error).message || (error as Error).name };
    }
  }

  /** Only the local temporary files: a PUT that never completed leaves nothing in the bucket. */
  sweepIncoming(olderThanMs = 0): Promise<void> {
    return this.#incoming.sweep(olderThanMs);
  }
}

/** A missing object: `NoSuchKey` for a GET, a bare 404 (`NotFound`) for a HEAD, which has no body to name it. */
function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey");
}
