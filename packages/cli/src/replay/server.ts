// The mock `lrg replay` serves: a recording's exchanges answered again. A request gets the answer of the recorded
// exchange that matches it (./match.ts); the same request again gets the next recorded answer of its kind, then the
// last one again; a request nothing matches gets 404-02 naming the closest recorded exchange and what differs.
// Addresses on the recorded upstream (an upload's `upload_url`, a download's `Location`) are moved to the replay's
// own, so the software keeps going through it. A body the recording kept only in part (a PDF: its first bytes) is
// answered with what was kept and an `X-Lrg-Replay-Cut` header saying so.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { problemCatalogue, problemTypeOf } from "@lrg/spec/constants";
import { queryOf, type DriftSpec, type Exchange } from "@lrg/conformance/drift";
import { BodyTap, keptBytesOf, kindOf, mediaTypeOf, KEPT_TEXT_BYTES } from "../record/har.js";
import { rewriteAddress, rewriteJsonText } from "../record/proxy.js";
import { choose, type BodyFacts, type Difference, type RequestFacts } from "./match.js";

/** The header on an answer whose recorded body was cut short: `kept=K; size=N; sha256=HEX` of the whole. */
export const CUT_HEADER = "X-Lrg-Replay-Cut";

/** One recorded exchange as replay answers it. */
export interface ReplayedExchange {
  /** Its place in the recording's `log.entries` (from 0). */
  readonly index: number;
  readonly request: RequestFacts;
  readonly status: number;
  /** The answer's headers, without those of the connection or of the recorded body's length and encoding. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
  readonly mimeType: string;
  /** Set when the recording kept the answer's body in part, or not at all. */
  readonly cut?: { readonly size: number; readonly sha256: string };
}

/** HAR's raw entry members replay reads beside the exchange (`lrg record`'s `_lrg` body marks). */
interface RawBody {
  text?: unknown;
  encoding?: unknown;
  size?: unknown;
  mimeType?: unknown;
  _lrg?: { size?: unknown; sha256?: unknown; stored?: unknown };
}
export interface RawEntry {
  request?: { postData?: RawBody; bodySize?: unknown };
  response?: { content?: RawBody; headers?: unknown };
}

const sha256Of = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

/** Headers the replay sets itself, or that belong to one connection (RFC 9110 section 7.6.1). */
const NOT_REPLAYED = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "date",
  "trailer",
  "upgrade",
]);

/** A recorded request body: its text when kept whole as text, else its size and SHA-256 alone. */
function requestBodyOf(raw: RawEntry["request"]): BodyFacts | undefined {
  const postData = raw?.postData;
  const bodySize = typeof raw?.bodySize === "number" ? raw.bodySize : 0;
  if (postData === undefined) return bodySize > 0 ? { size: bodySize, sha256: "" } : undefined;
  const mark = postData._lrg;
  const text = typeof postData.text === "string" ? postData.text : undefined;
  const base64 = postData.encoding === "base64";
  const bytes = Buffer.from(text ?? "", base64 ? "base64" : "utf8");
  const size = typeof mark?.size === "number" ? mark.size : Math.max(bodySize, bytes.length);
  const sha256 = typeof mark?.sha256 === "string" ? mark.sha256 : sha256Of(bytes);
  const whole = mark === undefined ? text !== undefined && bytes.length >= size : mark.stored === "whole";
  if (!whole || text === undefined) return { size, sha256 };
  return base64 ? { size, sha256 } : { size, sha256, text };
}

function answerOf(raw: RawEntry["response"]): Pick<ReplayedExchange, "body" | "mimeType" | "cut"> {
  const content = raw?.content;
  const mark = content?._lrg;
  const text = typeof content?.text === "string" ? content.text : "";
  const body = Buffer.from(text, content?.encoding === "base64" ? "base64" : "utf8");
  const mimeType = typeof content?.mimeType === "string" ? content.mimeType : "";
  const size = typeof mark?.size === "number" ? mark.size : typeof content?.size === "number" ? content.size : 0;
  const whole = mark === undefined ? body.length >= size : mark.stored === "whole";
  if (whole) return { body, mimeType };
  const sha256 = typeof mark?.sha256 === "string" ? mark.sha256 : "";
  return { body, mimeType, cut: { size, sha256 } };
}

function headerPairs(list: unknown): [string, string][] {
  if (!Array.isArray(list)) return [];
  return (list as { name?: unknown; value?: unknown }[])
    .filter((h) => typeof h.name === "string" && !NOT_REPLAYED.has(h.name.toLowerCase()))
    .map((h) => [h.name as string, String(h.value ?? "")]);
}

/**
 * The exchanges of a recording as replay answers them: `exchanges` as `readHar` read them (their paths below the
 * recording's base), `entries` the same file's raw `log.entries` (for the body marks). Exchanges that got no answer
 * (status 0) are left out.
 */
