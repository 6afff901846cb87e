// Side-by-side load measurements: autocannon contenders (and direct call loops) measured in interleaved slices.
import autocannon from "autocannon";
import { progress } from "./options.js";

/** One request of a load run: what to send beyond the method and path. */
export interface Shot {
  headers: Record<string, string>;
  body?: string;
}

/** An HTTP operation of one server to put under load. */
export interface HttpTarget {
  url: string;
  method: "GET" | "POST";
  path: string;
  /** The next request to send; undefined when its supply is used up, which ends the run early. */
  next: () => Shot | undefined;
}

/** What one slice of load gave: raw counts, merged into a LoadResult at the end. */
export interface Slice {
  requests: number;
  seconds: number;
  bytes: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  samples: number[];
  /** The request supply ran out during this slice. */
  exhausted: boolean;
}

/** Something measured in slices: an HTTP server under autocannon, or a direct call loop. */
export interface Contender {
  name: string;
  run(seconds: number): Promise<Slice>;
  /** Called before each run (warm-up or slice) of this many seconds, outside the measured time. */
  prepare?(seconds: number): Promise<void>;
}

/** Latency percentiles in milliseconds. */
export interface Latency {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** What one contender gave over all its measured slices. */
export interface LoadResult {
  requestsPerSecond: number;
  latencyMs: Latency;
  requests: number;
  seconds: number;
  bytesPerSecond: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** True when the request supply ran out before the planned duration (the figures cover what was measured). */
  stoppedEarly: boolean;
}

/** Percentiles of a list of latencies (nearest rank). */
export function latencyOf(samples: number[]): Latency {
  const sorted = Float64Array.from(samples).sort();
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    mean: sorted.length ? sum / sorted.length : 0,
    p50: rank(0.5),
    p90: rank(0.9),
    p99: rank(0.99),
    max: sorted.at(-1) ?? 0,
  };
}

/** An HTTP server as a contender: `connections` autocannon connections, one request in flight on each. */
export function httpContender(name: string, target: HttpTarget, connections: number): Contender {
  return {
    name,
    run: (seconds) =>
      new Promise<Slice>((resolve, reject) => {
        const samples: number[] = [];
        // A slice starts only with a request in hand: a supply used up in an earlier slice would otherwise send
        // requests without their body (answered at once with an error, and counted as throughput).
        let last: Shot | undefined = target.next();
        let pending: Shot | undefined = last;
        if (last === undefined) {
          resolve({ requests: 0, seconds: 0, bytes: 0, non2xx: 0, errors: 0, timeouts: 0, samples, exhausted: true });
          return;
        }
        let exhausted = false;
        const instance = autocannon(
          {
            url: target.url,
            connections,
            pipelining: 1,
            duration: seconds,
            // autocannon looks at its stop flag once per sample interval: a slice under a second ends on time too.
            sampleInt: seconds < 1 ? 100 : 1000,
            timeout: 10,
            requests: [
              {
                method: target.method,
                path: target.path,
                setupRequest: (request) => {
                  const shot = pending ?? target.next();
                  pending = undefined;
                  if (shot === undefined && !exhausted) {
                    exhausted = true;
                    setImmediate(() => instance.stop());
                  }
                  last = shot ?? last;
                  return {
                    ...request,
                    headers: { ...request.headers, ...last?.headers },
                    ...(last?.body !== undefined ? { body: last.body } : {}),
                  };
                },
              },
            ],
          },
          (error, result) => {
            if (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
              return;
            }
            resolve({
              requests: result.requests.total,
              seconds: result.duration,
              bytes: result.throughput.total,
              non2xx: result.non2xx,
              errors: result.errors,
              timeouts: result.timeouts,
              samples,
              exhausted,
            });
          },
        );
        // autocannon emits (client, statusCode, bytes, responseTime); @types/autocannon leaves the client out.
        instance.on("response", (...args: unknown[]) => {
          samples.push(Number(args[3]));
        });
      }),
  };
}

function merge(slices: Slice[]): LoadResult {
  const sum = (pick: (slice: Slice) => number) => slices.reduce((total, slice) => total + pick(slice), 0);
  const seconds = sum((s) => s.seconds);
  return {
    requestsPerSecond: seconds > 0 ? sum((s) => s.requests) / seconds : 0,
    latencyMs: latencyOf(slices.flatMap((s) => s.samples)),
    requests: sum((s) => s.requests),
    seconds,
    bytesPerSecond: seconds > 0 ? sum((s) => s.bytes) / seconds : 0,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    stoppedEarly: slices.some((s) => s.exhausted),
  };
}

/** How long to warm up and measure, and in how many slices. */
export interface Schedule {
  warmupSeconds: number;
  durationSeconds: number;
  slices: number;
  /**
   * Run before every warm-up and slice, outside the measured time: finishes the background work the previous
   * contender left to a shared server (vacuuming, checkpoints), so that it does not land in the next one's slice.
   */
  settle?: () => Promise<void>;
}

/**
 * Measures contenders side by side: each is warmed up, then they take turns in short slices (A B C A B C ...) until
 * each has had `durationSeconds`, so that a shared, noisy machine slows them alike and the ratios stay fair. A
 * contender whose request supply runs out sits out the remaining slices. Prints progress after every slice.
 */
export async function compare(
  title: string,
  contenders: Contender[],
  schedule: Schedule,
): Promise<Map<string, LoadResult>> {
  const rounds = Math.max(1, Math.round(schedule.slices));
  const sliceSeconds = schedule.durationSeconds / rounds;
  for (const contender of contenders) {
    progress(`${title}: warming up ${contender.name} for ${schedule.warmupSeconds} s`);
    await contender.prepare?.(schedule.warmupSeconds);
    await schedule.settle?.();
    await contender.run(schedule.warmupSeconds);
  }
  const slices = new Map(contenders.map((c) => [c.name, [] as Slice[]]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const contender of contenders) {
      const done = slices.get(contender.name) as Slice[];
      if (done.some((slice) => slice.exhausted)) continue;
      await contender.prepare?.(sliceSeconds);
      await schedule.settle?.();
      const slice = await contender.run(sliceSeconds);
      done.push(slice);
      const failures = slice.non2xx + slice.errors + slice.timeouts;
      progress(
        `${title}: round ${round}/${rounds} ${contender.name}: ${(slice.requests / slice.seconds).toFixed(0)}/s over ${slice.seconds.toFixed(1)} s, p99 ${latencyOf(slice.samples).p99.toFixed(1)} ms` +
          (failures > 0 ? ` (${failures} failed)` : "") +
          (slice.exhausted ? " (request supply used up)" : ""),
      );
    }
  }
  const results = new Map([...slices].map(([name, done]) => [name, merge(done)]));
  for (const [name, result] of results) {
    progress(
      `${title}: ${name}: ${result.requestsPerSecond.toFixed(0)}/s, p50 ${result.latencyMs.p50.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms`,
    );
  }
  return results;
}
