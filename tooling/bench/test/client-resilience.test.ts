// @lrg/client through a fault-injecting proxy (503s, connections dropped before an answer and in the middle of
// one, added latency) in front of one in-process gateway: the notification consumer hands every event to its
// handler once and acknowledges everything; every upload either lands or fails with a typed error.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openSqlite } from "@lrg/gateway/sqlite";
import { createGatewayClient, GatewayError, type GatewayClient, type NotificationVersion } from "@lrg/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInProcessGateway, type InProcessGateway } from "../src/servers/in-process-gateway.js";
import { seededRandom, startFaultProxy, type FaultProfile, type FaultProxy } from "../src/resilience/fault-proxy.js";

const FAULTS: Omit<FaultProfile, "seed"> = {
  unavailable: 0.2,
  dropBefore: 0.05,
  dropMidResponse: 0.05,
  latencyMs: [0, 15],
};
/** Enough attempts that a request meets a working path: at 30 % faults, ten failures in a row are a 1-in-170,000 event. */
const RETRY = { attempts: 10, baseDelayMs: 5, maxDelayMs: 40 };

let gateway: InProcessGateway;
const proxies: [string, FaultProxy][] = [];
const baseSeed = Number(process.env["RESILIENCE_SEED"] ?? 20261121);

/** A proxy of its own for each test, so that a test meets the same faults whatever ran before it. */
async function proxyFor(name: string, seedOffset: number): Promise<FaultProxy> {
  const proxy = await startFaultProxy(gateway.url, { ...FAULTS, seed: baseSeed + seedOffset });
  proxies.push([name, proxy]);
  return proxy;
}

interface Unit {
  username: string;
  password: string;
  business_unit_id: string;
}

async function sandbox(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${gateway.sandboxToken}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Straight to the gateway, around the proxy: what the test sets up and checks with. */
async function direct(
  unit: Unit,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${unit.username}:${unit.password}`).toString("base64")}`,
      ...headers,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

function clientOf(proxy: FaultProxy, unit: Unit): GatewayClient {
  return createGatewayClient({
    baseUrl: proxy.url,
    username: unit.username,
    password: unit.password,
    retry: RETRY,
    timeoutMs: 5000,
  });
}

const submission = {
  type: "REGISTER_UPDATE",
  submission_warning_understood: true,
  customer_reference: "RESILIENCE",
  application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
  titles: { "title-1": { title_number: "ZZ100001" } },
  transactions: { transfer: { type: "T", priority: 1, title_keys: ["title-1"], document_keys: ["tr1"] } },
  documents: { tr1: { type: "TR1", document_id: "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b" } },
};

/** Applications submitted and moved twice (accepted, then completed or cancelled), in batches, while consumers run. */
async function produce(unit: Unit, applications: number): Promise<void> {
  for (let start = 0; start < applications; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, applications - start) }, async (_, offset) => {
        const n = start + offset;
        const submitted = await direct(unit, "POST", "/v0/applications", submission, {
          "idempotency-key": `resilience-${unit.username}-${n}`,
        });
        const id = (submitted.json as { data: { application_request_id: string } }).data.application_request_id;
        await sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
        await sandbox(
          "POST",
          `/sandbox/v1/applications/${id}/transitions`,
          n % 3 === 0 ? { to: "CANCELLED" } : { to: "COMPLETED" },
        );
      }),
    );
    await sleep(30);
  }
}

