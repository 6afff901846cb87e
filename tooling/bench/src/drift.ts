// What `lrg drift` costs on a day of traffic (issue 41): 100,000 exchanges judged, target 30 s on this machine. The
// corpus is real: the client's workflow (upload, submit, application information, both notification versions,
// acknowledge, title enquiries) recorded against a gateway started here, repeated by new business units until it holds
// a few hundred exchanges, then those laid end to end, each copy a minute later, up to BENCH_DRIFT_EXCHANGES. Measured
// as a user runs it (the built `lrg drift FILE --json`, a process of its own: wall time and peak memory), beside the
// pinned `redocly drift` on the same file in the same run (its schema checks only). Alone: `npx tsx src/drift.ts`.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createGatewayClient, createSandboxClient, unwrap } from "@lrg/client";
import { harOf, harRecorder, type HarEntry } from "@lrg/conformance/drift";
import { startTestGateway } from "@lrg/gateway/testing";
import { BENCH_ROOT, machine, progress } from "./options.js";

const REPO = resolve(BENCH_ROOT, "..", "..");
const LRG = join(REPO, "packages", "cli", "bin", "lrg.js");
const REDOCLY = join(REPO, "spec", "node_modules", "@redocly", "cli", "bin", "cli.js");
const SPEC = join(REPO, "spec", "dist", "openapi.json");
const EXCHANGES = Number(process.env["BENCH_DRIFT_EXCHANGES"] ?? 100_000);
const WORKFLOWS = Number(process.env["BENCH_DRIFT_WORKFLOWS"] ?? 20);
const TARGET_SECONDS = 30;

const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n", "latin1");

/** One business unit's workflow through the client, recorded. */
async function workflow(url: string, sandboxToken: string, index: number): Promise<HarEntry[]> {
  const sandbox = createSandboxClient({ baseUrl: url, token: sandboxToken });
  const unit = await unwrap(sandbox.POST("/sandbox/v1/business-units", { body: { name: `drift bench ${index}` } }));
  const recorder = harRecorder();
  const client = createGatewayClient({
    baseUrl: url,
    username: unit.username,
    password: unit.password,
    fetch: recorder.fetch,
  });
  try {
    const uploaded = await client.uploadDocument(PDF, { documentType: "TR1" });
    const { application_request_id: id } = await client.applications.submit({
      type: "REGISTER_UPDATE",
      submission_warning_understood: true,
      customer_reference: `DRIFT-BENCH-${index}`,
      application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
      titles: { main: { title_number: "ZZ100001", whole_of_title: true } },
      transactions: { transfer: { type: "T", priority: 1, title_keys: ["main"], document_keys: ["transfer"] } },
      documents: { transfer: { type: "TR1", document_id: uploaded.document_id } },
    });
    let ids: string[] = [];
    while (ids.length < 2) {
      ids = (await unwrap(client.GET("/v1/notifications", {}))).data.map((n) => n.notification_id);
      if (ids.length < 2) await new Promise((done) => setTimeout(done, 50));
    }
    await unwrap(client.GET("/v0/notifications", {}));
    await unwrap(client.POST("/v1/notifications/acknowledge", { body: { data: ids } }));
    await unwrap(client.GET("/v0/applications/{id}/information", { params: { path: { id } } }));
    const title = { params: { path: { title_number: "ZZ100001" } } };
    // Plain HTTP, no client certificate: the title enquiries answer their documented 403 BG40005.
    await client.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", title);
    await client.GET("/s1/v1/titles/{title_number}/official-copies/availability", title);
    return recorder.entries;
  } finally {
    await client.close();
  }
}

/**
 * `template` laid end to end until `count` entries, each copy a minute after the one before and with ids of its own (the
 * last four hex digits of every UUID are the copy's number), so that no copy lists what an earlier one acknowledged.
 */
