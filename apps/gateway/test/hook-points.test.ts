// The hook points of the registry interface cost nothing while no readiness run runs: each is empty until a run whose
// checks have a step there starts, and empty again once no run needs it (issue 39, "free when idle").
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock } from "../src/clock.js";
import { emptyHooks, type Hooks, type RegistryHooks } from "../src/hooks.js";
import { installReadiness, readinessStorePart, type ReadinessStore } from "../src/readiness/install.js";
import { SandboxState } from "../src/registry/sandbox-state.js";
import { replyWritten, type HandlerContext } from "../src/routing.js";
import { createBusinessUnit } from "../src/sandbox/routes.js";
import { DirectoryBlobStore } from "../src/storage/blobs/directory-blob-store.js";
import { openStorage } from "../src/storage/open-storage.js";
import type { Storage } from "../src/storage/storage.js";
import type { SandboxOperations } from "../src/operation-types.js";

type Installed = Awaited<ReturnType<typeof installReadiness>>;

let dataDir: string;
let storage: Storage & ReadinessStore;
let hooks: Hooks;
let handlers: Installed;

/** The filled hook points of the registry interface, by name. */
const filled = (registry: RegistryHooks): string[] =>
  Object.entries(registry)
    .filter(([, hook]) => hook !== undefined)
    .map(([name]) => name)
    .sort();

/** A control-plane call as the admin (a request without a control actor reads as the admin token). */
function asAdmin<K extends keyof SandboxOperations>(
  body: unknown,
  params: Record<string, string> = {},
): HandlerContext<SandboxOperations[K]> {
  // The handlers read only these members of the context: a request that carries no unit token, the body, the params.
  return { body, params, query: {}, request: {} as FastifyRequest } as unknown as HandlerContext<SandboxOperations[K]>;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lrg-hooks-"));
  storage = await openStorage({ dataDir }, [readinessStorePart]);
  const clock = new Clock();
  const state = new SandboxState(storage, clock);
  await state.load();
  hooks = emptyHooks();
  handlers = await installReadiness({
    storage,
    clock,
    blobs: new DirectoryBlobStore(dataDir),
    state,
    hooks,
    log: (error) => {
      throw error;
    },
    admitWaiting: async () => 0,
  });
});

afterAll(async () => {
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the registry interface's hook points", () => {
  it("are empty with no run, filled for the steps of a running run's checks only, and empty again once it ended", async () => {
    expect(filled(hooks.registry)).toEqual([]);
    const { business_unit_id: unit } = await createBusinessUnit(storage, "hook points");
    const started = await handlers.startReadinessRun(
      asAdmin<"startReadinessRun">({ business_unit_id: unit, checks: ["expired-upload", "lost-answer"] }),
    );
    if (started === replyWritten || started.status !== 201 || typeof started.body === "string")
      throw new Error("no run in the start's answer");
    expect(filled(hooks.registry)).toEqual(["answerSent", "submissionTaken", "uploadAddressIssued"]);
    expect(hooks.registry.submissionTaken?.holds(unit, Date.now())).toBe(true);
    expect(hooks.registry.submissionTaken?.holds("another unit", Date.now())).toBe(false);
    await handlers.cancelReadinessRun(asAdmin<"cancelReadinessRun">(undefined, { run_id: started.body.run_id }));
    expect(filled(hooks.registry)).toEqual([]);
  });
});