export function replayedExchanges(
  spec: DriftSpec,
  exchanges: readonly Exchange[],
  entries: readonly RawEntry[],
): ReplayedExchange[] {
  return exchanges
    .filter((exchange) => exchange.status > 0)
    .map((exchange) => {
      const raw = entries[exchange.index];
      return {
        index: exchange.index,
        request: {
          method: exchange.method,
          pathname: exchange.pathname,
          query: exchange.query,
          body: requestBodyOf(raw?.request),
          operation: spec.match(exchange.method, exchange.pathname),
        },
        status: exchange.status,
        headers: headerPairs(raw?.response?.headers),
        ...answerOf(raw?.response),
      };
    });
}

/** Reads a request whole while hashing it; its text is kept when it is JSON, form or text and not too large. */
async function requestFactsOf(spec: DriftSpec, request: IncomingMessage): Promise<RequestFacts> {
  const url = new URL(request.url ?? "/", "http://replay");
  const type = mediaTypeOf(request.headers["content-type"]);
  const tap = new BodyTap(keptBytesOf(type));
  request.pipe(tap).resume();
  await new Promise<void>((resolve, reject) => {
    tap.once("end", resolve);
    request.once("error", reject);
  });
  const { size, sha256, kept } = tap.result();
  const textual = kindOf(type) !== "binary" && size <= KEPT_TEXT_BYTES;
  const method = (request.method ?? "GET").toUpperCase();
  return {
    method,
    pathname: url.pathname,
    query: queryOf(url),
    body: size === 0 ? undefined : textual ? { size, sha256, text: kept.toString("utf8") } : { size, sha256 },
    operation: spec.match(method, url.pathname),
  };
}

/** The problem+json of a request no recorded exchange answers (404-02), naming the closest one and what differs. */
export function unmatchedProblem(
  request: RequestFacts,
  closest: { exchange: ReplayedExchange; differences: readonly Difference[] } | undefined,
): Record<string, unknown> {
  const code = "404-02";
  const { status, title } = problemCatalogue[code];
  const asked = `${request.method} ${request.pathname}`;
  const named =
    closest === undefined
      ? "the recording holds no exchange"
      : `the closest is exchange ${closest.exchange.index} (${closest.exchange.request.method} ${closest.exchange.request.pathname}): ${closest.differences
          .map((d) => `${d.pointer}: ${d.detail}`)
          .join("; ")}`;
  return {
    type: problemTypeOf(code),
    title,
    status,
    detail: `no recorded exchange answers ${asked}; ${named}`.slice(0, 2000),
    instance: request.pathname.slice(0, 2048),
    code,
    ...(closest !== undefined && {
      closest: {
        exchange: closest.exchange.index,
        method: closest.exchange.request.method,
        path: closest.exchange.request.pathname,
        operation: closest.exchange.request.operation?.operationId ?? null,
      },
      errors: closest.differences.slice(0, 100).map((d) => ({
        type: problemTypeOf(code),
        detail: d.detail,
        pointer: d.pointer,
      })),
    }),
  };
}

export interface ReplayServer {
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Serves `exchanges` on `listen`; `base` is the recorded upstream's base address (moved to the replay's own in the
 * answers). `unmatched` is told of each request no exchange answers.
 */
export async function startReplay(options: {
  readonly spec: DriftSpec;
  readonly exchanges: readonly ReplayedExchange[];
  readonly base: string;
  readonly listen: { host: string; port: number };
  readonly unmatched?: (problem: Record<string, unknown>) => void;
}): Promise<ReplayServer> {
  const { spec, exchanges, base } = options;
  const recorded = exchanges.map((exchange) => exchange.request);
  // How many times each set of matching exchanges has answered: the same request gets them in order.
  const answered = new Map<string, number>();

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const facts = await requestFactsOf(spec, request);
    const choice = choose(recorded, facts);
    if (!choice.matched) {
      const problem = unmatchedProblem(
        facts,
        choice.closest === undefined
          ? undefined
          : { exchange: exchanges[choice.closest]!, differences: choice.differences },
      );
      options.unmatched?.(problem);
      const body = JSON.stringify(problem);
      response.writeHead(404, {
        "content-type": "application/problem+json",
        "content-length": Buffer.byteLength(body),
      });
      response.end(body);
      return;
    }
    const key = choice.indexes.join(",");
    const times = answered.get(key) ?? 0;
    answered.set(key, times + 1);
    const exchange = exchanges[choice.indexes[Math.min(times, choice.indexes.length - 1)]!]!;
    const replayBase = `http://${request.headers.host ?? `${options.listen.host}:${options.listen.port}`}`;
    const body = /json/.test(mediaTypeOf(exchange.mimeType))
      ? Buffer.from(rewriteJsonText(exchange.body.toString("utf8"), base, replayBase), "utf8")
      : exchange.body;
    const headers: [string, string][] = exchange.headers.map(([name, value]) => [
      name,
      /^(content-)?location$/i.test(name) ? rewriteAddress(value, base, replayBase) : value,
    ]);
    if (exchange.cut !== undefined)
      headers.push([CUT_HEADER, `kept=${body.length}; size=${exchange.cut.size}; sha256=${exchange.cut.sha256}`]);
    headers.push(["Content-Length", String(body.length)]);
    response.writeHead(exchange.status, headers.flat());
    response.end(request.method === "HEAD" ? undefined : body);
  };

  const server = createServer((request, response) => {
    answer(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.listen.port, options.listen.host, () => resolve());
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
