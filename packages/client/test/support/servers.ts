// Small local servers on port 0 for the tests, each recording what it received.
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer, type ServerOptions } from "node:https";
import type { AddressInfo } from "node:net";

/** One request as the server saw it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface TestServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export type Handler = (
  request: ReceivedRequest,
  response: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

function listen(
  server: ReturnType<typeof createHttpServer>,
  scheme: string,
  requests: ReceivedRequest[],
): Promise<TestServer> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `${scheme}://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function wrap(handler: Handler, requests: ReceivedRequest[], readBody: boolean) {
  return (raw: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    const finish = () => {
      const received = {
        method: raw.method ?? "",
        url: raw.url ?? "",
        headers: raw.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      Promise.resolve(handler(received, response, raw)).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
    };
    if (!readBody) return finish();
    raw.on("data", (chunk: Buffer) => chunks.push(chunk));
    raw.on("end", finish);
  };
}

/** An HTTP server on 127.0.0.1 and a free port; the handler sees each request once its body has arrived. */
export function startServer(handler: Handler, options: { readBody?: boolean } = {}): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  return listen(createHttpServer(wrap(handler, requests, options.readBody ?? true)), "http", requests);
}

/** The same over TLS. */
export function startTlsServer(tls: ServerOptions, handler: Handler): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  return listen(createHttpsServer(tls, wrap(handler, requests, true)), "https", requests);
}

/** Answers JSON with a status and optional headers. */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}
