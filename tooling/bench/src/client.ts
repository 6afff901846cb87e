// The client benchmark (issue 6): the same 10,000 GETs through @lrg/client and through raw fetch against one bare
// node:http server (in its own process), in interleaved rounds; uploadDocument's hashing pass beside `sha256sum` on
// the same 40 MiB file; and the client's peak resident memory growth for a 40 MiB upload from a file, in a child
// process, with Node's defaults and with the gateway's runtime settings. Run alone: `tsx src/client.ts`.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createGatewayClient, type Fetch } from "@lrg/client";
import { median, mbPerSecond, sha256sumSeconds, writeDocument } from "./files.js";
import { createUnit } from "./gateway-api.js";
import { MiB } from "./memory.js";
import { BENCH_ROOT, progress } from "./options.js";
import { openapi } from "@lrg/spec";
import { SERVE_ENV, SERVE_FLAGS, startBareServer, startGatewayMain } from "./servers/processes.js";

/** Requests per second of one way of sending the GETs. */
export interface GetFigures {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
}

/** The client's resident memory growth for one upload, under one runtime setting. */
export interface ClientMemory {
  setting: string;
  baselineRss: number;
  peakRss: number;
  growth: number;
  peakWasReset: boolean;
}

/** What the client benchmark measured. */
export interface ClientResults {
  gets: {
    concurrency: number;
    rounds: number;
    client: GetFigures;
    rawFetch: GetFigures;
    ratio: number;
    responseBytes: number;
  };
  hashing: {
    fileBytes: number;
    rounds: number;
    client: { seconds: number; mbPerSecond: number };
    sha256sum: { seconds: number; mbPerSecond: number };
    ratio: number;
  };
  memory: ClientMemory[];
}

const LIST = "/v1/notifications";

/** Sends `count` GETs, `concurrency` at a time; answers the seconds taken. */
async function timed(count: number, concurrency: number, send: () => Promise<void>): Promise<number> {
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await send();
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

async function gets(total: number, rounds: number, concurrency: number): Promise<ClientResults["gets"]> {
  const body = Buffer.from(JSON.stringify(listExample()));
  const server = await startBareServer({
    [`GET ${LIST}`]: {
      status: 200,
      contentType: "application/json; charset=utf-8",
      bodyBase64: body.toString("base64"),
    },
  });
  try {
    const username = "bench";
    const password = "bench-password";
    const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
    const client = createGatewayClient({ baseUrl: server.url, username, password });
    const viaClient = async () => {
      const { data } = await client.GET(LIST, { params: { query: { limit: 100 } } });
      if (data === undefined) throw new Error("the client got no data");
    };
    const viaFetch = async () => {
      const response = await fetch(`${server.url}${LIST}?limit=100`, { headers: { authorization } });
      if (!response.ok) throw new Error(`raw fetch answered ${response.status}`);
      await response.json();
    };
    const perRound = Math.ceil(total / rounds);
    await timed(500, concurrency, viaClient); // warm-up of both: JIT, keep-alive connections
    await timed(500, concurrency, viaFetch);
    const seconds = { client: 0, raw: 0 };
    for (let round = 1; round <= rounds; round += 1) {
      const order = round % 2 === 1 ? (["client", "raw"] as const) : (["raw", "client"] as const);
      for (const who of order)
        seconds[who] += await timed(perRound, concurrency, who === "client" ? viaClient : viaFetch);
      if (round % Math.max(1, Math.floor(rounds / 5)) === 0) {
        progress(
          `client: GETs round ${round}/${rounds}: client ${((perRound * round) / seconds.client).toFixed(0)}/s, raw fetch ${((perRound * round) / seconds.raw).toFixed(0)}/s so far`,
        );
      }
    }
    const requests = perRound * rounds;
    const figures = (s: number): GetFigures => ({ requests, seconds: s, requestsPerSecond: requests / s });
    return {
      concurrency,
      rounds,
      client: figures(seconds.client),
      rawFetch: figures(seconds.raw),
      ratio: seconds.raw / seconds.client,
      responseBytes: body.length,
    };
  } finally {
    await server.close();
  }
}

/** The spec's example of a page of notifications (the first example of the 200 answer of GET /v1/notifications). */
function listExample(): unknown {
  const paths = openapi["paths"] as Record<
    string,
    {
      get: {
        responses: Record<string, { content: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
      };
    }
  >;
  const examples = paths[LIST]?.get.responses["200"]?.content["application/json"]?.examples ?? {};
  return Object.values(examples)[0]?.value ?? { data: [] };
}

/** Seconds from calling uploadDocument to its first request: the hashing pass (and a stat). */
async function hashingSeconds(path: string): Promise<number> {
  let firstRequestAt = 0;
  const refuse: Fetch = async () => {
    firstRequestAt = performance.now();
    return new Response(
      JSON.stringify({
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: "benchmark stop",
        instance: "/",
        code: "400-02",
      }),
      {
        status: 400,
        headers: { "content-type": "application/problem+json" },
      },
    );
  };
  const client = createGatewayClient({
    baseUrl: "http://127.0.0.1:9",
    username: "u",
    password: "p",
    fetch: refuse,
    retry: false,
  });
  const started = performance.now();
  await client.uploadDocument(path, { documentType: "TR1" }).catch(() => undefined);
  if (firstRequestAt === 0) throw new Error("uploadDocument made no request");
  return (firstRequestAt - started) / 1000;
}

async function hashing(path: string, bytes: number, rounds: number): Promise<ClientResults["hashing"]> {
  await hashingSeconds(path);
  await sha256sumSeconds(path);
  const client: number[] = [];
  const sha: number[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    if (round % 2 === 1) {
      client.push(await hashingSeconds(path));
      sha.push(await sha256sumSeconds(path));
    } else {
      sha.push(await sha256sumSeconds(path));
      client.push(await hashingSeconds(path));
    }
    progress(
      `client: hashing round ${round}/${rounds}: uploadDocument ${mbPerSecond(bytes, client.at(-1) as number).toFixed(0)} MB/s, sha256sum ${mbPerSecond(bytes, sha.at(-1) as number).toFixed(0)} MB/s`,
    );
  }
  const c = median(client);
  const s = median(sha);
  return {
    fileBytes: bytes,
    rounds,
    client: { seconds: c, mbPerSecond: mbPerSecond(bytes, c) },
    sha256sum: { seconds: s, mbPerSecond: mbPerSecond(bytes, s) },
    ratio: s / c,
  };
}

function runChild(
  args: string[],
  flags: string[],
  env: Record<string, string>,
): Promise<Omit<ClientMemory, "setting">> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--expose-gc",
        ...flags,
        "--import",
        "tsx",
        join(BENCH_ROOT, "src", "servers", "client-upload-child.ts"),
        ...args,
      ],
      {
        cwd: BENCH_ROOT,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`the client child exited with ${String(code)}: ${output}`));
      const line = output.trim().split("\n").at(-1) ?? "{}";
      const { baselineRss, peakRss, growth, peakWasReset } = JSON.parse(line) as ClientMemory;
      resolve({ baselineRss, peakRss, growth, peakWasReset });
    });
  });
}

