import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";

/** The outcome of a document's checks: accepted with its sniffed type, or rejected with the reason. */
export type FileCheck = { accepted: true; type: "PDF" | "TIFF" | "GIF" | "PNG" } | { accepted: false; reason: string };

const SIGNATURES: [FileCheck & { accepted: true }, number[]][] = [
  [{ accepted: true, type: "PDF" }, [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  [{ accepted: true, type: "PNG" }, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  [{ accepted: true, type: "GIF" }, [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]], // GIF87a
  [{ accepted: true, type: "GIF" }, [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]], // GIF89a
  [{ accepted: true, type: "TIFF" }, [0x49, 0x49, 0x2a, 0x00]], // little-endian
  [{ accepted: true, type: "TIFF" }, [0x4d, 0x4d, 0x00, 0x2a]], // big-endian
];

/** Whether a file contains `needle`, read in small chunks (never whole in memory, no copies of the chunks). */
async function contains(path: string, needle: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
    const bytes = chunk as Buffer;
    // A match across the boundary: the previous chunk's last bytes followed by this chunk's first ones.
    if (tail.length > 0 && Buffer.concat([tail, bytes.subarray(0, needle.length - 1)]).includes(needle)) return true;
    if (bytes.includes(needle)) return true;
    tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - needle.length + 1)));
  }
  return false;
}

/**
 * Sniffs a document's type from its bytes, as the registry's checks do: PDF (not password protected), TIFF, GIF
 * and PNG are accepted; anything else, and an encrypted PDF, is rejected with a reason.
 */
export async function checkFile(path: string): Promise<FileCheck> {
  const handle = await open(path, "r");
  const head = Buffer.alloc(8);
  try {
    await handle.read(head, 0, 8, 0);
  } finally {
    await handle.close();
  }
  const match = SIGNATURES.find(([, bytes]) => bytes.every((byte, index) => head[index] === byte));
  if (!match) return { accepted: false, reason: "unsupported file type: only PDF, TIFF, GIF and PNG are accepted" };
  if (match[0].type === "PDF" && (await contains(path, Buffer.from("/Encrypt")))) {
    return { accepted: false, reason: "the PDF is password protected" };
  }
  return match[0];
}
