// A JSON body over the limit (1 MiB) is answered 413 every time: the gateway reads the rest of it and throws it away
// (up to MAX_DISCARDED_BODY_BYTES), the client reads the answer whole, and the connection ends after it, never reset
// while the client is still sending (EPIPE, ECONNRESET). Loopback only, a few requests in flight at once.
import { connect, type Socket } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_DISCARDED_BODY_BYTES } from "../src/http/limits.js";
import { startTestGateway, type TestGateway } from "../src/testing.js";
import { basic } from "./support/gateway.js";

let gw: TestGateway;
let login: string;
beforeAll(async () => {
  // The body deadline (LRG_BODY_TIMEOUT_MS, 10 s) bounds the reading of a refused body too, and cuts a body still
  // arriving: a 64 MiB body on a loaded 2-core machine may take longer than that to send, so this gateway gives
  // bodies a minute. What is tested here is the 413, not the deadline (hostile-requests.test.ts tests that).
  gw = await startTestGateway({ limits: { bodyTimeoutMs: 60_000 } });
  login = basic(gw.demo!);
});
afterAll(async () => {
  await gw.stop();
});

/** What a client saw of one request: the status and problem code it read, whether the answer ended the connection. */
interface Seen {
  status: number | null;
  code: string | null;
  closes: boolean;
  /** The socket error the client met (EPIPE, ECONNRESET), if any. */
  error: string | null;
}

/** A JSON body of exactly `bytes` bytes. */
function jsonBody(bytes: number): Buffer {
  const body = Buffer.alloc(bytes, "x");
  body.write('{"data":["');
  body.write('"]}', bytes - 3);
  return body;
}

/**
 * Sends a request to acknowledge with `head` (its length or chunked encoding) and then `body` over a connection of
 * its own, as a plain socket does (no retry, no abandoning the body on an early answer), and reads until the gateway
 * ends the connection.
 */
function send(head: string, body: (socket: Socket) => void): Promise<Seen> {
  const { port } = new URL(gw.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | null = null;
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? failure.message));
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [headers = "", answer = ""] = text.split("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(headers)?.[1]) || null,
        code: /"code":"([^"]+)"/.exec(answer)?.[1] ?? null,
        closes: /\r\nconnection: close(\r\n|$)/i.test(headers),
        error,
      });
    });
    socket.write(
      `POST /v1/notifications/acknowledge HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${login}\r\n` +
        `Content-Type: application/json\r\n${head}\r\n\r\n`,
    );
    body(socket);
  });
}

/** Sends `body` `times` times, a few requests in flight at once: what each client saw. */
async function sendMany(times: number, head: string, body: (socket: Socket) => void): Promise<Seen[]> {
  const seen: Seen[] = [];
  let sent = 0;
  const client = async () => {
    while (sent < times) {
      sent += 1;
      seen.push(await send(head, body));
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, client));
  return seen;
}

/** What every client should see: the 413 problem, read whole, then the connection ended by the gateway. */
const refused: Seen = { status: 413, code: "413-01", closes: true, error: null };

const MiB = 1024 * 1024;
/** Requests in flight at once: enough to load the machine as a busy client would, few enough for any machine. */
const AT_ONCE = 4;

describe("a JSON body over the limit", () => {
  it.each([
    ["1.5 MiB", 1.5 * MiB],
    ["8 MiB", 8 * MiB],
    ["64 MiB", 64 * MiB],
  ])(
    "of %s, its length declared, is answered 413-01 and the client reads it whole, 100 times in 100",
    async (_name, bytes) => {
      const body = jsonBody(bytes);
      const seen = await sendMany(100, `Content-Length: ${bytes}`, (socket) => socket.end(body));
      expect(seen.filter((one) => !isDeepStrictEqual(one, refused))).toEqual([]);
      expect(seen).toHaveLength(100);
    },
    240_000,
  );

  it("of 8 MiB in chunks, its length not declared, is answered 413-01 too, 20 times in 20", async () => {
    const chunk = Buffer.alloc(64 * 1024, "x");
    const seen = await sendMany(20, "Transfer-Encoding: chunked", (socket) => {
      for (let sent = 0; sent < 8 * MiB; sent += chunk.length)
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      socket.end("0\r\n\r\n");
    });
    expect(seen.filter((one) => !isDeepStrictEqual(one, refused))).toEqual([]);
  }, 120_000);

  it(`declared over ${MAX_DISCARDED_BODY_BYTES} bytes, is answered at once, without waiting for the body`, async () => {
    // Not a byte of the body is sent: a gateway that waited for it would hold the request until its body deadline.
    const seen = await send(`Content-Length: ${MAX_DISCARDED_BODY_BYTES + 1}`, () => {});
    expect(seen).toEqual(refused);
  });
});
