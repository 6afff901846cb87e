// The reverse proxy of `lrg record`: every request the software sends to it goes on to the upstream (the registry,
// its test stubs or this gateway; mutual TLS when given a certificate), and its answer comes back; request and
// answer bodies are piped, never held, while a BodyTap keeps what the HAR entry needs. Addresses the upstream hands
// out on its own origin (a download's `Location`, the `upload_url` of an upload address) are rewritten to the
// proxy's, so the software's next request comes through the proxy too. The entry records the exchange as the
// upstream saw it: its address, and its answer before the rewriting.
import {
  createServer,
  request as httpRequest,
  Agent as HttpAgent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { request as httpsRequest, Agent as HttpsAgent } from "node:https";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  BodyTap,
  contentOf,
  headersOf,
  keptBytesOf,
  mediaTypeOf,
  queryStringOf,
  KEPT_TEXT_BYTES,
  type HarEntry,
} from "./har.js";
import { redactUrl, type SecretLedger } from "./redaction.js";

/** The upstream and how to reach it. */
export interface Upstream {
  readonly url: URL;
  /** PEM contents for mutual TLS to an `https:` upstream. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer; readonly ca?: Buffer };
}

export interface RecordingProxy {
  readonly server: Server;
  /** Stops taking requests; waits for those in flight (at most `graceMs`), then cuts the rest off. */
  close(graceMs: number): Promise<void>;
}

/**
 * What the recorder notes (`_lrg.error`) of an exchange it holds no answer of because it stopped: not the upstream's
 * doing nor the software's, so no judge reads it as an answer lost.
 */
export const STOPPED_BEFORE_THE_END = "lrg record stopped before the exchange ended";

/** Headers of one connection, not of the exchange: never passed on (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

/** Raw header pairs without the hop-by-hop ones (and without those `drop` names), as `[name, value]`. */
function forwardable(raw: readonly string[], drop: ReadonlySet<string> = new Set()): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !drop.has(lower)) pairs.push([name, raw[i + 1]!]);
  }
  return pairs;
}

/** The upstream's base (origin and path, without a trailing slash). */
const baseOf = (url: URL): string => `${url.origin}${url.pathname.replace(/\/+$/, "")}`;

/** An address on the upstream's base moved to the proxy's (the same path below it); any other address as it is. */
export function rewriteAddress(address: string, upstreamBase: string, proxyBase: string): string {
  if (!address.startsWith(upstreamBase)) return address;
  const rest = address.slice(upstreamBase.length);
  return rest === "" || /^[/?#]/.test(rest) ? `${proxyBase}${rest}` : address;
}

/** A JSON text with every address on the upstream's base moved to the proxy's. */
export function rewriteJsonText(text: string, upstreamBase: string, proxyBase: string): string {
  const escaped = upstreamBase.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return text.replace(new RegExp(`${escaped}(?=[/?#"])`, "g"), proxyBase);
}

/** Bytes passed through between two collections of the young generation. */
const COLLECT_EVERY_BYTES = 1024 * 1024;

/**
 * A function to call with the size of each chunk passed through, which collects the young generation every
 * COLLECT_EVERY_BYTES. Each chunk a socket reads is a new buffer whose memory V8 frees only when it collects the
 * small object that holds it, and V8 waits for tens of MiB of such memory before it does: without this, a 40 MiB
 * upload raised the proxy's peak by 22 to 33 MiB though it holds 64 KiB at a time (a bare `node:http` pipe proxy by
 * 21 MiB in front of an upstream that reads as fast as it is sent, 0.1 MiB in front of the slower gateway); with it,
 * by 2 to 4 MiB. A scavenge of the young generation costs well under a millisecond (`tooling/bench`, bench:record).
 */
function youngGenerationPacer(): (bytes: number) => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (options: { type: "minor"; execution: "sync" }) => void;
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < COLLECT_EVERY_BYTES) return;
    since = 0;
    gc({ type: "minor", execution: "sync" });
  };
}

