const BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000];

interface Series {
  count: number;
  sumMs: number;
  buckets: number[];
}

/** Request counts and latencies per route, method and status, in the Prometheus text format. */
export class Metrics {
  readonly #series = new Map<string, Series>();
  readonly #started = Date.now();
  readonly #sources: (() => string[])[] = [];

  /** Adds figures kept elsewhere (lines of the text format), rendered after the request figures. */
  include(source: () => string[]): void {
    this.#sources.push(source);
  }

  observe(method: string, route: string, status: number, durationMs: number): void {
    const key = JSON.stringify([method, route, status]);
    let series = this.#series.get(key);
    if (!series) {
      series = { count: 0, sumMs: 0, buckets: BUCKETS_MS.map(() => 0) };
      this.#series.set(key, series);
    }
    series.count += 1;
    series.sumMs += durationMs;
    BUCKETS_MS.forEach((bound, index) => {
      if (durationMs <= bound && series) series.buckets[index] = (series.buckets[index] ?? 0) + 1;
    });
  }

  render(): string {
    const lines = [
      "# HELP lrg_http_requests_total Requests answered, by route, method and status.",
      "# TYPE lrg_http_requests_total counter",
    ];
    const histogram = [
      "# HELP lrg_http_request_duration_seconds Time to answer, by route and method.",
      "# TYPE lrg_http_request_duration_seconds histogram",
    ];
    for (const [key, series] of [...this.#series].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [method, route, status] = JSON.parse(key) as [string, string, number];
      const labels = `method="${method}",route="${route.replace(/"/g, '\\"')}",status="${status}"`;
      lines.push(`lrg_http_requests_total{${labels}} ${series.count}`);
      BUCKETS_MS.forEach((bound, index) =>
        histogram.push(
          `lrg_http_request_duration_seconds_bucket{${labels},le="${bound / 1000}"} ${series.buckets[index]}`,
        ),
      );
      histogram.push(`lrg_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${series.count}`);
      histogram.push(`lrg_http_request_duration_seconds_sum{${labels}} ${series.sumMs / 1000}`);
      histogram.push(`lrg_http_request_duration_seconds_count{${labels}} ${series.count}`);
    }
    return [
      ...lines,
      ...histogram,
      "# HELP lrg_uptime_seconds Seconds since the gateway started.",
      "# TYPE lrg_uptime_seconds gauge",
      `lrg_uptime_seconds ${(Date.now() - this.#started) / 1000}`,
      ...memoryLines(),
      ...this.#sources.flatMap((source) => source()),
      "",
    ].join("\n");
  }
}

/** The process's memory (process.memoryUsage()): what an operator watches for growth, by where it lives. */
function memoryLines(): string[] {
  const usage = process.memoryUsage();
  const figures: [string, string, number][] = [
    ["resident_bytes", "Resident memory of the gateway's process (every thread).", usage.rss],
    ["heap_used_bytes", "JavaScript heap in use on the main thread.", usage.heapUsed],
    ["heap_total_bytes", "JavaScript heap reserved on the main thread.", usage.heapTotal],
    ["external_bytes", "Memory outside the heap held by JavaScript objects (buffers among it).", usage.external],
  ];
  return figures.flatMap(([name, help, value]) => [
    `# HELP lrg_process_${name} ${help}`,
    `# TYPE lrg_process_${name} gauge`,
    `lrg_process_${name} ${value}`,
  ]);
}
