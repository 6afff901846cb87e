import { randomBytes, randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { ApplicationService } from "../applications/service.js";
import type { BasicAuthenticator } from "../auth/basic-auth.js";
import { hashPassword } from "../auth/passwords.js";
import { isoMillis, type Clock } from "../clock.js";
import { requestInstant } from "../date-time.js";
import { Problem } from "../problems.js";
import type { SandboxState, Scope } from "../registry/sandbox-state.js";
import type { SandboxHandlers } from "../routing.js";
import type { BusinessUnitStore } from "../storage/ports/business-units.js";
import type { StoreLifecycle } from "../storage/ports/lifecycle.js";
import { controlActorOf } from "../auth/control-actor.js";
import { newUnitToken, unitTokenHash } from "./tokens.js";

export interface SandboxDeps {
  storage: BusinessUnitStore & StoreLifecycle;
  clock: Clock;
  state: SandboxState;
  applications: ApplicationService;
  authenticator: BasicAuthenticator;
  /** Work that follows a change of the clock: due decisions, retention. */
  afterClockChange: () => Promise<void>;
  /** Recreates what start-up creates (the demo business unit) after a reset. */
  afterReset: () => Promise<void>;
}

/**
 * Creates a business unit with one user and a unit token; answers the credentials and the token (the only time either
 * is shown: the store keeps their hashes).
 */
export async function createBusinessUnit(
  storage: BusinessUnitStore,
  name: string,
  credentials?: { username: string; password: string },
) {
  const id = randomUUID();
  const username = credentials?.username ?? `bu-${id.slice(0, 8)}`;
  const password = credentials?.password ?? randomBytes(18).toString("base64url");
  const token = newUnitToken();
  const now = Date.now();
  await storage.createBusinessUnit(
    { id, name, createdMs: now, tokenHash: unitTokenHash(token) },
    { username, businessUnitId: id, passwordHash: await hashPassword(password), createdMs: now },
  );
  return { business_unit_id: id, username, password, sandbox_token: token };
}

/** The business unit a control-plane request acts for: its unit token's, or null for the admin token (global). */
function scopeOf(request: FastifyRequest): Scope {
  const actor = controlActorOf(request);
  return actor?.kind === "unit" ? actor.businessUnitId : null;
}

/** Refuses, with 403-05, an operation that only the admin token may perform. */
function requireAdmin(request: FastifyRequest, what: string): void {
  if (scopeOf(request) !== null)
    throw new Problem("403-05", `${what} needs the admin token; a unit token acts on its own business unit only`);
}

/** Handlers of the sandbox control plane (spec/sandbox.yaml). */
export function sandboxHandlers(
  deps: SandboxDeps,
): SandboxHandlers<
  | "createBusinessUnit"
  | "rotateBusinessUnitToken"
  | "getClock"
  | "setClock"
  | "advanceClock"
  | "getDayList"
  | "setDayList"
  | "transitionApplication"
  | "despatchCorrespondence"
  | "scheduleSystemErrors"
  | "getSettings"
  | "updateSettings"
  | "resetSandbox"
> {
  const { storage, clock, state, applications } = deps;
  const clockAnswer = (scope: Scope) => ({ status: 200 as const, body: { now: isoMillis(clock.nowMs(scope)) } });
  /** A unit token sees its own unit only: another unit (or none) is not found, the same answer for both. */
  const unitVisibleTo = async (request: FastifyRequest, businessUnitId: string) => {
    const scope = scopeOf(request);
    if ((scope !== null && scope !== businessUnitId) || !(await storage.findBusinessUnit(businessUnitId)))
      throw new Problem("404-01", `no business unit ${businessUnitId}`);
  };
  return {
    createBusinessUnit: async ({ body, request }) => {
      requireAdmin(request, "creating a business unit");
      return { status: 201, body: await createBusinessUnit(storage, body?.name ?? "Sandbox business unit") };
    },
    rotateBusinessUnitToken: async ({ params, request }) => {
      await unitVisibleTo(request, params.business_unit_id);
      const token = newUnitToken();
      if (!(await storage.setTokenHash(params.business_unit_id, unitTokenHash(token))))
        throw new Problem("404-01", `no business unit ${params.business_unit_id}`);
      return { status: 200, body: { business_unit_id: params.business_unit_id, sandbox_token: token } };
    },
    getClock: async ({ request }) => clockAnswer(scopeOf(request)),
    setClock: async ({ body, request }) => {
      const target = requestInstant(body.now, "/body/now");
      const scope = scopeOf(request);
      clock.set(target, scope);
      await state.saveClock(scope);
      await deps.afterClockChange();
      return clockAnswer(scope);
    },
    advanceClock: async ({ body, request }) => {
      const scope = scopeOf(request);
      clock.advance(body.seconds * 1000, scope);
      await state.saveClock(scope);
      await deps.afterClockChange();
      return clockAnswer(scope);
    },
    getDayList: async ({ request }) => ({
      status: 200,
      body: await applications.dayList(scopeOf(request) ?? undefined),
    }),
    setDayList: async ({ body, request }) => {
      requireAdmin(request, "opening or closing the registry-wide day list");
      return { status: 200, body: await applications.setDayList(body.open) };
    },
    transitionApplication: async ({ params, body, request }) => ({
      status: 200,
      body: await applications.transition(params.id, body, scopeOf(request) ?? undefined),
    }),
    despatchCorrespondence: async ({ params, body, request }) => ({
      status: 201,
      body: await applications.despatchCorrespondence(params.id, body.documents, scopeOf(request) ?? undefined),
    }),
    scheduleSystemErrors: async ({ body, request }) => {
      // A unit token schedules for its own unit: naming none means its own, naming another is not found.
      const unit = body?.business_unit_id ?? scopeOf(request);
      if (unit !== null) await unitVisibleTo(request, unit);
      return {
        status: 200,
        body: { business_unit_id: unit, pending: await state.scheduleSystemErrors(unit, body?.count ?? 1) },
      };
    },
    getSettings: async ({ request }) => ({ status: 200, body: state.settingsOf(scopeOf(request)) }),
    updateSettings: async ({ body, request }) => ({
      status: 200,
      body: await state.updateSettings(body, scopeOf(request)),
    }),
    resetSandbox: async ({ request }) => {
      const scope = scopeOf(request);
      if (scope !== null) {
        await state.resetUnit(scope);
        await deps.afterClockChange();
        return { status: 204 };
      }
      await storage.reset();
      await state.reset();
      deps.authenticator.forget();
      await deps.afterReset();
      return { status: 204 };
    },
  };
}