/** Starts the proxy on `host:port`; `record` gets each exchange's entry when it ends, with its number (from 1). */
export async function startRecordingProxy(options: {
  readonly upstream: Upstream;
  readonly listen: { host: string; port: number };
  readonly ledger: SecretLedger;
  readonly record: (entry: HarEntry, exchange: number) => void;
}): Promise<RecordingProxy> {
  const { upstream, ledger, record } = options;
  const secure = upstream.url.protocol === "https:";
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, ...(upstream.tls ?? {}) })
    : new HttpAgent({ keepAlive: true });
  const upstreamBase = baseOf(upstream.url);
  const upstreamPath = upstream.url.pathname.replace(/\/+$/, "");
  const passed = youngGenerationPacer();
  let exchanges = 0;
  const inFlight = new Set<() => void>();

  const server = createServer((request, response) => {
    exchanges += 1;
    const exchange = exchanges;
    const cut = exchangeThrough(request, response, exchange);
    inFlight.add(cut);
    response.once("close", () => inFlight.delete(cut));
  });

  function exchangeThrough(request: IncomingMessage, response: ServerResponse, exchange: number): () => void {
    const started = Date.now();
    const clock = performance.now();
    const times = { sent: clock, headers: clock };
    const target = `${upstreamBase}${request.url ?? "/"}`;
    const proxyBase = `http://${request.headers.host ?? `${options.listen.host}:${options.listen.port}`}`;
    const requestType = request.headers["content-type"];
    const requestTap = new BodyTap(keptBytesOf(mediaTypeOf(requestType)), passed);
    let answer: IncomingMessage | undefined;
    let answerTap: BodyTap | undefined;
    let done = false;

    const finish = (error?: string) => {
      if (done) return;
      done = true;
      const ended = performance.now();
      const url = redactUrl(target, ledger, exchange);
      const captured = requestTap.result();
      // As the upstream saw them: its own Host.
      const requestHeaders = headersOf(request.rawHeaders, ledger, exchange).map((header) =>
        header.name.toLowerCase() === "host" ? { ...header, value: upstream.url.host } : header,
      );
      const requestContent =
        captured.size === 0
          ? undefined
          : contentOf(
              captured,
              { contentType: requestType, contentEncoding: request.headers["content-encoding"] },
              ledger,
              exchange,
            );
      const answered = answer !== undefined && answerTap !== undefined;
      const content = answered
        ? contentOf(
            answerTap!.result(),
            { contentType: answer!.headers["content-type"], contentEncoding: answer!.headers["content-encoding"] },
            ledger,
            exchange,
          )
        : { size: 0, mimeType: "", _lrg: { size: 0, sha256: "", stored: "none" as const, reason: "no answer" } };
      const responseHeaders = answer === undefined ? [] : headersOf(answer.rawHeaders, ledger, exchange);
      const authorization = request.headers.authorization;
      const caller = authorization === undefined ? undefined : ledger.callerHash(authorization);
      record(
        {
          startedDateTime: new Date(started).toISOString(),
          time: ended - clock,
          request: {
            method: request.method ?? "GET",
            url,
            httpVersion: `HTTP/${request.httpVersion}`,
            cookies: [],
            headers: requestHeaders,
            queryString: queryStringOf(url),
            ...(requestContent !== undefined && {
              postData: {
                mimeType: requestContent.mimeType,
                params: [],
                ...(requestContent.text !== undefined && { text: requestContent.text }),
                ...(requestContent.encoding !== undefined && { encoding: requestContent.encoding }),
                _lrg: requestContent._lrg,
              },
            }),
            headersSize: -1,
            bodySize: captured.size,
          },
          response: {
            status: answer?.statusCode ?? 0,
            statusText: answer?.statusMessage ?? "",
            httpVersion: answer === undefined ? "" : `HTTP/${answer.httpVersion}`,
            cookies: [],
            headers: responseHeaders,
            content,
            redirectURL: responseHeaders.find((h) => h.name.toLowerCase() === "location")?.value ?? "",
            headersSize: -1,
            bodySize: answer === undefined ? -1 : content._lrg.size,
          },
          cache: {},
          timings: {
            send: Math.max(0, times.sent - clock),
            wait: Math.max(0, times.headers - times.sent),
            receive: Math.max(0, ended - times.headers),
          },
          ...((error !== undefined || caller !== undefined) && {
            _lrg: { ...(error !== undefined && { error }), ...(caller !== undefined && { caller }) },
          }),
        },
        exchange,
      );
    };

    const headers = forwardable(request.rawHeaders, new Set(["host"]));
    headers.push(["Host", upstream.url.host]);
    const outgoing = (secure ? httpsRequest : httpRequest)({
      protocol: upstream.url.protocol,
      hostname: upstream.url.hostname.replace(/^\[|\]$/g, ""),
      port: upstream.url.port || (secure ? 443 : 80),
      method: request.method,
      path: `${upstreamPath}${request.url ?? "/"}`,
      headers: headers.flat(),
      agent,
    });
    outgoing.on("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      // The upstream closed the connection without answering (the registry dropped it, or the network lost the
      // answer): the software meets the same, its own connection closed unanswered, and the entry holds no answer
      // (status 0). An upstream that cannot be reached at all is the proxy's to answer: 502.
      if (code === "ECONNRESET" && !response.headersSent) {
        finish("the upstream closed the connection without an answer");
        response.destroy();
        return;
      }
      const reason = `the upstream failed: ${code ?? error.message}`;
      if (!response.headersSent) {
        const body = JSON.stringify({
          type: "about:blank",
          title: "Bad Gateway",
          status: 502,
          detail: `lrg record: ${reason}`,
        });
        response.writeHead(502, {
          "content-type": "application/problem+json",
          "content-length": Buffer.byteLength(body),
        });
        response.end(body);
      } else response.destroy();
      finish(reason);
    });
    // The software hung up, before its request ended or while it waited for the answer: every exchange that
    // started is recorded, so that the file numbers exchanges as they came.
    response.once("close", () => {
      if (response.writableFinished) return;
      outgoing.destroy();
      finish("the software hung up before the exchange ended");
    });
    requestTap.once("end", () => (times.sent = performance.now()));
    request.pipe(requestTap).pipe(outgoing);

    outgoing.on("response", (incoming) => {
      answer = incoming;
      times.headers = performance.now();
      const type = mediaTypeOf(incoming.headers["content-type"]);
      const tap = new BodyTap(keptBytesOf(type), passed);
      answerTap = tap;
      const pairs = forwardable(incoming.rawHeaders).map(([name, value]): [string, string] => [
        name,
        name.toLowerCase() === "location" ? rewriteAddress(value, upstreamBase, proxyBase) : value,
      ]);
      // An answer before the software's request was read whole (the upstream refused a body before reading it, and
      // closes its own connection): the rest of that body could not be told from the software's next request on the
      // same connection, so this connection closes after the answer too (RFC 9112 section 9.6).
      if (!request.complete) pairs.push(["Connection", "close"]);
      incoming.on("aborted", () => {
        response.destroy();
        finish("the upstream hung up before its answer ended");
      });
      response.once("finish", () => finish());
      const rewritable = /json/.test(type) && incoming.headers["content-encoding"] === undefined;
      if (!rewritable) {
        response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, pairs.flat());
        incoming.pipe(tap).pipe(response);
        return;
      }
      // A JSON answer may hand out addresses on the upstream (an upload address): read it whole (it is small; a
      // larger one goes through as it is), rewrite them, and send it with its new length.
      const chunks: Buffer[] = [];
      let held = 0;
      let streaming = false;
      incoming.pipe(tap);
      tap.on("data", (chunk: Buffer) => {
        if (streaming) {
          if (!response.write(chunk)) {
            tap.pause();
            response.once("drain", () => tap.resume());
          }
          return;
        }
        chunks.push(chunk);
        held += chunk.length;
        if (held <= KEPT_TEXT_BYTES) return;
        streaming = true;
        response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, pairs.flat());
        for (const part of chunks.splice(0)) response.write(part);
      });
      tap.once("end", () => {
        if (streaming) return void response.end();
        const text = rewriteJsonText(Buffer.concat(chunks).toString("utf8"), upstreamBase, proxyBase);
        const sized = pairs.filter(([name]) => name.toLowerCase() !== "content-length");
        sized.push(["Content-Length", String(Buffer.byteLength(text))]);
        response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, sized.flat());
        response.end(text);
      });
    });

    return () => {
      outgoing.destroy();
      response.destroy();
      finish(STOPPED_BEFORE_THE_END);
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.listen.port, options.listen.host, () => resolve());
  });

  return {
    server,
    close: async (graceMs) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Exchanges in flight may end (a keep-alive connection then stays open, idle: it is closed below).
      const deadline = performance.now() + graceMs;
      while (inFlight.size > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const cut of [...inFlight]) cut();
      server.closeAllConnections();
      await closed;
      agent.destroy();
    },
  };
}
