import { request as httpRequest, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback balancer over several gateway instances: each request goes to the next instance in turn. */
export interface RoundRobin {
  url: string;
  /** Requests sent to each upstream, in the order given. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * Starts a round-robin HTTP balancer on a free loopback port in front of `upstreams` (base URLs). It streams
 * request and answer bodies through unchanged; an upstream that cannot be reached answers 502, as a balancer would.
 */
export async function startRoundRobin(upstreams: string[]): Promise<RoundRobin> {
  const targets = upstreams.map((upstream) => new URL(upstream));
  const counts = targets.map(() => 0);
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const index = next;
    next = (next + 1) % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = targets[index]!;
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
