// What `lrg record` costs the software it records (issue 41): the same requests straight to the gateway and through
// `lrg record` in front of it, side by side in interleaved slices (latency, p99 above all, and throughput); a 40 MiB
// upload both ways in interleaved rounds (MB/s); the proxy's peak resident memory for that upload beside a bare
// `node:http` pipe proxy's (which is in the latency comparison too: the cost of any proxy hop); and how long `lrg record` takes to check and write what it recorded. Each server in its
// own process (the gateway as `npm run serve` runs it). Run alone: `tsx src/record.ts` (after a build: it runs the
// built `packages/cli/bin/lrg.js`); writes results/record.json.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { compare, httpContender, type LoadResult } from "./contenders.js";
import { mbPerSecond, median, writeDocument } from "./files.js";
import { basicOf, createUnit, digestFile, putFile, uploadAddress, type Unit } from "./gateway-api.js";
import { MiB, resetPeak, residentOf } from "./memory.js";
import { BENCH_ROOT, benchOptions, machine, progress } from "./options.js";
import { startGatewayMain } from "./servers/processes.js";

const LRG = join(BENCH_ROOT, "..", "..", "packages", "cli", "bin", "lrg.js");

/** A bare reverse proxy: `node:http` piping both ways, nothing kept (the memory baseline). */
const PIPE_PROXY = `
const http = require("node:http");
const upstream = new URL(process.argv[1]);
const server = http.createServer((request, response) => {
  const headers = { ...request.headers, host: upstream.host };
  const outgoing = http.request({ host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  request.pipe(outgoing);
});
server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port));
`;

interface Proxy {
  url: string;
  pid: number;
  /** Stops it (SIGINT) and answers how long it took to end (lrg record: checking and writing its file). */
  stop(): Promise<number>;
}

