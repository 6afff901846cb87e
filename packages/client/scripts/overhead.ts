// The client's per-request overhead: the same GETs through @lrg/client, through raw fetch, and (for reference,
// the floor of any client built on openapi-fetch over fetch) through openapi-fetch alone, against one bare
// node:http server in its own process (so that it does not share the client's event loop), in interleaved
// rounds. Prints each one's throughput and its ratio to raw fetch's (1 = no overhead), and the same for the CPU
// time this process spent (steadier than wall time on a busy machine).
// Run: `npx tsx scripts/overhead.ts [total GETs, default 10000]`.
import { spawn } from "node:child_process";
import { once } from "node:events";
import createClient from "openapi-fetch";
import { createGatewayClient, type paths } from "../src/index.js";

const TOTAL = Number(process.argv[2] ?? 10_000);
const ROUNDS = 10;
const CONCURRENCY = 8;
const PATH = "/v1/notifications";

// A page of notifications of about 2 KB, answered to every request.
const SERVER = `
const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 4 }, (_, n) => ({
  notification_id: "0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c" + n, notification_type: "application.completed",
  subject: "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10", status: "NEW", event_datetime: "2025-02-20T09:06:29.040Z",
  created_datetime: "2025-02-20T09:06:29.040Z",
  payload: { data: { application_request_id: "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10", documents: [{ download_id: "a".repeat(64), document_type: "COMPLETION_SHEET" }], padding: "x".repeat(200) } },
})) }));
const server = require("node:http").createServer((request, response) => {
  request.resume();
  response.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
  response.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

type Who = "client" | "raw" | "openapi";

/** Sends `count` GETs, CONCURRENCY at a time; answers the wall time and this process's CPU time, in ms. */
async function timed(count: number, send: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  let left = count;
  const started = performance.now();
  const usage = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left -= 1;
        await send();
      }
    }),
  );
  const used = process.cpuUsage(usage);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
const [line] = (await once(child.stdout, "data")) as [Buffer];
const url = `http://127.0.0.1:${line.toString().trim()}`;
try {
  const authorization = `Basic ${Buffer.from("bench:bench-password").toString("base64")}`;
  const client = createGatewayClient({ baseUrl: url, username: "bench", password: "bench-password" });
  const openapi = createClient<paths>({ baseUrl: url, headers: { authorization } });
  const send: Record<Who, () => Promise<void>> = {
    client: async () => {
      const { data } = await client.GET(PATH, { params: { query: { limit: 100 } } });
      if (data === undefined) throw new Error("the client got no data");
    },
    raw: async () => {
      const response = await fetch(`${url}${PATH}?limit=100`, { headers: { authorization } });
      if (!response.ok) throw new Error(`raw fetch answered ${response.status}`);
      await response.json();
    },
    openapi: async () => {
      const { data } = await openapi.GET(PATH, { params: { query: { limit: 100 } } });
      if (data === undefined) throw new Error("openapi-fetch got no data");
    },
  };
  const order: Who[] = ["client", "raw", "openapi"];
  for (const who of order) await timed(1000, send[who]); // warm-up: JIT, keep-alive connections
  const spent = { client: { wall: 0, cpu: 0 }, raw: { wall: 0, cpu: 0 }, openapi: { wall: 0, cpu: 0 } };
  const perRound = Math.ceil(TOTAL / ROUNDS);
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const who of round % 2 === 1 ? order : [...order].reverse()) {
      const { wall, cpu } = await timed(perRound, send[who]);
      spent[who].wall += wall;
      spent[who].cpu += cpu;
    }
  }
  const requests = perRound * ROUNDS;
  const describe = (who: Who) =>
    `${Math.round((requests / spent[who].wall) * 1000)}/s (${(spent.raw.wall / spent[who].wall).toFixed(2)}×), ` +
    `${((spent[who].cpu / requests) * 1000).toFixed(0)} µs CPU a GET (${(spent.raw.cpu / spent[who].cpu).toFixed(2)}×)`;
  console.log(`${requests} GETs each, ${CONCURRENCY} at a time, ratios to raw fetch:`);
  console.log(`  @lrg/client          ${describe("client")}`);
  console.log(`  raw fetch            ${describe("raw")}`);
  console.log(`  openapi-fetch alone  ${describe("openapi")}`);
} finally {
  child.kill();
}
