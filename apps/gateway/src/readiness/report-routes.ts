import { sealEvidence } from "@lrg/spec/evidence";
import type { SandboxOperations } from "../operation-types.js";
import type { HandlersOf } from "../routing.js";
import { htmlReport } from "./reports/html.js";
import { junitReport } from "./reports/junit.js";
import { readerOf } from "./routes.js";
import type { ReadinessService } from "./service.js";

/** The reports and the evidence bundle of a readiness run (spec/paths/sandbox/readiness-run-{junit,html,evidence}.yaml). */
export type ReadinessReportOperation = "getReadinessRunJunit" | "getReadinessRunHtml" | "getReadinessRunEvidence";

/**
 * Handlers of a run's reports: the run read as `getReadinessRun` reads it (same scope), rendered; and its evidence
 * bundle, the run with every observation, sealed with the SHA-256 the spec defines (`ReadinessEvidence`).
 */
export function readinessReportHandlers(
  readiness: ReadinessService,
): HandlersOf<SandboxOperations, ReadinessReportOperation> {
  return {
    getReadinessRunJunit: async ({ params, request }) => ({
      status: 200,
      headers: { "content-type": "application/xml; charset=utf-8" },
      body: junitReport(await readiness.get(params.run_id, readerOf(request))),
    }),
    getReadinessRunHtml: async ({ params, request }) => ({
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: htmlReport(await readiness.get(params.run_id, readerOf(request))),
    }),
    getReadinessRunEvidence: async ({ params, request }) => ({
      status: 200,
      body: sealEvidence(await readiness.evidence(params.run_id, readerOf(request))),
    }),
  };
}