async function memory(dir: string, path: string): Promise<ClientMemory[]> {
  const warmup = writeDocument(join(dir, "warm-up.pdf"), MiB);
  const gateway = await startGatewayMain(join(dir, "gateway"));
  try {
    const unit = await createUnit(gateway.url, gateway.sandboxToken);
    const args = [gateway.url, unit.username, unit.password, warmup, path];
    const settings: [string, string[], Record<string, string>][] = [
      ["Node defaults", [], {}],
      ["serve settings", SERVE_FLAGS, SERVE_ENV],
    ];
    const results: ClientMemory[] = [];
    for (const [setting, flags, env] of settings) {
      const measured = await runChild(args, flags, env);
      progress(
        `client: 40 MiB upload from a file (${setting}): peak grows ${(measured.growth / MiB).toFixed(1)} MiB over ${(measured.baselineRss / MiB).toFixed(1)} MiB`,
      );
      results.push({ setting, ...measured });
    }
    return results;
  } finally {
    await gateway.close();
  }
}

/** Runs the client benchmark. */
export async function clientBenchmark(options: {
  gets: number;
  rounds: number;
  hashRounds: number;
  concurrency: number;
}): Promise<ClientResults> {
  const dir = mkdtempSync(join(tmpdir(), "lrg-bench-client-"));
  try {
    progress(
      `client: ${options.gets.toLocaleString("en")} GETs through @lrg/client and through raw fetch, ${options.concurrency} at a time, in ${options.rounds} interleaved rounds`,
    );
    const getFigures = await gets(options.gets, options.rounds, options.concurrency);
    const path = writeDocument(join(dir, "document-40.pdf"), 40 * MiB);
    progress(`client: uploadDocument's hashing pass and sha256sum on 40 MiB, ${options.hashRounds} rounds`);
    const hashFigures = await hashing(path, 40 * MiB, options.hashRounds);
    progress("client: resident memory of a 40 MiB upload from a file, in a child process");
    const memoryFigures = await memory(dir, path);
    return { gets: getFigures, hashing: hashFigures, memory: memoryFigures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const results = await clientBenchmark({ gets: 10_000, rounds: 10, hashRounds: 5, concurrency: 8 });
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}
