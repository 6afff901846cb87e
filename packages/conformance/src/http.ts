// The package's one raw HTTP client, over node:http and node:https: keep-alive, exactly the method, headers, body
// and Content-Length given (tests send what fetch would refuse or fix: missing or lying headers, malformed bodies,
// a body that stops short), no redirects followed, client certificates for mutual TLS, a deadline on every exchange.
// `WireClient` answers what came back or why nothing did, as a value; `HttpClient` is the sessions' face of it, which
// throws when nothing came back.
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { readFileSync } from "node:fs";

/** PEM files of a client certificate, its key and the CA to trust (all optional). */
export interface TlsFiles {
  cert?: string;
  key?: string;
  ca?: string;
}

/** One request, exactly as it goes on the wire (headers in lower case). */
export interface WireRequest {
  method: string;
  /** Path and query, already encoded (relative to the client's base), or an absolute address. */
  target: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
  /**
   * Send only the headers and this prefix of `body` (the rest never comes), and expect an answer anyway: for a
   * declared length the server must refuse before reading.
   */
  stallAfter?: number;
  /** A connection of its own, closed after the exchange. */
  fresh?: boolean;
}

/** What came back, or why nothing did. */
export type WireAnswer =
  | { kind: "answer"; status: number; headers: IncomingHttpHeaders; body: Buffer; ms: number }
  | { kind: "no-answer"; reason: string; ms: number };

/** How a client connects. */
export interface WireOptions {
  /** Connections kept open per origin (default 16). */
  connections?: number;
  /** How long an exchange may take before it counts as unanswered (default 30 s). */
  timeoutMs?: number;
  tls?: TlsFiles;
}

/** The most of an answer's body kept (the largest answer is a generated PDF, a few kilobytes). */
const MAX_BODY_BYTES = 8 << 20;

/** Sends requests to one base address over kept-alive connections; never throws for what the server does. */
export class WireClient {
  readonly baseUrl: string;
  readonly #timeoutMs: number;
  readonly #tls: { cert?: Buffer; key?: Buffer; ca?: Buffer };
  readonly #httpAgent: HttpAgent;
  readonly #httpsAgent: HttpsAgent;