function corpusOf(template: readonly HarEntry[], count: number): HarEntry[] {
  const entries: HarEntry[] = [];
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8})[0-9a-f]{4}/g;
  for (let copy = 0; entries.length < count; copy += 1) {
    const suffix = copy.toString(16).padStart(4, "0");
    for (const entry of template) {
      if (entries.length === count) break;
      const own = JSON.parse(JSON.stringify(entry).replace(uuid, `$1${suffix}`)) as HarEntry;
      own["startedDateTime"] = new Date(Date.parse(String(entry["startedDateTime"])) + copy * 60_000).toISOString();
      entries.push(own);
    }
  }
  return entries;
}

/**
 * Runs a command under /usr/bin/time: its exit code, wall seconds, CPU seconds (user and system: what a machine shared
 * with other work moves less) and peak resident memory (MiB).
 */
function measured(
  command: string,
  args: string[],
): { code: number | null; seconds: number; cpuSeconds: number; peakMiB: number; stderr: string } {
  const started = process.hrtime.bigint();
  const run = spawnSync("/usr/bin/time", ["-f", "%M %U %S", command, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = run.stderr.trim().split("\n");
  const [peakKiB, user, system] = (lines.at(-1) ?? "").split(" ").map(Number);
  return {
    code: run.status,
    seconds,
    cpuSeconds: (user ?? Number.NaN) + (system ?? Number.NaN),
    peakMiB: (peakKiB ?? Number.NaN) / 1024,
    stderr: lines.slice(0, -1).join("\n"),
  };
}

const dir = mkdtempSync(join(tmpdir(), "lrg-drift-bench-"));
const gateway = await startTestGateway({ decisionDelayMs: 10, settings: { duplicate_rate: 0 } });
try {
  progress(`recording ${WORKFLOWS} workflows against ${gateway.url}`);
  const template: HarEntry[] = [];
  for (let i = 0; i < WORKFLOWS; i += 1) template.push(...(await workflow(gateway.url, gateway.sandboxToken, i)));
  const corpus = corpusOf(template, EXCHANGES);
  const har = join(dir, "corpus.har");
  writeFileSync(har, harOf(corpus));
  progress(
    `${corpus.length} exchanges (${template.length} recorded), ${(Buffer.byteLength(harOf(corpus)) / 2 ** 20).toFixed(1)} MiB`,
  );

  progress("lrg drift");
  const ours = measured(process.execPath, [LRG, "drift", har, "--json"]);
  if (ours.code !== 0)
    throw new Error(`lrg drift found something on recorded traffic (exit ${ours.code}): ${ours.stderr}`);
  progress(
    `lrg drift: ${ours.seconds.toFixed(1)} s (${ours.cpuSeconds.toFixed(1)} s of CPU), ${ours.peakMiB.toFixed(0)} MiB`,
  );
  progress("redocly drift");
  const out = join(dir, "redocly.json");
  const theirs = measured(process.execPath, [
    REDOCLY,
    "drift",
    har,
    "--api",
    SPEC,
    "--server",
    gateway.url,
    "--format",
    "json",
    "-o",
    out,
  ]);
  progress(
    `redocly drift: ${theirs.seconds.toFixed(1)} s (${theirs.cpuSeconds.toFixed(1)} s of CPU), ${theirs.peakMiB.toFixed(0)} MiB (exit ${theirs.code})`,
  );

  const result = {
    machine: machine(),
    exchanges: corpus.length,
    recorded: template.length,
    targetSeconds: TARGET_SECONDS,
    lrgDrift: {
      seconds: ours.seconds,
      cpuSeconds: ours.cpuSeconds,
      exchangesPerSecond: corpus.length / ours.seconds,
      peakMiB: ours.peakMiB,
    },
    redoclyDrift: {
      seconds: theirs.seconds,
      cpuSeconds: theirs.cpuSeconds,
      exchangesPerSecond: corpus.length / theirs.seconds,
      peakMiB: theirs.peakMiB,
      exit: theirs.code,
    },
    ratio: {
      lrgOverRedoclySeconds: ours.seconds / theirs.seconds,
      lrgOverRedoclyCpu: ours.cpuSeconds / theirs.cpuSeconds,
      lrgOverTarget: ours.seconds / TARGET_SECONDS,
    },
  };
  const results = join(BENCH_ROOT, "results");
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, "drift.json"), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await gateway.stop();
  rmSync(dir, { recursive: true, force: true });
}
