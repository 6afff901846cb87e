import { startTestGateway } from "@lrg/gateway/testing";
import type { Contender, Slice } from "./contenders.js";

/** One acknowledge request's worth of ids, all of one business unit. */
export interface AckBatch {
  businessUnitId: string;
  username: string;
  ids: string[];
}

/**
 * Acknowledging straight on SQLite, as a contender: batches of 100 ids go through the gateway's own storage
 * (`startTestGateway(...).gateway.storage.acknowledgeNotifications`) in this process, without HTTP, one after another. The
 * same statements, pragmas and transaction as POST /v1/notifications/acknowledge runs, whatever they become;
 * minus routing, authentication, validation, serialisation and the 32-way concurrency. The floor under it.
 */
export async function directAcknowledger(
  dataDir: string,
  next: () => AckBatch | undefined,
  prepare?: (seconds: number) => Promise<void>,
): Promise<{ contender: Contender; close(): Promise<void> }> {
  const { gateway, stop } = await startTestGateway({ dataDir, demoUser: null, decisionDelayMs: 2000 });
  const contender: Contender = {
    name: "SQLite direct",
    ...(prepare ? { prepare } : {}),
    run: async (seconds): Promise<Slice> => {
      const samples: number[] = [];
      const started = performance.now();
      const deadline = started + seconds * 1000;
      let exhausted = false;
      while (performance.now() < deadline) {
        const batch = next();
        if (!batch) {
          exhausted = true;
          break;
        }
        const before = performance.now();
        await gateway.storage.acknowledgeNotifications(batch.businessUnitId, batch.ids, gateway.clock.nowMs());
        samples.push(performance.now() - before);
      }
      return {
        requests: samples.length,
        seconds: (performance.now() - started) / 1000,
        bytes: 0,
        non2xx: 0,
        errors: 0,
        timeouts: 0,
        samples,
        exhausted,
      };
    },
  };
  return { contender, close: stop };
}
