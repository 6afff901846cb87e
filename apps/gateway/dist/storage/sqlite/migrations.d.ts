/**
 * Versioned schema migrations, applied in order at start inside one transaction each. Never edit a migration
 * that has shipped: add the next one.
 */
export declare const migrations: {
    version: number;
    name: string;
    sql: string;
}[];
