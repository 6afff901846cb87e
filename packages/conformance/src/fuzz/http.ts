// Raw HTTP for the fuzzer: node:http, so that any header, method, body and Content-Length can be sent (fetch would
// refuse or fix many of them), with a deadline on every exchange.
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from "node:http";

/** One request, exactly as it goes on the wire (headers in lower case). */
export interface WireRequest {
  method: string;
  /** Path and query, already encoded. */
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
  | { kind: "answer"; status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number }
  | { kind: "no-answer"; reason: string; ms: number };

/** The most of an answer's body kept (the largest answer is a generated PDF, a few kilobytes). */
const MAX_BODY_BYTES = 8 << 20;

/** Sends requests to one origin over a pool of keep-alive connections. */
export class WireClient {
  readonly #agent: Agent;
  readonly #host: string;
  readonly #port: number;

  constructor(
    baseUrl: string,
    connections: number,
    private readonly timeoutMs: number,
  ) {
    const url = new URL(baseUrl);
    this.#host = url.hostname;
    this.#port = Number(url.port);
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  send(wire: WireRequest): Promise<WireAnswer> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    return new Promise((resolve) => {
      let settled = false;
      const done = (answer: WireAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answer);
      };
      const request = httpRequest({
        host: this.#host,
        port: this.#port,
        method: wire.method,
        path: wire.target,
        headers: wire.headers,
        agent: wire.fresh === true || wire.stallAfter !== undefined ? false : this.#agent,
      });
      const timer = setTimeout(() => {
        done({ kind: "no-answer", reason: `no answer within ${this.timeoutMs} ms`, ms: elapsed() });
        request.destroy();
      }, this.timeoutMs);
      request.on("error", (error) =>
        done({
          kind: "no-answer",
          reason: `${(error as NodeJS.ErrnoException).code ?? ""} ${error.message}`.trim(),
          ms: elapsed(),
        }),
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
          done({
            kind: "answer",
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            ms: elapsed(),
          });
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

  close(): void {
    this.#agent.destroy();
  }
}
