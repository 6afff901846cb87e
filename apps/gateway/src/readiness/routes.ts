import { controlActorOf } from "../auth/control-actor.js";
import type { SandboxOperations } from "../operation-types.js";
import { Problem, schemaMismatch } from "../problems.js";
import type { HandlersOf } from "../routing.js";
import type { BusinessUnitStore } from "../storage/ports/business-units.js";
import type { FastifyRequest } from "fastify";
import type { Reader, ReadinessService } from "./service.js";

/** The control plane's operations of readiness runs (spec/paths/sandbox/readiness-*.yaml). */
export type ReadinessOperation = "startReadinessRun" | "getReadinessRun" | "listReadinessRuns" | "cancelReadinessRun";

/** Who reads: a unit token's business unit, or null for the admin token. */
export function readerOf(request: FastifyRequest): Reader {
  const actor = controlActorOf(request);
  return actor?.kind === "unit" ? actor.businessUnitId : null;
}

/** Handlers of the readiness runs. */
export function readinessHandlers(
  readiness: ReadinessService,
  storage: BusinessUnitStore,
): HandlersOf<SandboxOperations, ReadinessOperation> {
  return {
    startReadinessRun: async ({ body, request }) => {
      const reader = readerOf(request);
      const unit = body?.business_unit_id ?? reader;
      if (unit === null)
        throw schemaMismatch([
          {
            type: "required",
            detail: "business_unit_id is required with the admin token",
            pointer: "/body/business_unit_id",
          },
        ]);
      // A unit token acts on its own unit: another unit is not found, as a missing one.
      if ((reader !== null && unit !== reader) || !(await storage.findBusinessUnit(unit)))
        throw new Problem("404-01", `no business unit ${unit}`);
      return {
        status: 201,
        body: await readiness.start(unit, { checks: body?.checks, time_limit_seconds: body?.time_limit_seconds }),
      };
    },
    getReadinessRun: async ({ params, request }) => ({
      status: 200,
      body: await readiness.get(params.run_id, readerOf(request)),
    }),
    listReadinessRuns: async ({ query, request }) => ({
      status: 200,
      body: { data: await readiness.list(readerOf(request), query.business_unit_id) },
    }),
    cancelReadinessRun: async ({ params, request }) => ({
      status: 200,
      body: await readiness.cancel(params.run_id, readerOf(request)),
    }),
  };
}
