// `npm run bench`: every benchmark in one run, each comparison measured side by side: notifications (gateway,
// Prism, bare node:http, SQLite), upload (gateway PUT, sha256sum, memory), client (@lrg/client, raw fetch,
// sha256sum, memory), failed logins (a correct client beside 16 wrong-password clients), what readiness runs cost
// (list and acknowledge with no run, a run on another unit, a run on this unit, against the gateway without readiness)
// and, with BENCH_LOAD=1, the 60 s load run. Writes results/latest.{json,md,svg}; prints
// progress on stderr and the figures against their targets on stdout. See README.md.
//   BENCH_ONLY=upload,client   runs only the named benchmarks (notifications, upload, client, logins, readiness, load)
//   BENCH_QUICK=1              smaller data set and shorter runs, results in results/quick/
import { loadavg } from "node:os";
import { clientBenchmark } from "./client.js";
import { loadRun } from "./load.js";
import { loginBenchmark } from "./logins.js";
import { notificationBenchmarks } from "./notifications.js";
import { readinessBenchmark } from "./readiness.js";
import { benchOptions, machine, progress } from "./options.js";
import { finishRun, type BenchResults } from "./report.js";
import { uploadBenchmark } from "./upload.js";

const SECTIONS = ["notifications", "upload", "client", "load", "logins", "readiness"] as const;
type Section = (typeof SECTIONS)[number];

const yes = (name: string) => ["1", "true", "yes"].includes((process.env[name] ?? "").toLowerCase());

function selected(): Section[] {
  const only = process.env["BENCH_ONLY"];
  if (only !== undefined && only.trim() !== "") {
    const names = only.split(",").map((name) => name.trim());
    const unknown = names.filter((name) => !SECTIONS.includes(name as Section));
    if (unknown.length > 0)
      throw new Error(`BENCH_ONLY names ${unknown.join(", ")}; choose from ${SECTIONS.join(", ")}`);
    return names as Section[];
  }
  return yes("BENCH_LOAD") ? [...SECTIONS] : SECTIONS.filter((section) => section !== "load");
}

const options = benchOptions();
const sections = selected();
const started = Date.now();
const loadAtStart = Number((loadavg()[0] ?? 0).toFixed(2));
progress(`benchmarks${options.quick ? " (quick mode)" : ""}: ${sections.join(", ")}`);
const notes: string[] = [];
const partial: Partial<Pick<BenchResults, Section>> = {};
for (const section of sections) {
  const sectionStarted = Date.now();
  switch (section) {
    case "notifications":
      partial.notifications = await notificationBenchmarks(options, notes);
      break;
    case "upload":
      partial.upload = await uploadBenchmark({ rounds: options.quick ? 3 : 7 });
      break;
    case "client":
      partial.client = await clientBenchmark(
        options.quick
          ? { gets: 2000, rounds: 4, hashRounds: 3, concurrency: 8 }
          : { gets: 10_000, rounds: 10, hashRounds: 7, concurrency: 8 },
      );
      break;
    case "logins":
      partial.logins = await loginBenchmark(
        options.quick
          ? { connections: 8, warmupSeconds: 2, durationSeconds: 6, slices: 3 }
          : { connections: 8, warmupSeconds: 10, durationSeconds: 20, slices: 5 },
      );
      break;
    case "readiness":
      partial.readiness = await readinessBenchmark(options);
      break;
    case "load":
      partial.load = await loadRun(
        options.quick
          ? { clients: 32, warmupSeconds: 5, durationSeconds: 15 }
          : { clients: 32, warmupSeconds: 10, durationSeconds: 60 },
      );
      break;
  }
  progress(`${section}: done in ${((Date.now() - sectionStarted) / 1000).toFixed(0)} s`);
}
const loadAtEnd = Number((loadavg()[0] ?? 0).toFixed(2));
if (Math.max(loadAtStart, loadAtEnd) > 2.5) {
  notes.push(
    `The machine was busy with other work (1-minute load average ${loadAtStart} at the start, ${loadAtEnd} at the end, on ${machine().cpus} cores, ` +
      "where a benchmark alone makes about 2): expect noise.",
  );
}
finishRun(options.resultsDir, {
  quick: options.quick,
  loadAverage: { start: loadAtStart, end: loadAtEnd },
  seconds: (Date.now() - started) / 1000,
  ...partial,
  notes,
});
