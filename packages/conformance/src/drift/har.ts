// A HAR 1.2 recording read into exchanges: each request and its answer as `lrg drift` judges them. Only what HAR 1.2
// defines is read (log.entries[].request/response: method, url, headers, postData.text, status, content.text), so a
// recording from any tool will do. A body the recording cut short, left out or masked is unknown, never judged: a
// recorder marks it with a `_lrg` member (`lrg record`), or its `size` exceeds the text it kept.

/**
 * What a recorder (`lrg record`) writes in place of a secret: a header, query parameter or member whose value it is
 * holds something not recorded, so it is unknown, never judged.
 */
export const REDACTED = "[redacted]";

/** A body as recorded: its text (`base64` when the recording encoded its bytes so), or unknown (and why). */
export type RecordedBody =
  | { readonly known: true; readonly text: string; readonly base64: boolean }
  | { readonly known: false; readonly why: string };

/**
 * A known body's bytes. Made when asked for, not kept: a recording of 100,000 exchanges holds its bodies once, as text.
 */
export function bytesOf(body: RecordedBody & { known: true }): Buffer {
  return Buffer.from(body.text, body.base64 ? "base64" : "utf8");
}

/** A known body as UTF-8 text. */
export function textOf(body: RecordedBody & { known: true }): string {
  return body.base64 ? bytesOf(body).toString("utf8") : body.text;
}

/** One request of the recording and its answer. */
export interface Exchange {
  /** Its place in `log.entries` (from 0). */
  readonly index: number;
  /** When the request started (ms since the epoch), and when its answer had arrived. */
  readonly startedMs: number;
  readonly answeredMs: number;
  readonly method: string;
  readonly url: string;
  /** The path as sent, percent-encoded. */
  readonly pathname: string;
  /** Query members by name; a repeated one as an array, as a router gives it. */
  readonly query: Record<string, string | string[]>;
  /** Header names in lower case; a repeated header joined with ", ". */
  readonly requestHeaders: Record<string, string>;
  readonly requestBody: RecordedBody | undefined;
  /** JSON pointers (into the request's body) of members the recorder masked or redacted: not judged. */
  readonly requestMasked: readonly string[];
  /** 0 when no answer was recorded (the request failed). */
  readonly status: number;
  readonly responseHeaders: Record<string, string>;
  readonly responseBody: RecordedBody;
  /** JSON pointers (into the answer's body) of members the recorder masked: not judged. */
  readonly masked: readonly string[];
  /** What the recorder noted of an exchange that did not end as an exchange does (`lrg record`'s `_lrg.error`). */
  readonly note: string | undefined;
  /**
   * Who sent it: the recorder's mark (`lrg record`'s `_lrg.caller`, a keyed hash of the user or token), else the
   * Authorization header as recorded; undefined when it carried no credentials.
   */
  readonly caller: string | undefined;
}

/** A recording that cannot be read as HAR: one line saying why. */
export class HarError extends Error {
  override name = "HarError";
}

