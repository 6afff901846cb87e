// Test documents on disk and the `sha256sum` baseline that the hashing figures are compared with.
import { spawn } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

/** Writes a document of `bytes` bytes: a PDF header, then random bytes (nothing compresses or repeats). */
export function writeDocument(path: string, bytes: number): string {
  const fd = openSync(path, "w");
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let written = 0;
    while (written < bytes) {
      randomFillSync(chunk);
      if (written === 0) Buffer.from("%PDF-1.7\n").copy(chunk);
      const size = Math.min(chunk.length, bytes - written);
      writeSync(fd, chunk, 0, size);
      written += size;
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Seconds `sha256sum` takes over the file, process start included (about a millisecond). */
export function sha256sumSeconds(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("sha256sum", [path], { stdio: ["ignore", "ignore", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`sha256sum exited with ${String(code)}`)),
    );
  });
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Megabytes (10^6 bytes) per second. */
export const mbPerSecond = (bytes: number, seconds: number) => bytes / 1e6 / seconds;
