/** Connections one instance opens to PostgreSQL unless told otherwise (`LRG_DATABASE_POOL_SIZE`). */
export const DEFAULT_POOL_SIZE = 10;

/**
 * Acknowledgement statements one instance runs at once unless told otherwise (`LRG_DATABASE_ACKNOWLEDGE_STATEMENTS`):
 * on the 2-core benchmark machine one instance acknowledged 1,110/s at p99 56 ms with 2, 787/s at p99 69 ms with 1
 * (100 ids each, 32 connections).
 */
export const DEFAULT_ACKNOWLEDGE_STATEMENTS = 2;

/** How long a new connection may take: a request then waits no longer before it is answered 503-02, a start fails. */
export const CONNECT_TIMEOUT_MS = 5_000;
