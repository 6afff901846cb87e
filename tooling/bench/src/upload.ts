// The upload benchmark (issue 4): a 40 MiB document through the gateway (POST /v0/documents/url, then the PUT to
// the signed address, streamed from disk) beside `sha256sum` of the same file, in interleaved rounds; and the
// gateway's peak resident memory with 4 concurrent uploads of 40 MiB and of 10 MiB, each in a fresh gateway
// process run as `npm run serve` runs it. Run alone: `tsx src/upload.ts`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { median, mbPerSecond, sha256sumSeconds, writeDocument } from "./files.js";
import { createUnit, digestFile, putFile, uploadAddress, type Unit } from "./gateway-api.js";
import { MiB, resetPeak, residentOf, sampleResident } from "./memory.js";
import { progress } from "./options.js";
import { startGatewayMain } from "./servers/processes.js";

/** What the upload benchmark measured. */
export interface UploadResults {
  fileBytes: number;
  rounds: number;
  /** Median seconds and MB/s (10^6 bytes) of each contender over the rounds. */
  sha256sum: { seconds: number; mbPerSecond: number };
  /** The PUT alone: first byte sent to the gateway's 200. */
  gatewayPut: { seconds: number; mbPerSecond: number };
  /** Asking for the address, then the PUT. */
  gatewayEndToEnd: { seconds: number; mbPerSecond: number };
  /** gateway PUT MB/s ÷ sha256sum MB/s. */
  ratio: number;
  /** Peak resident memory of a fresh gateway with 4 concurrent uploads, per file size. */
  memory: {
    fileMiB: number;
    concurrent: number;
    /** Resident right after start, before any upload. */
    coldRss: number;
    /** Resident after one warm-up upload of the same size: the baseline of the growth. */
    baselineRss: number;
    /** The peak (VmHWM, reset to the baseline just before; and never below any 25 ms sample) during the uploads. */
    peakRss: number;
    growth: number;
    peakWasReset: boolean;
  }[];
}

async function uploadOnce(
  url: string,
  unit: Unit,
  path: string,
  length: number,
  sha256: string,
): Promise<{ put: number; total: number }> {
  const started = performance.now();
  const { uploadUrl } = await uploadAddress(url, unit, length, sha256);
  const putStarted = performance.now();
  const status = await putFile(uploadUrl, path, length, sha256);
  const ended = performance.now();
  if (status !== 200) throw new Error(`the upload answered ${status}`);
  return { put: (ended - putStarted) / 1000, total: (ended - started) / 1000 };
}

async function throughput(dir: string, path: string, rounds: number) {
  const { length, sha256 } = await digestFile(path);
  const gateway = await startGatewayMain(join(dir, "throughput"));
  try {
    const unit = await createUnit(gateway.url, gateway.sandboxToken);
    await uploadOnce(gateway.url, unit, path, length, sha256); // warm-up: JIT, page cache, first blob directory
    await sha256sumSeconds(path);
    const hashed: number[] = [];
    const put: number[] = [];
    const total: number[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      // Alternate which goes first, so that neither always follows the other's cache state.
      const order = round % 2 === 0 ? ["gateway", "sha256sum"] : ["sha256sum", "gateway"];
      for (const contender of order) {
        if (contender === "sha256sum") hashed.push(await sha256sumSeconds(path));
        else {
          const times = await uploadOnce(gateway.url, unit, path, length, sha256);
          put.push(times.put);
          total.push(times.total);
          await sleep(500); // the gateway's asynchronous type check reads the blob once; let it finish
        }
      }
      progress(
        `upload: round ${round}/${rounds}: sha256sum ${mbPerSecond(length, hashed.at(-1) as number).toFixed(0)} MB/s, ` +
          `gateway PUT ${mbPerSecond(length, put.at(-1) as number).toFixed(0)} MB/s`,
      );
    }
    return { length, hashed: median(hashed), put: median(put), total: median(total) };
  } finally {
    await gateway.close();
  }
}

async function peakWithConcurrentUploads(dir: string, path: string, fileMiB: number, concurrent: number) {
  const { length, sha256 } = await digestFile(path);
  const gateway = await startGatewayMain(join(dir, `memory-${fileMiB}`));
  try {
    const cold = residentOf(gateway.pid);
    const unit = await createUnit(gateway.url, gateway.sandboxToken);
    await uploadOnce(gateway.url, unit, path, length, sha256); // warm-up, as a running gateway would be
    await sleep(1500);
    const baseline = residentOf(gateway.pid);
    const peakWasReset = resetPeak(gateway.pid);
    const sampler = sampleResident(gateway.pid, 25);
    const addresses = await Promise.all(
      Array.from({ length: concurrent }, () => uploadAddress(gateway.url, unit, length, sha256)),
    );
    const statuses = await Promise.all(addresses.map(({ uploadUrl }) => putFile(uploadUrl, path, length, sha256)));
    const samples = sampler.stop();
    if (statuses.some((status) => status !== 200))
      throw new Error(`concurrent uploads answered ${statuses.join(", ")}`);
    const peakRss = Math.max(peakWasReset ? residentOf(gateway.pid).peak : 0, ...samples.map((s) => s.rss));
    return {
      fileMiB,
      concurrent,
      coldRss: cold.rss,
      baselineRss: baseline.rss,
      peakRss,
      growth: peakRss - baseline.rss,
      peakWasReset,
    };
  } finally {
    await gateway.close();
  }
}

/** Runs the upload benchmark; `rounds` interleaved rounds of the 40 MiB file. */
export async function uploadBenchmark(options: { rounds: number }): Promise<UploadResults> {
  const dir = mkdtempSync(join(tmpdir(), "lrg-bench-upload-"));
  try {
    progress("upload: writing 40 MiB and 10 MiB documents");
    const big = writeDocument(join(dir, "document-40.pdf"), 40 * MiB);
    const small = writeDocument(join(dir, "document-10.pdf"), 10 * MiB);
    progress(`upload: ${options.rounds} rounds of sha256sum and the gateway's PUT on the 40 MiB file`);
    const measured = await throughput(dir, big, options.rounds);
    const memory = [];
    for (const [path, fileMiB] of [
      [small, 10],
      [big, 40],
    ] as const) {
      progress(`upload: peak resident memory of a fresh gateway with 4 concurrent ${fileMiB} MiB uploads`);
      const result = await peakWithConcurrentUploads(dir, path, fileMiB, 4);
      progress(
        `upload: 4 × ${fileMiB} MiB: baseline ${(result.baselineRss / MiB).toFixed(1)} MiB, peak ${(result.peakRss / MiB).toFixed(1)} MiB, growth ${(result.growth / MiB).toFixed(1)} MiB`,
      );
      memory.push(result);
    }
    const sha = { seconds: measured.hashed, mbPerSecond: mbPerSecond(measured.length, measured.hashed) };
    const put = { seconds: measured.put, mbPerSecond: mbPerSecond(measured.length, measured.put) };
    return {
      fileBytes: measured.length,
      rounds: options.rounds,
      sha256sum: sha,
      gatewayPut: put,
      gatewayEndToEnd: { seconds: measured.total, mbPerSecond: mbPerSecond(measured.length, measured.total) },
      ratio: put.mbPerSecond / sha.mbPerSecond,
      memory,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const results = await uploadBenchmark({ rounds: Number(process.env["BENCH_UPLOAD_ROUNDS"] ?? 5) });
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}
