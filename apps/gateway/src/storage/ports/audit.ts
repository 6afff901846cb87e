/** The control plane's audit trail (see `audit/`). */
export interface AuditStore {
  /**
   * Appends an entry to the control plane's audit trail and deletes that actor's entries beyond its newest
   * `keepPerActor` (retention); answers the entry's sequence number.
   */
  appendAuditEntry(entry: Omit<AuditEntryRow, "sequence">, keepPerActor: number): Promise<number>;
  /** Audit entries that match, oldest first (by sequence). */
  listAuditEntries(query: AuditQuery): Promise<AuditEntryRow[]>;
}

/** One control-plane request as the audit trail keeps it (see `audit/`). */
export interface AuditEntryRow {
  sequence: number;
  recordedMs: number;
  /** The acting unit's sandbox clock (the gateway's clock for the admin and the unknown). */
  clockMs: number;
  actorKind: "admin" | "unit" | "unknown";
  /** The acting business unit; "" unless `actorKind` is `unit` (a plain value, so that equality works alike in both stores). */
  actorUnit: string;
  operationId: string;
  method: string;
  path: string;
  /** The redacted summary of the JSON body sent, or null. */
  requestBody: Record<string, unknown> | null;
  status: number;
  problemCode: string | null;
  requestId: string;
}

/** Which audit entries to list; every filter given must hold. */
export interface AuditQuery {
  afterSequence?: number;
  actorKind?: AuditEntryRow["actorKind"];
  actorUnit?: string;
  operationId?: string;
  recordedAfterMs?: number;
  limit: number;
}
