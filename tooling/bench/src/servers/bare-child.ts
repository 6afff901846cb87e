// A bare node:http server that answers captured gateway responses byte for byte: the ceiling of what any Node.js
// server can do for the same answers on this machine. It reads (and discards) request bodies as a real server must.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** A captured answer: status, content type and the exact body bytes (base64 over IPC). */
export interface CannedAnswer {
  status: number;
  contentType: string;
  bodyBase64: string;
}

type Routes = Record<string, CannedAnswer>;

function serve(routes: Routes) {
  const answers = new Map(
    Object.entries(routes).map(([key, answer]) => [key, { ...answer, body: Buffer.from(answer.bodyBase64, "base64") }]),
  );
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    request.on("data", () => undefined);
    request.on("end", () => {
      const answer = answers.get(`${request.method} ${(request.url ?? "").split("?")[0]}`);
      if (!answer) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(answer.status, { "content-type": answer.contentType, "content-length": answer.body.length });
      response.end(answer.body);
    });
  });
}

process.once("message", (routes: Routes) => {
  const server = serve(routes);
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    process.send?.({ url: `http://127.0.0.1:${address.port}` });
  });
  process.on("message", (message) => {
    if (message !== "close") return;
    server.close(() => process.disconnect());
    server.closeAllConnections();
  });
});
