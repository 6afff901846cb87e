// A fault-injecting HTTP proxy on 127.0.0.1 for the client resilience test: between @lrg/client and the gateway it
// answers some requests 503 itself, drops some connections before answering, cuts some answers off in the middle
// (after the gateway has acted on the request), and delays every request a little. The faults are drawn from a
// seeded generator in the order requests arrive, so a sequential client meets the same faults on every run.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { seededRandom } from "../random.js";

export { seededRandom };

/** What the proxy does to a share of the requests (each drawn independently). */
export interface FaultProfile {
  /** Answer 503 (problem+json, no Retry-After) without passing the request on. */
  unavailable: number;
  /** Destroy the connection before anything is passed on or answered. */
  dropBefore: number;
  /** Pass the request on, then destroy the connection partway through the gateway's answer. */
  dropMidResponse: number;
  /** Delay before each request is handled, drawn uniformly in [min, max] milliseconds. */
  latencyMs: [number, number];
  seed: number;
}

export type Fault = "none" | "unavailable" | "drop-before" | "drop-mid-response";

/** A running proxy: its address, what it did so far, and how to stop it. */
export interface FaultProxy {
  url: string;
  /** Requests seen, by the fault applied. */
  readonly counts: Record<Fault, number>;
  /** Requests seen, by `METHOD /path-template-ish` (ids replaced by `{id}`) and fault. */
  readonly byRoute: Map<string, Record<Fault, number>>;
  close(): Promise<void>;
}

const routeOf = (method: string, url: string) =>
  `${method} ${(url.split("?")[0] ?? url).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}/g, "{id}")}`;

const unavailableBody = (instance: string) =>
  JSON.stringify({
    type: "https://land-registration-gateway.example/problems/503-01",
    title: "Service Unavailable",
    status: 503,
    detail: "injected by the fault proxy",
    instance,
    code: "503-01",
  });

/** Starts the proxy in front of `target` (e.g. the gateway's `http://127.0.0.1:port`). */
export async function startFaultProxy(target: string, profile: FaultProfile): Promise<FaultProxy> {
  const upstream = new URL(target);
  const random = seededRandom(profile.seed);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts: Record<Fault, number> = { none: 0, unavailable: 0, "drop-before": 0, "drop-mid-response": 0 };
  const byRoute = new Map<string, Record<Fault, number>>();
  const sockets = new Set<Socket>();

  const draw = (): { fault: Fault; delay: number } => {
    const roll = random();
    const [min, max] = profile.latencyMs;
    const delay = min + random() * (max - min);
    let fault: Fault = "none";
    if (roll < profile.unavailable) fault = "unavailable";
    else if (roll < profile.unavailable + profile.dropBefore) fault = "drop-before";
    else if (roll < profile.unavailable + profile.dropBefore + profile.dropMidResponse) fault = "drop-mid-response";
    return { fault, delay };
  };

  const forward = (request: IncomingMessage, response: ServerResponse, cutOff: boolean) => {
    const outgoing = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        // The Host header is passed on as received (a transparent proxy), so the addresses the gateway hands
        // out (upload URLs, download redirects) lead back through the proxy.
        headers: request.headers,
        agent,
      },
      (answer) => {
        if (!cutOff) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        // Cut the answer off: the status line and headers, then half of the first chunk of the body (the gateway
        // has acted on the request by now); with no body to cut, nothing at all.
        const noBody = () => request.socket.destroy();
        answer.once("end", noBody);
        answer.once("data", (chunk: Buffer) => {
          answer.off("end", noBody);
          answer.pause();
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          response.write(chunk.subarray(0, Math.max(1, Math.floor(chunk.length / 2))));
          // Let the status line, headers and partial body reach the client, then cut the connection.
          setTimeout(() => {
            request.socket.destroy();
            answer.destroy();
          }, 5);
        });
      },
    );
    outgoing.on("error", () => request.socket.destroy());
    request.pipe(outgoing);
  };

  const server = createServer((request, response) => {
    const { fault, delay } = draw();
    counts[fault] += 1;
    const route = routeOf(request.method ?? "GET", request.url ?? "/");
    const tally = byRoute.get(route) ?? { none: 0, unavailable: 0, "drop-before": 0, "drop-mid-response": 0 };
    tally[fault] += 1;
    byRoute.set(route, tally);
    void sleep(delay).then(() => {
      switch (fault) {
        case "drop-before":
          request.socket.destroy();
          return;
        case "unavailable": {
          request.resume();
          const body = unavailableBody((request.url ?? "/").split("?")[0] ?? "/");
          // The connection ends with the answer, as a proxy in trouble would do, so an unread upload body is not
          // left in the way of the next request.
          response.writeHead(503, {
            "content-type": "application/problem+json",
            "content-length": Buffer.byteLength(body),
            connection: "close",
          });
          response.end(body);
          return;
        }
        default:
          forward(request, response, fault === "drop-mid-response");
      }
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    byRoute,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
