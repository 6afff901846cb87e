import type { ApplicationChange, ApplicationRow, BusinessUnitRow, CorrespondenceRow, DocumentRow, NotificationQuery, NotificationRow, RegistryDocumentRow, Storage, SubmitOutcome, UserRow } from "../storage.js";
/**
 * The embedded store: one SQLite file in the data directory, in WAL mode with foreign keys on and
 * `synchronous = FULL`, so that a committed change survives a crash of the process or the machine.
 */
export declare class SqliteStorage implements Storage {
    #private;
    constructor(dataDir: string);
    /** The schema versions applied to this database. */
    appliedMigrations(): number[];
    createBusinessUnit(unit: BusinessUnitRow, user: UserRow): Promise<void>;
    findUser(username: string): Promise<UserRow | undefined>;
    submitApplication(application: ApplicationRow, idempotency: {
        key: string;
        requestHash: string;
    }): Promise<SubmitOutcome>;
    findApplication(id: string, businessUnitId?: string): Promise<ApplicationRow | undefined>;
    applicationsDue(nowMs: number, limit: number): Promise<ApplicationRow[]>;
    applicationsWithStatus(status: string): Promise<ApplicationRow[]>;
    changeApplication(change: ApplicationChange): Promise<boolean>;
    correspondenceOf(applicationId: string): Promise<CorrespondenceRow[]>;
    listNotifications(query: NotificationQuery): Promise<NotificationRow[]>;
    acknowledgeNotifications(businessUnitId: string, ids: string[], nowMs: number): Promise<string[]>;
    purgeNotifications(createdBeforeMs: number): Promise<number>;
    findDocument(id: string, businessUnitId?: string): Promise<DocumentRow | undefined>;
    putRegistryDocument(document: RegistryDocumentRow): Promise<void>;
    findRegistryDocument(downloadId: string): Promise<RegistryDocumentRow | undefined>;
    getSetting<T>(key: string): Promise<T | undefined>;
    putSetting(key: string, value: unknown): Promise<void>;
    reset(): Promise<void>;
    ping(): Promise<boolean>;
    close(): Promise<void>;
    /** `PRAGMA integrity_check`, for the crash-recovery tests. */
    integrityCheck(): string;
}
