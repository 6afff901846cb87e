import { request as httpRequest, createServer, type Server } from "node:http";
import {
  connect,
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from "node:net";

/** A loopback balancer over several gateway instances: each request (or connection) goes to the next instance in turn. */
export interface RoundRobin {
  url: string;
  /** Requests (connections, when balancing per connection) sent to each upstream, in the order given. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * What the balancer hands to the next upstream:
 * - `request` (layer 7): every HTTP request, so that two requests in a row on one keep-alive connection reach two
 *   instances (what the two-instance conformance run needs);
 * - `connection` (layer 4): every TCP connection, whose bytes it then only copies both ways, as a TCP load balancer
 *   does. It parses nothing, so it costs far less CPU per request than the request mode (the benchmark's choice).
 */
export type Balancing = "request" | "connection";

/**
 * Starts a round-robin balancer on a free loopback port in front of `upstreams` (base URLs). Per request, it streams
 * request and answer bodies through unchanged, and an upstream that cannot be reached answers 502, as a balancer
 * would; per connection, an upstream that cannot be reached closes the client's connection.
 */
export async function startRoundRobin(upstreams: string[], balancing: Balancing = "request"): Promise<RoundRobin> {
  const targets = upstreams.map((upstream) => new URL(upstream));
  const counts = targets.map(() => 0);
  let next = 0;
  const pick = (): URL => {
    const index = next;
    next = (next + 1) % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    return targets[index]!;
  };
  const { server, dropConnections } = balancing === "request" ? perRequest(pick) : perConnection(pick);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        dropConnections();
      }),
  };
}

/** A listening balancer, and how to end the connections it holds when it closes. */
interface Balancer {
  server: Server | TcpServer;
  dropConnections(): void;
}

function perRequest(pick: () => URL): Balancer {
  const server = createServer((incoming, outgoing) => {
    const target = pick();
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end("upstream unavailable");
    });
    incoming.pipe(forwarded);
  });
  server.keepAliveTimeout = 5000;
  return { server, dropConnections: () => server.closeAllConnections() };
}

function perConnection(pick: () => URL): Balancer {
  // The client and upstream sockets open now, destroyed when the balancer closes.
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const target = pick();
    const upstream = connect({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.once("close", () => sockets.delete(socket));
    }
    // Either side's error or end ends both: no half-open pair is left behind.
    client.once("error", () => upstream.destroy());
    upstream.once("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  return { server, dropConnections: () => sockets.forEach((socket) => socket.destroy()) };
}