async function startProcess(child: ChildProcess): Promise<Proxy> {
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the proxy exited (${code}) before it listened`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const started = performance.now();
      child.kill("SIGINT");
      await exited;
      return (performance.now() - started) / 1000;
    },
  };
}

const startRecorder = (upstream: string, out: string): Promise<Proxy> =>
  startProcess(
    spawn(process.execPath, [LRG, "record", "--upstream", upstream, "--out", out], {
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );

const startPipeProxy = (upstream: string): Promise<Proxy> =>
  startProcess(spawn(process.execPath, ["-e", PIPE_PROXY, upstream], { stdio: ["ignore", "pipe", "inherit"] }));

async function uploadThrough(url: string, unit: Unit, path: string, length: number, sha256: string): Promise<number> {
  const { uploadUrl } = await uploadAddress(url, unit, length, sha256);
  const started = performance.now();
  const status = await putFile(uploadUrl, path, length, sha256);
  if (status !== 200) throw new Error(`the upload through ${url} answered ${status}`);
  return (performance.now() - started) / 1000;
}

/**
 * The growth of a proxy's peak resident memory over one upload of `path`, after a warm-up upload of `small` (1 MiB:
 * the code paths warm, but no room left over from an earlier large body), with the peak reset.
 */
async function peakGrowth(proxy: Proxy, unit: Unit, small: string, path: string) {
  const warm = await digestFile(small);
  await uploadThrough(proxy.url, unit, small, warm.length, warm.sha256);
  await sleep(500);
  const { length, sha256 } = await digestFile(path);
  const baseline = residentOf(proxy.pid);
  const reset = resetPeak(proxy.pid);
  await uploadThrough(proxy.url, unit, path, length, sha256);
  const peak = reset ? residentOf(proxy.pid).peak : Number.NaN;
  return { baselineRss: baseline.rss, peakRss: peak, growth: peak - baseline.rss, peakWasReset: reset };
}

const summary = (result: LoadResult) => ({
  requestsPerSecond: result.requestsPerSecond,
  latencyMs: result.latencyMs,
  failures: result.non2xx + result.errors + result.timeouts,
});

/** Runs the benchmark: `rounds` uploads each way, and a load comparison on the given schedule. */
export async function recordBenchmark(options: {
  rounds: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  slices: number;
}) {
  const dir = mkdtempSync(join(tmpdir(), "lrg-bench-record-"));
  const gateway = await startGatewayMain(join(dir, "gateway"), { LRG_HTTPS_PORT: "off" });
  const har = join(dir, "bench.har");
  let recorder: Proxy | undefined;
  try {
    const unit = await createUnit(gateway.url, gateway.sandboxToken);
    recorder = await startRecorder(gateway.url, har);
    progress("record: writing a 40 MiB document");
    const document = writeDocument(join(dir, "document-40.pdf"), 40 * MiB);
    const { length, sha256 } = await digestFile(document);

    progress(`record: ${options.rounds} rounds of the 40 MiB upload, direct and through lrg record`);
    await uploadThrough(gateway.url, unit, document, length, sha256);
    await uploadThrough(recorder.url, unit, document, length, sha256);
    const direct: number[] = [];
    const recorded: number[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const order = round % 2 === 0 ? ["record", "direct"] : ["direct", "record"];
      for (const way of order) {
        const seconds = await uploadThrough(
          way === "direct" ? gateway.url : recorder.url,
          unit,
          document,
          length,
          sha256,
        );
        (way === "direct" ? direct : recorded).push(seconds);
        await sleep(500); // the gateway's asynchronous type check reads the blob once; let it finish
      }
      progress(
        `record: round ${round}/${options.rounds}: direct ${mbPerSecond(length, direct.at(-1)!).toFixed(0)} MB/s, ` +
          `through lrg record ${mbPerSecond(length, recorded.at(-1)!).toFixed(0)} MB/s`,
      );
    }

    progress("record: peak resident memory of lrg record and of a bare node:http pipe proxy over one 40 MiB upload");
    const small = writeDocument(join(dir, "document-1.pdf"), MiB);
    const memoryRecorder = await startRecorder(gateway.url, join(dir, "memory.har"));
    const recordMemory = await peakGrowth(memoryRecorder, unit, small, document).finally(() => memoryRecorder.stop());
    const pipe = await startPipeProxy(gateway.url);
    const pipeMemory = await peakGrowth(pipe, unit, small, document);

    const list = (url: string) => ({
      url,
      method: "GET" as const,
      path: "/v1/notifications",
      next: () => ({ headers: { authorization: basicOf(unit) } }),
    });
    const load = await compare(
      "record",
      [
        httpContender("direct", list(gateway.url), options.connections),
        httpContender("through a bare pipe proxy", list(pipe.url), options.connections),
        httpContender("through lrg record", list(recorder.url), options.connections),
      ],
      { warmupSeconds: options.warmupSeconds, durationSeconds: options.durationSeconds, slices: options.slices },
    );
    progress("record: stopping lrg record (it checks the file for secrets, then writes it)");
    const writeSeconds = await recorder.stop();
    recorder = undefined;
    await pipe.stop();
    const pipeLoad = load.get("through a bare pipe proxy")!;
    const directLoad = load.get("direct")!;
    const recordLoad = load.get("through lrg record")!;
    const upload = {
      direct: { seconds: median(direct), mbPerSecond: mbPerSecond(length, median(direct)) },
      throughRecord: { seconds: median(recorded), mbPerSecond: mbPerSecond(length, median(recorded)) },
    };
    return {
      machine: machine(),
      request: "GET /v1/notifications (an empty page), Basic credentials",
      connections: options.connections,
      schedule: {
        warmupSeconds: options.warmupSeconds,
        durationSeconds: options.durationSeconds,
        slices: options.slices,
      },
      load: { direct: summary(directLoad), throughPipeProxy: summary(pipeLoad), throughRecord: summary(recordLoad) },
      addedP99Ms: recordLoad.latencyMs.p99 - directLoad.latencyMs.p99,
      addedP50Ms: recordLoad.latencyMs.p50 - directLoad.latencyMs.p50,
      throughputRatio: recordLoad.requestsPerSecond / directLoad.requestsPerSecond,
      pipeProxyAddedP99Ms: pipeLoad.latencyMs.p99 - directLoad.latencyMs.p99,
      pipeProxyThroughputRatio: pipeLoad.requestsPerSecond / directLoad.requestsPerSecond,
      upload: {
        fileBytes: length,
        rounds: options.rounds,
        ...upload,
        ratio: upload.throughRecord.mbPerSecond / upload.direct.mbPerSecond,
      },
      memory: { fileMiB: 40, lrgRecord: recordMemory, pipeProxy: pipeMemory },
      write: {
        exchanges: (JSON.parse(readFileSync(har, "utf8")) as { log: { entries: unknown[] } }).log.entries.length,
        seconds: writeSeconds,
        fileBytes: statSync(har).size,
      },
    };
  } finally {
    await recorder?.stop();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const options = benchOptions();
  const result = await recordBenchmark(
    options.quick
      ? { rounds: 2, connections: 8, warmupSeconds: 1, durationSeconds: 4, slices: 2 }
      : { rounds: 5, connections: 8, warmupSeconds: 3, durationSeconds: 20, slices: 4 },
  );
  mkdirSync(options.resultsDir, { recursive: true });
  const file = join(options.resultsDir, "record.json");
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  progress(`wrote ${file}`);
}
