// Failed logins (issue 16): a correct client's throughput and p99 alone, and with 16 clients sending wrong passwords
// at the same time, against the gateway run as `npm run serve` runs it. The attackers ignore Retry-After and ask
// again as soon as they are answered; they come from four loopback addresses (127.0.0.2–5) when the machine lets a
// socket bind them, and name the correct client's own username half of the time (the others, unknown users).
// Run alone: `npm run bench:logins` (BENCH_LOGINS_SECONDS, BENCH_LOGINS_WARMUP, BENCH_LOGINS_CONNECTIONS).
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compare, httpContender, type Contender, type LoadResult } from "./contenders.js";
import { basicOf, createUnit } from "./gateway-api.js";
import { BENCH_ROOT, progress } from "./options.js";
import { finishRun, type LoginResults } from "./report.js";
import { startGatewayMain } from "./servers/processes.js";

const ATTACKERS = 16;
const SETTLE_SECONDS = 120;
const ATTACK_ADDRESSES = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];

/** Whether a socket may bind `address` as its source (Linux routes all of 127.0.0.0/8 to loopback; others may not). */
async function canBind(url: string, address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request(`${url}/healthz`, { localAddress: address, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(true));
    });
    probe.on("error", () => resolve(false));
    probe.end();
  });
}

/**
 * Clients sending wrong passwords back to back, each on its own keep-alive connection from its source address, half
 * of them for `victim`, half for users that do not exist. They send only `during` the work given them.
 */
function attackers(url: string, addresses: string[], victim: string) {
  const answers: Record<string, number> = {};
  let requests = 0;
  let [active, counting, stopped] = [false, false, false];
  let wake: () => void = () => undefined;
  let woken = new Promise<void>((resolve) => (wake = resolve));
  const agents: Agent[] = [];
  const loops = Array.from({ length: ATTACKERS }, async (_, index) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: addresses[index % addresses.length] });
    agents.push(agent);
    const username = index % 2 === 0 ? victim : `nobody-${index}`;
    const authorization = basicOf({ username, password: `wrong-${index}` });
    while (!stopped) {
      if (!active) {
        await woken;
        continue;
      }
      const status = await new Promise<string>((resolve) => {
        const sent = request(`${url}/v1/notifications`, { agent, headers: { authorization } }, (response) => {
          response.resume();
          response.on("end", () => resolve(String(response.statusCode)));
          response.on("error", () => resolve("error"));
        });
        sent.on("error", () => resolve("error"));
        sent.end();
      });
      if (counting) {
        answers[status] = (answers[status] ?? 0) + 1;
        requests += 1;
      }
      // A failed connection would otherwise spin (the gateway itself pauses every refusal past the budget).
      if (status === "error") await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  return {
    answers,
    requests: () => requests,
    /** Runs `work` with the attackers sending; their answers are counted when `count`. */
    async during<T>(work: () => Promise<T>, count: boolean): Promise<T> {
      [active, counting] = [true, count];
      wake();
      try {
        return await work();
      } finally {
        [active, counting] = [false, false];
        woken = new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      wake();
      await Promise.all(loops);
      for (const agent of agents) agent.destroy();
    },
  };
}

/** The figures of the gateway's /metrics that tell what logins cost. */
async function loginMetrics(url: string): Promise<{ scryptRuns: number; refused: Record<string, number> }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  const refused: Record<string, number> = {};
  for (const match of text.matchAll(/^lrg_auth_refused_total\{reason="(\w+)"\} (\d+)$/gm))
    refused[match[1] ?? ""] = Number(match[2]);
  return { scryptRuns: value(/^lrg_auth_scrypt_total (\d+)$/m), refused };
}

/**
 * Measures the correct client alone and beside the attackers, in interleaved slices (alone, under attack, alone,
 * ...), so that a noisy machine slows both alike. The attackers run only during the "under attack" slices; their
 * first slice (the warm-up) spends the failed-login budgets, as an attack would before it settles.
 */
export async function loginBenchmark(options: {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  slices: number;
}): Promise<LoginResults> {
  const dir = mkdtempSync(join(tmpdir(), "lrg-bench-logins-"));
  const gateway = await startGatewayMain(dir, { LRG_HTTPS_PORT: "off" });
  try {
    const unit = await createUnit(gateway.url, gateway.sandboxToken, "Login benchmark");
    const bindable = await canBind(gateway.url, ATTACK_ADDRESSES[0] as string);
    const addresses = bindable ? ATTACK_ADDRESSES : ["127.0.0.1"];
    if (!bindable)
      progress("logins: this machine cannot bind 127.0.0.2 as a source address; the attackers share 127.0.0.1");
    const correct = basicOf(unit);
    const target = {
      url: gateway.url,
      method: "GET" as const,
      path: "/v1/notifications",
      next: () => ({ headers: { authorization: correct } }),
    };
    const alone = httpContender("alone", target, options.connections);
    const attack = attackers(gateway.url, addresses, unit.username);
    let warm = false;
    let attackSeconds = 0;
    const underAttack: Contender = {
      name: `beside ${ATTACKERS} clients sending wrong passwords`,
      // Its first run is the warm-up, where the attackers spend the budgets as an attack does before it settles.
      run: async (seconds) => {
        const slice = await attack.during(() => alone.run(seconds), warm);
        if (warm) attackSeconds += slice.seconds;
        warm = true;
        return slice;
      },
    };
    // An attack settles once the budgets are spent: the attackers send until the gateway refuses them (at most
    // SETTLE_SECONDS), so that the measured slices see the settled attack, not its first burst of password checks.
    const settled = await attack.during(async () => {
      const until = Date.now() + SETTLE_SECONDS * 1000;
      while (Date.now() < until) {
        const refused = Object.values((await loginMetrics(gateway.url)).refused).reduce((a, b) => a + b, 0);
        if (refused >= ATTACKERS) return (SETTLE_SECONDS * 1000 - (until - Date.now())) / 1000;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return undefined;
    }, false);
    progress(
      settled === undefined
        ? `logins: the attackers were not refused within ${SETTLE_SECONDS} s; measuring anyway`
        : `logins: the attackers spent the failed-login budgets in ${settled.toFixed(1)} s`,
    );
    const results = await compare("logins", [alone, underAttack], {
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      slices: options.slices,
    }).finally(() => attack.stop());
    const aloneResult = results.get("alone") as LoadResult;
    const underResult = results.get(underAttack.name) as LoadResult;
    return {
      connections: options.connections,
      attackers: ATTACKERS,
      attackerAddresses: addresses,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      alone: aloneResult,
      underAttack: underResult,
      throughputKept: underResult.requestsPerSecond / aloneResult.requestsPerSecond,
      attackAnswers: { ...attack.answers },
      attackRequestsPerSecond: attackSeconds > 0 ? attack.requests() / attackSeconds : 0,
      settleSeconds: settled,
      gateway: await loginMetrics(gateway.url),
    };
  } finally {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const started = Date.now();
  const loadAtStart = Number((loadavg()[0] ?? 0).toFixed(2));
  const logins = await loginBenchmark({
    connections: number("BENCH_LOGINS_CONNECTIONS", 8),
    warmupSeconds: number("BENCH_LOGINS_WARMUP", 10),
    durationSeconds: number("BENCH_LOGINS_SECONDS", 20),
    slices: 5,
  });
  finishRun(join(BENCH_ROOT, "results", "logins"), {
    quick: false,
    loadAverage: { start: loadAtStart, end: Number((loadavg()[0] ?? 0).toFixed(2)) },
    seconds: (Date.now() - started) / 1000,
    logins,
    notes: [],
  });
}
