// The load run (issue 9): 32 concurrent clients, each with its own business unit, send mixed traffic (lists of
// both versions, acknowledgements, submissions, transitions through the control plane, uploads, application
// information) to the gateway run as `npm run serve` runs it, for a warm-up and then 60 s; every answer must be the
// expected one, and the gateway's resident memory (VmRSS from /proc) is sampled each second after the warm-up.
// Run alone: `tsx src/load.ts` (BENCH_LOAD_SECONDS, BENCH_LOAD_WARMUP, BENCH_LOAD_CLIENTS).
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { WireClient, type WireAnswer } from "@lrg/conformance";
import { latencyOf, type Latency } from "./contenders.js";
import { median } from "./files.js";
import { basicOf, createUnit, sandboxCall, type Unit } from "./gateway-api.js";
import { MiB, residentOf, sampleResident } from "./memory.js";
import { progress } from "./options.js";
import { startGatewayMain } from "./servers/processes.js";

/** The operations of the mixed traffic, and how often each is drawn (out of 100). */
const MIX = {
  listV1: 30,
  listV0: 5,
  acknowledge: 15,
  submit: 15,
  transition: 15,
  upload: 10,
  information: 10,
} as const;
type Kind = keyof typeof MIX;

/** What the load run measured. */
export interface LoadRunResults {
  clients: number;
  warmupSeconds: number;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  /** The first few unexpected answers. */
  errorSamples: string[];
  operations: Record<string, { requests: number; errors: number; latencyMs: Latency }>;
  memory: {
    /**
     * Median VmRSS over the first 10 s after the warm-up, and over the last 10 s: single samples swing by ±15 % with
     * the garbage collector, medians of a window do not.
     */
    baselineRss: number;
    finalRss: number;
    maxRss: number;
    /** (final − baseline) ÷ baseline, and the same for the largest sample. */
    growth: number;
    maxGrowth: number;
    /** VmHWM at the end. */
    peakRss: number;
    /** The gateway's own figures (/metrics, lrg_process_*) after the warm-up and at the end, in bytes. */
    process: Record<"atStart" | "atEnd", { heapUsed: number; heapTotal: number; external: number }>;
    /** One VmRSS sample per second after the warm-up (bytes). */
    samples: number[];
  };
}

const UPLOAD_BYTES = 64 * 1024;

interface ClientState {
  unit: Unit;
  authorization: string;
  applications: { id: string; status: "VALIDATING" | "ACCEPTED_PRIORITY_PROTECTED" }[];
  unacknowledged: string[];
  submitted: number;
}

const submission = {
  type: "REGISTER_UPDATE",
  submission_warning_understood: true,
  customer_reference: "LOAD",
  application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
  titles: { "title-1": { title_number: "ZZ100001" } },
  transactions: { transfer: { type: "T", priority: 1, title_keys: ["title-1"], document_keys: ["tr1"] } },
  documents: { tr1: { type: "TR1", document_id: "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b" } },
};

