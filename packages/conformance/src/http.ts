// A small HTTP client over node:http and node:https: keep-alive, exact headers (tests send what fetch would not:
// missing or lying headers, malformed bodies), no redirects followed, and client certificates for mutual TLS.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { readFileSync } from "node:fs";

/** PEM files of a client certificate, its key and the CA to trust (all optional). */
export interface TlsFiles {
  cert?: string;
  key?: string;
  ca?: string;
}

/** What was sent. */
export interface HttpRequest {
  method: string;
  /** An absolute address, or a path (with query) relative to the client's base. */
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** What came back; `headers` have lower-case names. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

const TIMEOUT_MS = 30_000;

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** Sends requests to one base address, reusing connections. */
export class HttpClient {
  readonly baseUrl: string;
  readonly #httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  readonly #httpsAgent: HttpsAgent;

  constructor(baseUrl: string, tls: TlsFiles = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.#httpsAgent = new HttpsAgent({
      keepAlive: true,
      maxSockets: 16,
      ...(tls.cert ? { cert: readFileSync(tls.cert) } : {}),
      ...(tls.key ? { key: readFileSync(tls.key) } : {}),
      ...(tls.ca ? { ca: readFileSync(tls.ca) } : {}),
    });
  }

  /** The absolute address of a path (absolute addresses are kept). */
  resolve(url: string): URL {
    return new URL(/^https?:\/\//.test(url) ? url : `${this.baseUrl}${url}`);
  }

  /**
   * Sends one request. A kept-alive connection that the server closed as idle just when this request went out on it
   * ends in ECONNRESET before any answer (the race Node's documentation names for `request.reusedSocket`): such a
   * request is sent once more, on a new connection. Anything else fails as it came.
   */
  send(request: HttpRequest, isRetry = false): Promise<HttpResponse> {
    const url = this.resolve(request.url);
    const secure = url.protocol === "https:";
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === "content-length")) {
      headers["content-length"] = String(Buffer.byteLength(request.body));
    }
    return new Promise((resolve, reject) => {
      const outgoing = (secure ? httpsRequest : httpRequest)(
        url,
        { method: request.method, headers, agent: secure ? this.#httpsAgent : this.#httpAgent, timeout: TIMEOUT_MS },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: flatten(response.headers),
              bytes: Buffer.concat(chunks),
            }),
          );
        },
      );
      outgoing.on("timeout", () =>
        outgoing.destroy(new Error(`${request.method} ${url.href}: no answer within ${TIMEOUT_MS} ms`)),
      );
      outgoing.on("error", (error: NodeJS.ErrnoException) => {
        if (!isRetry && outgoing.reusedSocket && error.code === "ECONNRESET") resolve(this.send(request, true));
        else reject(error);
      });
      outgoing.end(request.body);
    });
  }

  /** Closes the idle connections. */
  close(): void {
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }
}
