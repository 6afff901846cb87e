import type { SandboxComponents } from "../operation-types.js";
import type { ControlActor } from "../auth/control-actor.js";

type ActorKind = SandboxComponents["schemas"]["SandboxAuditActorKind"];

/** The filters of the audit trail that say whose entries to list. */
export interface ActorFilter {
  actorKind?: ActorKind;
  actorUnit?: string;
}

/**
 * Whose entries a reader of the audit trail gets: the admin, every entry the filters asked for; a business unit,
 * only its own actions, whatever it asked. Answers undefined when what was asked lies outside the reader's scope
 * (another unit's entries, the admin's), so that nothing is listed.
 */
export function auditScope(
  reader: ControlActor,
  asked: { actor?: ActorKind | undefined; businessUnitId?: string | undefined },
): ActorFilter | undefined {
  // Business unit ids are written in lower case; a UUID given in upper case names the same unit.
  const unit = asked.businessUnitId?.toLowerCase();
  if (reader.kind === "admin") {
    return {
      ...(asked.actor !== undefined ? { actorKind: asked.actor } : {}),
      ...(unit !== undefined ? { actorUnit: unit } : {}),
    };
  }
  if (asked.actor !== undefined && asked.actor !== "unit") return undefined;
  if (unit !== undefined && unit !== reader.businessUnitId.toLowerCase()) return undefined;
  return { actorKind: "unit", actorUnit: reader.businessUnitId };
}