  /** `options` may be the connections kept open (and then the deadline), as the fuzzer and the bench pass them. */
  constructor(baseUrl: string, options: WireOptions | number = {}, timeoutMs?: number) {
    const {
      connections = 16,
      timeoutMs: deadline = timeoutMs ?? 30_000,
      tls = {},
    } = typeof options === "number" ? { connections: options } : options;
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.#timeoutMs = deadline;
    this.#tls = {
      ...(tls.cert ? { cert: readFileSync(tls.cert) } : {}),
      ...(tls.key ? { key: readFileSync(tls.key) } : {}),
      ...(tls.ca ? { ca: readFileSync(tls.ca) } : {}),
    };
    this.#httpAgent = new HttpAgent({ keepAlive: true, maxSockets: connections });
    this.#httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: connections, ...this.#tls });
  }

  /** The absolute address of a target (absolute addresses are kept). */
  resolve(target: string): URL {
    return new URL(/^https?:\/\//.test(target) ? target : `${this.baseUrl}${target}`);
  }

  /**
   * Sends one request. A kept-alive connection that the server closed as idle just when this request went out on it
   * ends in ECONNRESET before any answer (the race Node's documentation names for `request.reusedSocket`): such a
   * request is sent once more, on a new connection. Anything else is answered as it came.
   */
  async send(wire: WireRequest): Promise<WireAnswer> {
    const first = await this.#exchange(wire);
    return first.retry ? (await this.#exchange({ ...wire, fresh: true })).answer : first.answer;
  }

  /**
   * Where a target goes: its origin, and its path and query exactly as written (a URL would resolve `..` and `.`
   * segments, which the fuzzer sends on purpose).
   */
  #place(target: string): { origin: URL; path: string } {
    const absolute = /^(https?:\/\/[^/?#]+)(.*)$/.exec(target);
    if (absolute !== null) return { origin: new URL(absolute[1] as string), path: absolute[2] || "/" };
    const base = new URL(this.baseUrl);
    return { origin: base, path: `${base.pathname.replace(/\/+$/, "")}${target}` };
  }

  #exchange(wire: WireRequest): Promise<{ answer: WireAnswer; retry: boolean }> {
    const { origin, path } = this.#place(wire.target);
    const secure = origin.protocol === "https:";
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    return new Promise((resolve) => {
      let settled = false;
      const done = (answer: WireAnswer, retry = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ answer, retry });
      };
      const alone = wire.fresh === true || wire.stallAfter !== undefined;
      const request = (secure ? httpsRequest : httpRequest)({
        host: origin.hostname.replace(/^\[|\]$/g, ""),
        port: origin.port || (secure ? 443 : 80),
        method: wire.method,
        path,
        headers: wire.headers,
        // A connection of its own carries the client certificate itself.
        ...(alone
          ? { agent: false, ...(secure ? this.#tls : {}) }
          : { agent: secure ? this.#httpsAgent : this.#httpAgent }),
      });
      const timer = setTimeout(() => {
        done({ kind: "no-answer", reason: `no answer within ${this.#timeoutMs} ms`, ms: elapsed() });
        request.destroy();
      }, this.#timeoutMs);
      request.on("error", (error: NodeJS.ErrnoException) =>
        done(
          { kind: "no-answer", reason: `${error.code ?? ""} ${error.message}`.trim(), ms: elapsed() },
          request.reusedSocket && error.code === "ECONNRESET",
        ),
      );
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) chunks.push(chunk);
        });
        response.on("error", (error) =>
          done({ kind: "no-answer", reason: `answer cut off: ${error.message}`, ms: elapsed() }),
        );
        response.on("end", () => {
          const body = Buffer.concat(chunks);
          done({ kind: "answer", status: response.statusCode ?? 0, headers: response.headers, body, ms: elapsed() });
          if (wire.stallAfter !== undefined) request.destroy();
        });
      });
      if (wire.stallAfter !== undefined) {
        request.flushHeaders();
        if (wire.body !== undefined && wire.stallAfter > 0) request.write(wire.body.subarray(0, wire.stallAfter));
        return;
      }
      request.end(wire.body);
    });
  }

  /** Closes the idle connections. */
  close(): void {
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }
}

/** What a session sends. */
export interface HttpRequest {
  method: string;
  /** An absolute address, or a path (with query) relative to the client's base. */
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** What came back; `headers` have lower-case names, repeated ones joined. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** The sessions' client: a `WireClient` that sets Content-Length and throws when nothing came back. */
export class HttpClient {
  readonly #wire: WireClient;

  constructor(baseUrl: string, tls: TlsFiles = {}) {
    // A property's request may wait on the gateway's pauses (a refused login is answered after a second, a
    // latency setting): a minute is far beyond any, and still ends a hung exchange.
    this.#wire = new WireClient(baseUrl, { tls, timeoutMs: 60_000 });
  }

  get baseUrl(): string {
    return this.#wire.baseUrl;
  }

  /** The absolute address of a path (absolute addresses are kept). */
  resolve(url: string): URL {
    return this.#wire.resolve(url);
  }

  /** Sends one request; rejects when no answer came (after the one retry `WireClient.send` makes). */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...request.headers };
    const body = typeof request.body === "string" ? Buffer.from(request.body) : request.body;
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === "content-length"))
      headers["content-length"] = String(body.length);
    const answer = await this.#wire.send({
      method: request.method,
      target: request.url,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    if (answer.kind === "no-answer")
      throw new Error(`${request.method} ${this.resolve(request.url).href}: ${answer.reason}`);
    return { status: answer.status, headers: flatten(answer.headers), bytes: answer.body };
  }

  /** Closes the idle connections. */
  close(): void {
    this.#wire.close();
  }
}