/** The unit's notifications as the gateway stores them: id and status. */
function storedNotifications(businessUnitId: string): { id: string; status: string; v0: boolean }[] {
  const db = openSqlite(join(gateway.dataDir, "gateway.sqlite"), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT n.id, s.status, n.v0_type IS NOT NULL AS v0 FROM notifications n
         JOIN notification_status s ON s.business_unit_id = n.business_unit_id AND s.created_ms = n.created_ms AND s.seq = n.seq
         WHERE n.business_unit_id = ?`,
      )
      .all(businessUnitId) as { id: string; status: string; v0: boolean }[];
  } finally {
    db.close();
  }
}

const errorName = (error: unknown) =>
  error instanceof Error
    ? `${error.name}${error instanceof GatewayError ? "" : " (untyped)"}: ${error.message.slice(0, 80)}`
    : String(error);

beforeAll(async () => {
  gateway = await startInProcessGateway();
  await sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0.25 });
});

afterAll(async () => {
  for (const [name, proxy] of proxies) {
    await proxy.close();
    const faults = Object.entries(proxy.counts)
      .map(([fault, count]) => `${fault} ${count}`)
      .join(", ");
    process.stderr.write(`fault proxy (${name}): ${faults}\n`);
    for (const [route, counts] of proxy.byRoute) process.stderr.write(`  ${route}: ${JSON.stringify(counts)}\n`);
  }
  await gateway?.stop();
});

describe("client resilience behind a faulty network", () => {
  it.each(["v1", "v0"] as const)(
    "consume (%s) hands each event to the handler once and acknowledges every notification",
    async (version: NotificationVersion) => {
      const unit = (await sandbox("POST", "/sandbox/v1/business-units", { name: `Resilience ${version}` })) as Unit;
      const client = clientOf(await proxyFor(`consume ${version}`, version === "v1" ? 1 : 2), unit);
      const handled = new Map<string, number[]>(); // event key -> the consumer runs that handled it
      const delivered = new Map<string, number>(); // notification id -> times handed to the handler
      const failures = new Map<string, number>();
      const failedRuns = new Set<number>();
      let run = 0;
      let producing = true;
      const producer = produce(unit, 150).finally(() => (producing = false));
      // A consumer as an integrator would run it: consume, and after an error or an empty pass, wait and consume again.
      for (let clean = false; producing || !clean;) {
        run += 1;
        // Only a pass that starts after production ended can be the last one: a pass that began earlier may have
        // listed before the final notifications were emitted.
        const startedAfterProduction = !producing;
        try {
          await client.notifications.consume(
            (event) => {
              handled.set(event.key, [...(handled.get(event.key) ?? []), run]);
              for (const notification of event.notifications)
                delivered.set(notification.notification_id, (delivered.get(notification.notification_id) ?? 0) + 1);
            },
            { version },
          );
          clean = startedAfterProduction;
        } catch (error) {
          clean = false;
          failedRuns.add(run);
          failures.set(errorName(error), (failures.get(errorName(error)) ?? 0) + 1);
          // A run may end in an error (the consumer runs again); it must be a typed one (NetworkError for a dropped
          // connection or a cut-off answer).
          if (!(error instanceof GatewayError)) throw error;
        }
        await sleep(20);
        expect(run, "the consumer settles within 400 passes").toBeLessThan(400);
      }
      await producer;

      // Nothing NEW is left, by the gateway's own answer (around the proxy).
      const left = await direct(unit, "GET", `/${version}/notifications?status=NEW&limit=100`);
      expect(left.status).toBe(200);
      expect((left.json as { data: unknown[] }).data).toEqual([]);
      // Every notification the gateway holds for the unit (that this version shows) was handed over and acknowledged.
      const stored = storedNotifications(unit.business_unit_id).filter((n) => version === "v1" || n.v0);
      expect(stored.length).toBeGreaterThan(250);
      expect(stored.filter((n) => n.status !== "ACKNOWLEDGED")).toEqual([]);
      expect(stored.filter((n) => !delivered.has(n.id)).map((n) => n.id)).toEqual([]);
      // No delivery was handed to the handler twice (that would be a lost acknowledgement) ...
      expect([...delivered].filter(([, times]) => times > 1)).toEqual([]);
      // ... nor any event twice within one run (duplicates are grouped). Across runs, the only way to see an event again
      // is a duplicate delivered after the run that handled the first delivery failed: the client keeps no memory
      // between runs. Those are counted, not hidden.
      const twiceInOneRun = [...handled].filter(([, runs]) => new Set(runs).size !== runs.length);
      expect(twiceInOneRun).toEqual([]);
      const acrossRuns = [...handled].filter(([, runs]) => runs.length > 1);
      for (const [key, runs] of acrossRuns) {
        const [first, again] = [Math.min(...runs), Math.max(...runs)];
        expect(
          [...failedRuns].some((failed) => failed >= first && failed < again),
          `${key} was seen again in run ${again} with no failed run since run ${first}`,
        ).toBe(true);
      }
      process.stderr.write(
        `consume ${version}: ${handled.size} events, ${delivered.size} notifications over ${run} runs; ` +
          `${acrossRuns.length} duplicates seen again in a later run; errors that ended a run: ` +
          `${[...failures].map(([name, count]) => `${count} × ${name}`).join("; ") || "none"}\n`,
      );
    },
  );

  it("every upload either lands at the gateway or fails with a typed error", async () => {
    const unit = (await sandbox("POST", "/sandbox/v1/business-units", { name: "Resilience uploads" })) as Unit;
    const client = clientOf(await proxyFor("uploads", 3), unit);
    const random = seededRandom(7);
    const outcomes = {
      uploaded: 0,
      typed: new Map<string, number>(),
      untyped: [] as string[],
    };
    for (let n = 0; n < 40; n += 1) {
      const size = n === 0 ? 4 * 1024 * 1024 : 1 + Math.floor(random() * 256 * 1024);
      const bytes = Buffer.alloc(size, 0x41 + (n % 26));
      Buffer.from("%PDF-1.7\n").copy(bytes);
      try {
        const uploaded = await client.uploadDocument(bytes, { documentType: "TR1" });
        const stored = await gateway.gateway.storage.findDocument(uploaded.document_id, unit.business_unit_id);
        expect(stored?.status, `document ${uploaded.document_id} is uploaded at the gateway`).toMatch(
          /^(UPLOADED|ACCEPTED|REJECTED)$/,
        );
        expect(stored?.fileSha256).toBe(createHash("sha256").update(bytes).digest("base64"));
        outcomes.uploaded += 1;
      } catch (error) {
        if (error instanceof GatewayError) outcomes.typed.set(error.name, (outcomes.typed.get(error.name) ?? 0) + 1);
        else outcomes.untyped.push(errorName(error));
      }
    }
    process.stderr.write(
      `uploads: ${outcomes.uploaded} landed; typed errors: ${[...outcomes.typed].map(([name, count]) => `${count} × ${name}`).join(", ") || "none"}; ` +
        `untyped: ${outcomes.untyped.length ? outcomes.untyped.join("; ") : "none"}\n`,
    );
    expect(outcomes.uploaded).toBeGreaterThan(0);
    expect(outcomes.untyped, "a failed upload surfaces as a GatewayError subclass").toEqual([]);
  });
});