type Entry = Record<string, unknown>;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function headersOf(list: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!Array.isArray(list)) return headers;
  for (const header of list as unknown[]) {
    if (!isObject(header) || typeof header["name"] !== "string") continue;
    const name = header["name"].toLowerCase();
    const value = String(header["value"] ?? "");
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/**
 * What a `_lrg` mark says of a body: the JSON pointers of members masked or redacted (not judged), or that the body is
 * not whole. `lrg record`'s mark says how the body was kept (`stored`: `whole`, `prefix`, `none`, with its `size` and
 * `sha256`, and a `reason` when not whole); a mark of another recorder with any other member makes the body unknown.
 */
function markOf(mark: unknown): { unknown?: string; masked: string[]; whole?: true } {
  if (mark === undefined) return { masked: [] };
  if (isObject(mark)) {
    const masked = Array.isArray(mark["masked"])
      ? (mark["masked"] as unknown[]).filter((p): p is string => typeof p === "string")
      : [];
    if (typeof mark["stored"] === "string")
      return mark["stored"] === "whole"
        ? { masked, whole: true }
        : {
            unknown: `the recorder kept ${mark["stored"] === "prefix" ? "only its first bytes" : "none of it"}`,
            masked,
          };
    const other = Object.entries(mark).filter(
      ([name, value]) => name !== "masked" && value !== false && value !== null,
    );
    if (other.length === 0) return { masked };
    return { unknown: `the recorder marked it (${other.map(([name]) => name).join(", ")})`, masked };
  }
  return { unknown: "the recorder marked it", masked: [] };
}

function bodyOf(holder: Entry | undefined, mark: unknown): { body: RecordedBody; masked: string[] } {
  const { unknown, masked, whole } = markOf(mark);
  if (unknown !== undefined) return { body: { known: false, why: unknown }, masked };
  const text = holder?.["text"];
  const size = holder?.["size"];
  if (typeof text !== "string") {
    if (typeof size === "number" && size > 0)
      return { body: { known: false, why: "the recording holds no text of it" }, masked };
    return { body: { known: true, text: "", base64: false }, masked };
  }
  const base64 = holder?.["encoding"] === "base64";
  // HAR's content.size is the answer's length; postData has none (its bodySize is read by the caller).
  const length = Buffer.byteLength(text, base64 ? "base64" : "utf8");
  // A body the recorder says it kept whole may be shorter than on the wire: redacted, masked or decompressed.
  if (!whole && typeof size === "number" && size > length)
    return { body: { known: false, why: `cut short (${length} of ${size} bytes recorded)` }, masked };
  return { body: { known: true, text, base64 }, masked };
}

/** Query members of an address by name; a repeated one as an array, as a router gives it. */
export function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const before = query[name];
    query[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return query;
}

function exchangeOf(entry: unknown, index: number): Exchange {
  const where = `log.entries[${index}]`;
  if (!isObject(entry)) throw new HarError(`${where} is not an object`);
  const request = entry["request"];
  const response = entry["response"];
  if (!isObject(request) || typeof request["method"] !== "string" || typeof request["url"] !== "string")
    throw new HarError(`${where}.request has no method and url`);
  if (!isObject(response) || typeof response["status"] !== "number")
    throw new HarError(`${where}.response has no status`);
  let url: URL;
  try {
    url = new URL(request["url"]);
  } catch {
    throw new HarError(`${where}.request.url is not an absolute URL: ${request["url"].slice(0, 80)}`);
  }
  const startedMs = Date.parse(String(entry["startedDateTime"] ?? ""));
  const time = typeof entry["time"] === "number" && entry["time"] > 0 ? entry["time"] : 0;
  const postData = isObject(request["postData"]) ? request["postData"] : undefined;
  const bodySize = typeof request["bodySize"] === "number" ? request["bodySize"] : -1;
  const sent = postData === undefined ? undefined : bodyOf({ ...postData, size: bodySize }, postData["_lrg"]);
  const requestBody: RecordedBody | undefined =
    sent?.body ?? (bodySize > 0 ? { known: false, why: "the recording holds no text of it" } : undefined);
  const content = isObject(response["content"]) ? response["content"] : undefined;
  const answer = bodyOf(content, content?.["_lrg"] ?? response["_lrg"]);
  const mark = isObject(entry["_lrg"]) ? entry["_lrg"] : {};
  const requestHeaders = headersOf(request["headers"]);
  return {
    index,
    startedMs: Number.isNaN(startedMs) ? 0 : startedMs,
    answeredMs: (Number.isNaN(startedMs) ? 0 : startedMs) + time,
    method: request["method"].toUpperCase(),
    url: request["url"],
    pathname: url.pathname,
    query: queryOf(url),
    requestHeaders,
    requestBody,
    requestMasked: sent?.masked ?? [],
    status: response["status"],
    responseHeaders: headersOf(response["headers"]),
    responseBody: answer.body,
    masked: answer.masked,
    note: typeof mark["error"] === "string" ? mark["error"] : undefined,
    caller: typeof mark["caller"] === "string" ? mark["caller"] : requestHeaders["authorization"],
  };
}

/**
 * The exchanges of a HAR 1.2 document (its text). Throws a HarError, whose message is one line, when the text is not
 * JSON or not HAR: no `log.entries`, an entry without a request method and absolute URL or an answer status.
 */
export function readHar(text: string): Exchange[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new HarError(`it is not JSON (${(error as Error).message.split("\n")[0]})`);
  }
  const log = isObject(document) ? document["log"] : undefined;
  if (!isObject(log) || !Array.isArray(log["entries"])) throw new HarError("it is not HAR: it has no log.entries");
  return (log["entries"] as unknown[]).map(exchangeOf);
}
