import type { FastifyReply, FastifyRequest } from "fastify";
import type { Operation } from "@lrg/spec";
import { isoMillis } from "../clock.js";
import { errorOfAnswer } from "../problems.js";
import type { SandboxComponents } from "../operation-types.js";
import { controlActorOf, type ControlActor } from "../auth/control-actor.js";
import type { AuditEntryRow, AuditStore } from "../storage/ports/audit.js";
import { summariseRequestBody } from "./request-summary.js";
import { auditScope } from "./scope.js";

/** One entry of the audit trail as the control plane answers it and the structured log writes it. */
export type AuditEntry = SandboxComponents["schemas"]["SandboxAuditEntry"];

/**
 * The newest entries kept for each actor (the admin, each business unit, the unknown), as listAuditEntries'
 * description states: a count per actor bounds the trail, and no actor's traffic pushes another's entries out.
 */
export const AUDIT_ENTRIES_KEPT_PER_ACTOR = 10_000;

/** Longest path kept (SandboxAuditEntry `path` maxLength): a path parameter may be as long as a request line. */
const MAX_PATH = 2048;

/**
 * Whether an answer goes into the trail: every attempt at a change (any method but GET), whatever its outcome,
 * and any request refused for its credentials. Other reads change nothing and are left out.
 */
export function isAudited(method: string, status: number): boolean {
  return method !== "GET" || status === 401;
}

/** The problem code of an error answer (its serialized problem+json), or null. */
function problemCodeOf(status: number, payload: unknown): string | null {
  const { code } = errorOfAnswer(status, payload);
  return code !== null && /^[0-9]{3}-[0-9]{2}$/.test(code) ? code : null;
}

/** The audit trail of the sandbox control plane: records each action as it is answered, and lists them. */
export class AuditTrail {
  readonly #storage: AuditStore;
  readonly #clockMs: (businessUnitId: string | undefined) => number;

  /** `clockMs` reads the sandbox clock of a business unit (undefined: the gateway's own). */
  constructor(storage: AuditStore, clockMs: (businessUnitId: string | undefined) => number) {
    this.#storage = storage;
    this.#clockMs = clockMs;
  }

  /**
   * Records the answer to a control-plane request, before it is sent, in the store and as one line of the
   * structured log. A failure to record is logged; the answer goes out all the same (the action has happened).
   */
  async record(operation: Operation, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    if (!isAudited(operation.method, reply.statusCode)) return;
    const actor = controlActorOf(request);
    const unit = actor?.kind === "unit" ? actor.businessUnitId : undefined;
    const path = request.url.split("?")[0] ?? request.url;
    const row: Omit<AuditEntryRow, "sequence"> = {
      recordedMs: Date.now(),
      clockMs: this.#clockMs(unit),
      actorKind: actor?.kind ?? "unknown",
      actorUnit: unit ?? "",
      operationId: operation.operationId,
      method: operation.method,
      path: path.length > MAX_PATH ? `${path.slice(0, MAX_PATH - 1)}…` : path,
      requestBody: summariseRequestBody(request.body),
      status: reply.statusCode,
      problemCode: problemCodeOf(reply.statusCode, payload),
      requestId: String(request.id),
    };
    try {
      const sequence = await this.#storage.appendAuditEntry(row, AUDIT_ENTRIES_KEPT_PER_ACTOR);
      request.log.info({ audit: toAuditEntry({ ...row, sequence }) }, "control-plane action");
    } catch (error) {
      request.log.error(
        { err: error, audit: toAuditEntry({ ...row, sequence: 0 }) },
        "recording an audit entry failed",
      );
    }
  }

  /** The entries `reader` may see that match the query, oldest first. */
  async list(
    reader: ControlActor,
    query: {
      after?: number;
      limit: number;
      operationId?: string;
      actor?: AuditEntryRow["actorKind"];
      businessUnitId?: string;
      recordedAfterMs?: number;
    },
  ): Promise<AuditEntry[]> {
    const scope = auditScope(reader, { actor: query.actor, businessUnitId: query.businessUnitId });
    if (!scope) return [];
    const rows = await this.#storage.listAuditEntries({
      ...scope,
      limit: query.limit,
      ...(query.after !== undefined ? { afterSequence: query.after } : {}),
      ...(query.operationId !== undefined ? { operationId: query.operationId } : {}),
      ...(query.recordedAfterMs !== undefined ? { recordedAfterMs: query.recordedAfterMs } : {}),
    });
    return rows.map(toAuditEntry);
  }
}

/** A stored entry in the spec's shape (SandboxAuditEntry). */
export function toAuditEntry(row: AuditEntryRow): AuditEntry {
  return {
    sequence: row.sequence,
    recorded_at: isoMillis(row.recordedMs),
    sandbox_clock_at: isoMillis(row.clockMs),
    actor: { kind: row.actorKind, business_unit_id: row.actorKind === "unit" ? row.actorUnit : null },
    operation_id: row.operationId,
    method: row.method as AuditEntry["method"],
    path: row.path,
    request_body: row.requestBody,
    status: row.status,
    problem_code: row.problemCode,
    request_id: row.requestId,
  };
}
