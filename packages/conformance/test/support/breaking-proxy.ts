// A test-only HTTP proxy between the suite and a gateway that breaks one rule of the spec, so that a test can
// show the matching property failing with a shrunk counterexample (without touching the gateway).
import { Agent, createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** The rules the proxy can break. */
export type BrokenRule =
  /** Acknowledge with more than 100 ids: forwards the first 100 and answers what the gateway answers. */
  | "acknowledge-over-100"
  /** Notification lists: answered newest first. */
  | "lists-newest-first"
  /** created_after later than created_before: answered 200 with an empty list instead of the 400-01 problem. */
  | "drop-400-01"
  /** An upload address for a checksum longer than 44 characters: the checksum is cut to 44 and forwarded. */
  | "checksum-over-44"
  /** Acknowledge: nothing is forwarded, yet every id sent is answered as acknowledged. */
  | "acknowledge-ignored"
  /** The sandbox setting `service_hours: enforced` is forwarded as `always-open`: the names never close. */
  | "service-hours-ignored"
  /** Attach a message longer than 4034 characters: the text is cut to 4034 and forwarded. */
  | "message-over-4034"
  /** Version 0 lists without `status`: only NEW notifications are answered (a default the registry does not have). */
  | "v0-default-new"
  /** Acknowledge with an id that is not a UUID: refused with 400-02 (the call fails because of one id). */
  | "acknowledge-refuses-malformed-ids";

interface Exchange {
  method: string;
  path: string;
  body: Buffer;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const isAcknowledge = (e: Exchange) => e.method === "POST" && /\/notifications\/acknowledge$/.test(e.path);
const isList = (e: Exchange) => e.method === "GET" && /^(\/api)?\/v[01]\/notifications(\?|$)/.test(e.path);
const json = (buffer: Buffer) => JSON.parse(buffer.toString("utf8")) as Record<string, unknown>;

/** Rewrites a request on its way to the gateway. */
function rewriteRequest(rule: BrokenRule, exchange: Exchange): Buffer {
  if (rule === "acknowledge-ignored" && isAcknowledge(exchange)) return Buffer.from('{"data":[]}');
  if (rule === "acknowledge-over-100" && isAcknowledge(exchange)) {
    const body = json(exchange.body) as { data?: unknown };
    if (Array.isArray(body.data) && body.data.length > 100)
      return Buffer.from(JSON.stringify({ ...body, data: body.data.slice(0, 100) }));
  }
  if (rule === "service-hours-ignored" && exchange.method === "PUT" && exchange.path === "/sandbox/v1/settings") {
    const body = json(exchange.body);
    if (body["service_hours"] === "enforced")
      return Buffer.from(JSON.stringify({ ...body, service_hours: "always-open" }));
  }
  if (rule === "checksum-over-44" && exchange.method === "POST" && exchange.path === "/v0/documents/url") {
    const body = json(exchange.body) as { data?: { file_sha256?: unknown } };
    const checksum = body.data?.file_sha256;
    if (typeof checksum === "string" && checksum.length > 44)
      return Buffer.from(JSON.stringify({ ...body, data: { ...body.data, file_sha256: checksum.slice(0, 44) } }));
  }
  if (rule === "message-over-4034" && exchange.method === "POST" && /\/messages$/.test(exchange.path)) {
    const body = json(exchange.body) as { data?: { message_text?: unknown } };
    const text = body.data?.message_text;
    if (typeof text === "string" && text.length > 4034)
      return Buffer.from(JSON.stringify({ data: { message_text: text.slice(0, 4034) } }));
  }
  return exchange.body;
}

/** Rewrites the gateway's answer on its way back. */
function rewriteReply(rule: BrokenRule, exchange: Exchange, reply: Reply): Reply {
  if (rule === "lists-newest-first" && isList(exchange) && reply.status === 200) {
    const body = json(reply.body) as { data: unknown[] };
    return { ...reply, body: Buffer.from(JSON.stringify({ data: [...body.data].reverse() })) };
  }
  if (rule === "acknowledge-ignored" && isAcknowledge(exchange) && reply.status === 200) {
    const ids = [...new Set((json(exchange.body) as { data: string[] }).data)];
    const data = exchange.path.includes("/v0/") ? { acknowledged: ids, not_found: [] } : { acknowledged: ids };
    return { ...reply, body: Buffer.from(JSON.stringify({ data })) };
  }
  if (
    rule === "v0-default-new" &&
    isList(exchange) &&
    /\/v0\//.test(exchange.path) &&
    !/[?&]status=/.test(exchange.path) &&
    reply.status === 200
  ) {
    const body = json(reply.body) as { data: { status: string }[] };
    return { ...reply, body: Buffer.from(JSON.stringify({ data: body.data.filter((n) => n.status === "NEW") })) };
  }
  if (rule === "acknowledge-refuses-malformed-ids" && isAcknowledge(exchange)) {
    const ids = (json(exchange.body) as { data?: unknown }).data;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    if (Array.isArray(ids) && ids.some((id) => typeof id === "string" && !uuid.test(id))) {
      const problem = {
        type: "https://land-registration-gateway.example/problems/400-02",
        title: "Bad Request",
        status: 400,
        detail: "request does not match the schema",
        instance: exchange.path,
        code: "400-02",
      };
      return {
        status: 400,
        headers: { ...reply.headers, "content-type": "application/problem+json" },
        body: Buffer.from(JSON.stringify(problem)),
      };
    }
  }
  if (rule === "drop-400-01" && isList(exchange) && reply.status === 400 && json(reply.body)["code"] === "400-01") {
    return {
      status: 200,
      headers: { ...reply.headers, "content-type": "application/json; charset=utf-8" },
      body: Buffer.from('{"data":[]}'),
    };
  }
  return reply;
}

/** A running proxy. */
export interface BreakingProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy on a free port in front of `target` that breaks `rule`. */
export async function startBreakingProxy(target: string, rule: BrokenRule): Promise<BreakingProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const exchange: Exchange = {
        method: String(incoming.method),
        path: String(incoming.url),
        body: Buffer.concat(chunks),
      };
      const body = rewriteRequest(rule, exchange);
      const headers = { ...incoming.headers };
      if (body !== exchange.body) headers["content-length"] = String(body.length);
      const forwarded = request(
        { host: upstream.hostname, port: upstream.port, method: exchange.method, path: exchange.path, headers, agent },
        (response) => {
          const answer: Buffer[] = [];
          response.on("data", (chunk: Buffer) => answer.push(chunk));
          response.on("end", () => {
            const reply = rewriteReply(rule, exchange, {
              status: response.statusCode ?? 502,
              headers: response.headers,
              body: Buffer.concat(answer),
            });
            const {
              "content-length": _length,
              "transfer-encoding": _encoding,
              connection: _connection,
              "keep-alive": _keepAlive,
              ...rest
            } = reply.headers;
            outgoing.writeHead(reply.status, { ...rest, "content-length": String(reply.body.length) });
            outgoing.end(reply.body);
          });
        },
      );
      forwarded.on("error", (error) => {
        outgoing.writeHead(502, { "content-type": "text/plain" });
        outgoing.end(String(error));
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
