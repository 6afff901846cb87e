// The HAR 1.2 file `lrg record` writes (http://www.softwareishard.com/blog/har-12-spec/), and what of a body goes
// into it: JSON, form and text bodies whole (JSON redacted and masked), binary bodies only as a bounded prefix;
// every body with its size and SHA-256 in `_lrg` (HAR's custom fields start with an underscore).
import { createHash, type Hash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import {
  MASKED,
  REDACTED,
  leakFinder,
  redactForm,
  redactHeaders,
  redactJson,
  redactUrl,
  type Header,
  type Json,
  type Secret,
  type SecretLedger,
} from "./redaction.js";

/** Largest JSON, form or text body kept (and so redacted); a larger one is kept as its size and hash alone. */
export const KEPT_TEXT_BYTES = 1024 * 1024;
/** Most bytes kept of a binary body (a PDF, an octet stream): its first bytes, and never more than half of it. */
export const KEPT_BINARY_BYTES = 256;

/** What HAR keeps of a body besides its text: `_lrg` on `postData` and `content`. */
export interface BodyFacts {
  /** Bytes on the wire. */
  readonly size: number;
  /** SHA-256 of the bytes on the wire, lowercase hexadecimal. */
  readonly sha256: string;
  /** `whole`: the body (decoded, redacted); `prefix`: its first bytes; `none`: only these facts. */
  readonly stored: "whole" | "prefix" | "none";
  /** Why it is not stored whole. */
  readonly reason?: string;
  /** JSON pointers of the members of a JSON body whose values were masked or redacted (`lrg drift` judges them not). */
  readonly masked?: readonly string[];
}

export interface HarPostData {
  mimeType: string;
  text?: string;
  encoding?: "base64";
  params: never[];
  _lrg: BodyFacts;
}

export interface HarContent {
  size: number;
  mimeType: string;
  text?: string;
  encoding?: "base64";
  _lrg: BodyFacts;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: Header[];
    queryString: Header[];
    postData?: HarPostData;
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: Header[];
    content: HarContent;
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /**
   * `error`: set when the exchange did not complete (the upstream could not be reached, a side hung up). `caller`: who
   * sent it, when it carried credentials (`SecretLedger.callerHash`).
   */
  _lrg?: { error?: string; caller?: string };
}

export interface Har {
  log: {
    version: "1.2";
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

/**
 * Passes a body through unchanged while counting it, hashing it and keeping its first `keep` bytes: the proxy's
 * only copy of a body, so a 40 MiB upload costs the proxy `keep` bytes, not 40 MiB.
 */
export class BodyTap extends Transform {
  readonly #hash: Hash = createHash("sha256");
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #size = 0;

  /** `passed` is told the size of every chunk passed on (the proxy paces its garbage collection on it). */
  constructor(
    readonly keep: number,
    private readonly passed: (bytes: number) => void = () => undefined,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#hash.update(chunk);
    this.#size += chunk.length;
    if (this.#keptBytes < this.keep) {
      const part = chunk.subarray(0, this.keep - this.#keptBytes);
      this.#kept.push(Buffer.from(part));
      this.#keptBytes += part.length;
    }
    this.passed(chunk.length);
    callback(null, chunk);
  }

  /** The body's size, SHA-256 and kept bytes (call once it has ended). */
  result(): { size: number; sha256: string; kept: Buffer } {
    return { size: this.#size, sha256: this.#hash.digest("hex"), kept: Buffer.concat(this.#kept) };
  }
}

/** How a body of a media type is kept. */
export type BodyKind = "json" | "form" | "text" | "binary";

/** The media type of a Content-Type header, lower case, without parameters. */
export const mediaTypeOf = (contentType: string | undefined): string =>
  (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase();

/** How a body of this media type is kept: JSON, form and text whole; anything else as binary. */
export function kindOf(mediaType: string): BodyKind {
  if (/^application\/([\w.+-]+\+)?json$/.test(mediaType)) return "json";
  if (mediaType === "application/x-www-form-urlencoded") return "form";
  if (mediaType.startsWith("text/") || /^application\/([\w.+-]+\+)?xml$/.test(mediaType)) return "text";
  return "binary";
}

/** How many bytes of a body of this media type the tap keeps. */
export const keptBytesOf = (mediaType: string): number =>
  kindOf(mediaType) === "binary" ? KEPT_BINARY_BYTES : KEPT_TEXT_BYTES + 1;

function decoded(bytes: Buffer, contentEncoding: string | undefined): Buffer | string {
  const encoding = (contentEncoding ?? "identity").trim().toLowerCase();
  const limit = { maxOutputLength: KEPT_TEXT_BYTES + 1 };
  try {
    if (encoding === "identity" || encoding === "") return bytes;
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(bytes, limit);
    if (encoding === "deflate") return inflateSync(bytes, limit);
    if (encoding === "br") return brotliDecompressSync(bytes, limit);
    return `encoded ${encoding}: cannot be read to redact it`;
  } catch {
    return `encoded ${encoding}: cannot be decoded to redact it`;
  }
}

/**
 * What HAR keeps of one body: its text (redacted) when it can be redacted, else its first bytes when it is binary,
 * else nothing; always its size and SHA-256. A JSON body that is too large, encoded in a way lrg cannot read, or not
 * valid JSON, is kept as its facts alone: what cannot be redacted is not written.
 */
export function contentOf(
  captured: { size: number; sha256: string; kept: Buffer },
  headers: { contentType: string | undefined; contentEncoding: string | undefined },
  ledger: SecretLedger,
  exchange: number,
): { mimeType: string; size: number; text?: string; encoding?: "base64"; _lrg: BodyFacts } {
  const mimeType = headers.contentType ?? "";
  const facts = { size: captured.size, sha256: captured.sha256 };
  const none = (reason: string) => ({
    mimeType,
    size: captured.size,
    _lrg: { ...facts, stored: "none" as const, reason },
  });
  if (captured.size === 0) return { mimeType, size: 0, _lrg: { ...facts, stored: "whole" } };
  const kind = kindOf(mediaTypeOf(headers.contentType));
  if (kind === "binary") {
    const bytes = captured.kept.subarray(0, Math.min(KEPT_BINARY_BYTES, Math.floor(captured.size / 2)));
    if (bytes.length === 0) return none("binary: only its size and hash are kept");
    return {
      mimeType,
      size: captured.size,
      text: bytes.toString("base64"),
      encoding: "base64",
      _lrg: { ...facts, stored: "prefix", reason: `binary: its first ${bytes.length} bytes are kept` },
    };
  }
  if (captured.size > KEPT_TEXT_BYTES) return none(`larger than ${KEPT_TEXT_BYTES} bytes: too large to redact`);
  const body = decoded(captured.kept, headers.contentEncoding);
  if (typeof body === "string") return none(body);
  if (body.length > KEPT_TEXT_BYTES) return none(`larger than ${KEPT_TEXT_BYTES} bytes decoded: too large to redact`);
  const text = body.toString("utf8");
  const whole = (redacted: string) => ({
    mimeType,
    size: body.length,
    text: redacted,
    _lrg: { ...facts, stored: "whole" as const },
  });
  if (kind === "form") return whole(redactForm(text, ledger, exchange));
  if (kind === "text") return whole(text);
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    return none("not valid JSON: cannot be redacted");
  }
  const redacted = redactJson(parsed, ledger, exchange);
  const masked = placeholdersIn(redacted);
  const kept = whole(JSON.stringify(redacted));
  return masked.length === 0 ? kept : { ...kept, _lrg: { ...kept._lrg, masked } };
}

/** The JSON pointers of the strings that hold a placeholder (a masked or redacted value, or an address holding one). */
function placeholdersIn(value: Json, pointer = ""): string[] {
  if (typeof value === "string") return value.includes(MASKED) || value.includes(REDACTED) ? [pointer] : [];
  if (value === null || typeof value !== "object") return [];
  const members = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  return members.flatMap(([name, member]) =>
    placeholdersIn(member, `${pointer}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`),
  );
}

/** Raw header pairs (`IncomingMessage.rawHeaders`) as HAR's list, redacted. */
export function headersOf(raw: readonly string[], ledger: SecretLedger, exchange: number): Header[] {
  const headers: Header[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push({ name: raw[i]!, value: raw[i + 1]! });
  return redactHeaders(headers, ledger, exchange);
}

/** The query of an address as HAR's `queryString`, from the already redacted address. */
export function queryStringOf(redactedUrl: string): Header[] {
  const query = redactedUrl.indexOf("?");
  if (query === -1) return [];
  return [...new URLSearchParams(redactedUrl.slice(query + 1).split("#", 1)[0])].map(([name, value]) => ({
    name,
    value,
  }));
}

export { redactUrl };

/** The text of the HAR file, or the one line that says which secret it would hold and where. */
export function serializeChecked(
  har: Har,
  secrets: readonly Secret[],
): { text: string } | { exchange: number; secret: Secret } {
  const findLeak = leakFinder(secrets);
  for (const [index, entry] of har.log.entries.entries()) {
    const leak = findLeak(JSON.stringify(entry));
    if (leak !== undefined) return { exchange: index + 1, secret: leak.secret };
  }
  const text = `${JSON.stringify(har, null, 2)}\n`;
  const leak = findLeak(text);
  return leak === undefined ? { text } : { exchange: 0, secret: leak.secret };
}
