/**
 * The sandbox's business units: each with its users, its control-plane token and its own clock and settings; a unit's
 * reset. Used by the control plane, authentication and the sandbox state.
 */
export interface BusinessUnitStore {
  createBusinessUnit(unit: BusinessUnitRow, user: UserRow): Promise<void>;
  findBusinessUnit(id: string): Promise<BusinessUnitRow | undefined>;
  findUser(username: string): Promise<UserRow | undefined>;
  setPasswordHash(username: string, passwordHash: string): Promise<void>;
  /** The business unit whose sandbox token has this hash (SHA-256, hex), if any. */
  findBusinessUnitByTokenHash(tokenHash: string): Promise<BusinessUnitRow | undefined>;
  /**
   * Replaces a business unit's sandbox token hash (the old token stops working at once, on every instance: tokens are
   * looked up in the store on each request); false when there is no such unit.
   */
  setTokenHash(businessUnitId: string, tokenHash: string): Promise<boolean>;
  /** The own clock offset and settings of every business unit that set either (see `UnitSandboxState`). */
  unitSandboxStates(): Promise<UnitSandboxState[]>;
  /** Records a unit's own clock offset and settings (null: it follows the global one). Announced as a state change. */
  putUnitSandboxState(state: UnitSandboxState): Promise<void>;
  /**
   * Deletes one business unit's applications (their correspondence, attachments, idempotency keys), documents,
   * generated documents, notifications and official searches, the settings whose key matches one of `settingKeysLike`
   * (SQL LIKE patterns: the unit's rate-limit buckets), and its own clock and settings; the unit, its users and its
   * token stay.
   */
  resetBusinessUnit(businessUnitId: string, settingKeysLike: string[]): Promise<void>;
}

export interface BusinessUnitRow {
  id: string;
  name: string;
  createdMs: number;
  /** SHA-256 (hex) of the unit's sandbox token; null for a unit created before unit tokens (rotate to get one). */
  tokenHash?: string | null;
}

/** What a business unit set for itself on the control plane with its token; null where it follows the global one. */
export interface UnitSandboxState {
  businessUnitId: string;
  clockOffsetMs: number | null;
  /** The settings the unit set (a subset of SandboxSettings). */
  settings: Record<string, unknown> | null;
}

export interface UserRow {
  username: string;
  businessUnitId: string;
  passwordHash: string;
  createdMs: number;
}
