import { AUDIT_PAGE_SIZE } from "@lrg/spec";
import { requestInstant } from "../date-time.js";
import type { SandboxOperations } from "../operation-types.js";
import type { HandlersOf } from "../routing.js";
import { controlActorOf } from "../auth/control-actor.js";
import type { AuditTrail } from "./trail.js";

/** The handler of the audit trail's reader (listAuditEntries in spec/sandbox.yaml). */
export function auditHandlers(trail: AuditTrail): HandlersOf<SandboxOperations, "listAuditEntries"> {
  return {
    listAuditEntries: async ({ query, request }) => {
      // The registrar sets the actor once the token is checked, before any handler runs.
      const reader = controlActorOf(request);
      if (!reader) throw new Error("listAuditEntries ran before its bearer token was checked");
      const recordedAfterMs =
        query.recorded_after === undefined ? undefined : requestInstant(query.recorded_after, "/query/recorded_after");
      const entries = await trail.list(reader, {
        limit: query.limit ?? AUDIT_PAGE_SIZE,
        ...(query.after !== undefined ? { after: query.after } : {}),
        ...(query.operation_id !== undefined ? { operationId: query.operation_id } : {}),
        ...(query.actor !== undefined ? { actor: query.actor } : {}),
        ...(query.business_unit_id !== undefined ? { businessUnitId: query.business_unit_id } : {}),
        ...(recordedAfterMs !== undefined ? { recordedAfterMs } : {}),
      });
      return { status: 200, body: { data: entries } };
    },
  };
}