/** Runs the load; the gateway is a fresh child process over a temporary data directory. */
export async function loadRun(options: {
  clients: number;
  warmupSeconds: number;
  durationSeconds: number;
}): Promise<LoadRunResults> {
  const dir = mkdtempSync(join(tmpdir(), "lrg-bench-load-"));
  const gateway = await startGatewayMain(join(dir, "gateway"));
  const wire = new WireClient(gateway.url, options.clients + 8, 30_000);
  try {
    await sandboxCall(gateway.url, gateway.sandboxToken, "PUT", "/sandbox/v1/settings", {
      processing: "manual",
      duplicate_rate: 0,
    });
    progress(`load: creating ${options.clients} business units`);
    const states: ClientState[] = [];
    for (let n = 0; n < options.clients; n += 1) {
      const unit = await createUnit(gateway.url, gateway.sandboxToken, `Load client ${n + 1}`);
      states.push({ unit, authorization: basicOf(unit), applications: [], unacknowledged: [], submitted: 0 });
    }
    const document = Buffer.alloc(UPLOAD_BYTES, 0x20);
    Buffer.from("%PDF-1.7\n").copy(document);
    const documentSha = createHash("sha256").update(document).digest("base64");
    const bearer = `Bearer ${gateway.sandboxToken}`;

    let measuring = false;
    const latencies = new Map<string, number[]>();
    const counts = new Map<string, { requests: number; errors: number }>();
    const errorSamples: string[] = [];
    let errors = 0;
    let requests = 0;

    const record = (name: string, answer: WireAnswer, expected: number[]): WireAnswer => {
      if (!measuring) return answer;
      requests += 1;
      const tally = counts.get(name) ?? { requests: 0, errors: 0 };
      counts.set(name, tally);
      tally.requests += 1;
      const list = latencies.get(name) ?? [];
      latencies.set(name, list);
      list.push(answer.ms);
      const ok = answer.kind === "answer" && expected.includes(answer.status);
      if (!ok) {
        errors += 1;
        tally.errors += 1;
        if (errorSamples.length < 10) {
          errorSamples.push(
            `${name}: ${answer.kind === "answer" ? `${answer.status} ${answer.body.subarray(0, 200).toString("utf8")}` : answer.reason}`,
          );
        }
      }
      return answer;
    };
    const json = (answer: WireAnswer): unknown =>
      answer.kind === "answer" ? (JSON.parse(answer.body.toString("utf8") || "null") as unknown) : undefined;
    const jsonRequest = (value: unknown) => {
      const body = Buffer.from(JSON.stringify(value));
      return { body, headers: { "content-type": "application/json", "content-length": String(body.length) } };
    };

    const act = async (state: ClientState, kind: Kind): Promise<void> => {
      const auth = { authorization: state.authorization };
      switch (kind) {
        case "listV1":
        case "listV0": {
          const version = kind === "listV1" ? "v1" : "v0";
          const answer = record(
            `GET /${version}/notifications`,
            await wire.send({ method: "GET", target: `/${version}/notifications?limit=100`, headers: auth }),
            [200],
          );
          if (version === "v1" && answer.kind === "answer" && answer.status === 200) {
            state.unacknowledged = ((json(answer) as { data: { notification_id: string }[] }).data ?? []).map(
              (n) => n.notification_id,
            );
          }
          return;
        }
        case "acknowledge": {
          if (state.unacknowledged.length === 0) return act(state, "listV1");
          const { body, headers } = jsonRequest({ data: state.unacknowledged.slice(0, 100) });
          state.unacknowledged = [];
          record(
            "POST /v1/notifications/acknowledge",
            await wire.send({
              method: "POST",
              target: "/v1/notifications/acknowledge",
              headers: { ...auth, ...headers },
              body,
            }),
            [200],
          );
          return;
        }
        case "submit": {
          const { body, headers } = jsonRequest(submission);
          const answer = record(
            "POST /v0/applications",
            await wire.send({
              method: "POST",
              target: "/v0/applications",
              headers: { ...auth, ...headers, "idempotency-key": `load-${randomUUID()}` },
              body,
            }),
            [202],
          );
          const id =
            answer.kind === "answer" && answer.status === 202
              ? (json(answer) as { data: { application_request_id: string } }).data.application_request_id
              : undefined;
          if (id !== undefined) state.applications.push({ id, status: "VALIDATING" });
          if (state.applications.length > 50) state.applications.shift();
          return;
        }
        case "transition": {
          const application = state.applications[0];
          if (application === undefined) return act(state, "submit");
          const to =
            application.status === "VALIDATING"
              ? "ACCEPTED_PRIORITY_PROTECTED"
              : (state.submitted += 1) % 4 === 0
                ? "CANCELLED"
                : "COMPLETED";
          const { body, headers } = jsonRequest({ to });
          const answer = record(
            "POST /sandbox/v1/applications/{id}/transitions",
            await wire.send({
              method: "POST",
              target: `/sandbox/v1/applications/${application.id}/transitions`,
              headers: { authorization: bearer, ...headers },
              body,
            }),
            [200],
          );
          if (answer.kind === "answer" && answer.status === 200) {
            if (to === "ACCEPTED_PRIORITY_PROTECTED") application.status = "ACCEPTED_PRIORITY_PROTECTED";
            else state.applications.shift();
          }
          return;
        }
        case "upload": {
          const { body, headers } = jsonRequest({
            data: { document_type: "TR1", file_length: UPLOAD_BYTES, file_sha256: documentSha },
          });
          const asked = record(
            "POST /v0/documents/url",
            await wire.send({ method: "POST", target: "/v0/documents/url", headers: { ...auth, ...headers }, body }),
            [200],
          );
          if (asked.kind !== "answer" || asked.status !== 200) return;
          const address = new URL((json(asked) as { data: { upload_url: string } }).data.upload_url);
          record(
            "PUT /v0/uploads/{document_id}",
            await wire.send({
              method: "PUT",
              target: `${address.pathname}${address.search}`,
              headers: {
                "content-type": "application/octet-stream",
                "content-length": String(UPLOAD_BYTES),
                "x-provider-checksum-sha256": documentSha,
              },
              body: document,
            }),
            [200],
          );
          return;
        }
        case "information": {
          const application = state.applications.at(-1);
          if (application === undefined) return act(state, "submit");
          record(
            "GET /v0/applications/{id}/information",
            await wire.send({ method: "GET", target: `/v0/applications/${application.id}/information`, headers: auth }),
            [200],
          );
          return;
        }
      }
    };

    const kinds = Object.entries(MIX).flatMap(([kind, weight]) => Array<Kind>(weight).fill(kind as Kind));
    let stopAt = Number.POSITIVE_INFINITY;
    const loops = states.map(async (state, index) => {
      let n = index * 7;
      while (performance.now() < stopAt) {
        n += 1;
        await act(state, kinds[(n * 37) % kinds.length] as Kind);
      }
    });
    const started = performance.now();
    stopAt = started + (options.warmupSeconds + options.durationSeconds) * 1000;
    progress(`load: ${options.clients} clients, ${options.warmupSeconds} s warm-up`);
    await new Promise((resolve) => setTimeout(resolve, options.warmupSeconds * 1000));
    measuring = true;
    const measuredFrom = performance.now();
    const sampler = sampleResident(gateway.pid, 1000);
    const processFigures = async () => {
      const text = await (await fetch(`${gateway.url}/metrics`)).text();
      const figure = (name: string) => Number(new RegExp(`^lrg_process_${name} (\\d+)$`, "m").exec(text)?.[1]);
      return {
        heapUsed: figure("heap_used_bytes"),
        heapTotal: figure("heap_total_bytes"),
        external: figure("external_bytes"),
      };
    };
    const atStart = await processFigures();
    const ticker = setInterval(() => {
      const seconds = (performance.now() - measuredFrom) / 1000;
      void processFigures().then((figures) =>
        progress(
          `load: ${seconds.toFixed(0)}/${options.durationSeconds} s, ${requests.toLocaleString("en")} requests (${(requests / seconds).toFixed(0)}/s), ${errors} errors, RSS ${(residentOf(gateway.pid).rss / MiB).toFixed(1)} MiB (main thread's heap ${(figures.heapUsed / MiB).toFixed(1)} of ${(figures.heapTotal / MiB).toFixed(1)} MiB, external ${(figures.external / MiB).toFixed(1)} MiB)`,
        ),
      );
    }, 10_000);
    await Promise.all(loops);
    clearInterval(ticker);
    const seconds = (performance.now() - measuredFrom) / 1000;
    const samples = sampler.stop().map((s) => s.rss);
    const atEnd = await processFigures();
    const resident = residentOf(gateway.pid);
    const maxRss = Math.max(...samples);
    const window = Math.max(1, Math.min(10, Math.floor(samples.length / 3)));
    const baseline = median(samples.slice(0, window));
    const final = median(samples.slice(-window));
    return {
      clients: options.clients,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      requests,
      requestsPerSecond: requests / seconds,
      errors,
      errorSamples,
      operations: Object.fromEntries(
        [...counts].map(([name, tally]) => [name, { ...tally, latencyMs: latencyOf(latencies.get(name) ?? []) }]),
      ),
      memory: {
        baselineRss: baseline,
        finalRss: final,
        maxRss,
        growth: (final - baseline) / baseline,
        maxGrowth: (maxRss - baseline) / baseline,
        peakRss: resident.peak,
        process: { atStart, atEnd },
        samples,
      },
    };
  } finally {
    wire.close();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const results = await loadRun({
    clients: number("BENCH_LOAD_CLIENTS", 32),
    warmupSeconds: number("BENCH_LOAD_WARMUP", 10),
    durationSeconds: number("BENCH_LOAD_SECONDS", 60),
  });
  const { samples, ...memory } = results.memory;
  process.stdout.write(
    `${JSON.stringify({ ...results, memory: { ...memory, samplesMiB: samples.map((s) => Number((s / MiB).toFixed(1))) } }, null, 2)}\n`,
  );
  process.exitCode = results.errors > 0 ? 1 : 0;
}
