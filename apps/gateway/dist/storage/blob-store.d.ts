import { type ReadStream } from "node:fs";
/**
 * Content-addressed files: a blob's name is the lower-case hex SHA-256 of its bytes. Writes go to a temporary
 * file that is flushed and renamed into place, so a crash never leaves a half-written blob under its name.
 */
export declare class BlobStore {
    #private;
    constructor(dataDir: string);
    pathOf(sha256Hex: string): string;
    /** A fresh temporary path for a blob being written. */
    incomingPath(): string;
    /** Moves a fully written, flushed temporary file under its content address. */
    commit(temporaryPath: string, sha256Hex: string): Promise<string>;
    /** Stores bytes held in memory (small generated documents); answers their SHA-256 hex. */
    put(bytes: Buffer): Promise<string>;
    has(sha256Hex: string): Promise<boolean>;
    read(sha256Hex: string): ReadStream;
    /** Removes leftovers of writes that never completed (at start, after a crash). */
    sweepIncoming(): Promise<void>;
}
