import { request as httpRequest, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback balancer over several gateway instances: each request goes to the next instance in turn. */
export interface RoundRobin {
  url: string;
  /** Requests sent to each upstream, in the order given. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * Starts a round-robin balancer on a free loopback port in front of `upstreams` (base URLs). It hands every HTTP
 * request to the next upstream, so that two requests in a row on one keep-alive connection reach two instances (what
 * the two-instance conformance run needs); it streams request and answer bodies through unchanged, and an upstream
 * that cannot be reached answers 502, as a balancer would.
 */
export async function startRoundRobin(upstreams: string[]): Promise<RoundRobin> {
  const targets = upstreams.map((upstream) => new URL(upstream));
  const counts = targets.map(() => 0);
  let next = 0;
  const pick = (): URL => {
    const index = next;
    next = (next + 1) % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    return targets[index]!;
  };
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
