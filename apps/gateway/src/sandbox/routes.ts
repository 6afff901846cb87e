import { randomBytes, randomUUID } from "node:crypto";
import type { ApplicationService } from "../applications/service.js";
import type { BasicAuthenticator } from "../auth/basic-auth.js";
import { hashPassword } from "../auth/passwords.js";
import { isoMillis, type Clock } from "../clock.js";
import { parseDateTimeFilter } from "../date-time.js";
import { Problem } from "../problems.js";
import type { SandboxState } from "../registry/sandbox-state.js";
import type { SandboxHandlers } from "../routing.js";
import type { Storage } from "../storage/storage.js";

export interface SandboxDeps {
  storage: Storage;
  clock: Clock;
  state: SandboxState;
  applications: ApplicationService;
  authenticator: BasicAuthenticator;
  /** Work that follows a change of the clock: due decisions, retention. */
  afterClockChange: () => Promise<void>;
  /** Recreates what start-up creates (the demo business unit) after a reset. */
  afterReset: () => Promise<void>;
}

/** Creates a business unit with one user; answers the credentials (the only time the password is shown). */
export async function createBusinessUnit(
  storage: Storage,
  name: string,
  credentials?: { username: string; password: string },
) {
  const id = randomUUID();
  const username = credentials?.username ?? `bu-${id.slice(0, 8)}`;
  const password = credentials?.password ?? randomBytes(18).toString("base64url");
  const now = Date.now();
  await storage.createBusinessUnit(
    { id, name, createdMs: now },
    { username, businessUnitId: id, passwordHash: await hashPassword(password), createdMs: now },
  );
  return { business_unit_id: id, username, password };
}

/** Handlers of the sandbox control plane (spec/sandbox.yaml). */
export function sandboxHandlers(deps: SandboxDeps): SandboxHandlers {
  const { storage, clock, state, applications } = deps;
  const clockAnswer = () => ({ status: 200 as const, body: { now: isoMillis(clock.nowMs()) } });
  return {
    createBusinessUnit: async ({ body }) => ({
      status: 201,
      body: await createBusinessUnit(storage, body?.name ?? "Sandbox business unit"),
    }),
    getClock: async () => clockAnswer(),
    setClock: async ({ body }) => {
      const target = parseDateTimeFilter(body.now);
      if (target === undefined) {
        throw new Problem("400-02", "request does not match the schema", {
          errors: [{ type: "format", detail: "now is not a valid date-time", pointer: "/body/now" }],
        });
      }
      clock.set(target);
      await state.saveClock();
      await deps.afterClockChange();
      return clockAnswer();
    },
    advanceClock: async ({ body }) => {
      clock.advance(body.seconds * 1000);
      await state.saveClock();
      await deps.afterClockChange();
      return clockAnswer();
    },
    getDayList: async () => ({ status: 200, body: await applications.dayList() }),
    setDayList: async ({ body }) => ({ status: 200, body: await applications.setDayList(body.open) }),
    transitionApplication: async ({ params, body }) => ({
      status: 200,
      body: await applications.transition(params.id, body),
    }),
    despatchCorrespondence: async ({ params, body }) => ({
      status: 201,
      body: await applications.despatchCorrespondence(params.id, body.documents),
    }),
    scheduleSystemErrors: async ({ body }) => {
      const unit = body?.business_unit_id ?? null;
      if (unit !== null && !(await storage.findBusinessUnit(unit)))
        throw new Problem("404-01", `no business unit ${unit}`);
      return {
        status: 200,
        body: { business_unit_id: unit, pending: await state.scheduleSystemErrors(unit, body?.count ?? 1) },
      };
    },
    getSettings: async () => ({ status: 200, body: state.settings }),
    updateSettings: async ({ body }) => ({ status: 200, body: await state.updateSettings(body) }),
    resetSandbox: async () => {
      await storage.reset();
      await state.reset();
      deps.authenticator.forget();
      await deps.afterReset();
      return { status: 204 };
    },
  };
}
