// One contract for every blob store: the directory store, and the S3 store against a real S3-compatible service
// (s3rver, in this process). What a caller may rely on: whole blobs or none under an address, whatever fails.
import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { mkdtemp, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { buffer } from "node:stream/consumers";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addressOf, BlobNotFoundError, type BlobStore } from "../src/storage/blobs/blob-store.js";
import { DirectoryBlobStore } from "../src/storage/blobs/directory-blob-store.js";
import { openBlobStore } from "../src/storage/blobs/open-blob-store.js";
import { startTestBucket, type TestBucket } from "./support/s3.js";

/** A store under test, with what the test may look at behind its back. */
interface Subject {
  store: BlobStore;
  /** Everything stored under any address (file paths or object keys). */
  stored(): Promise<string[]>;
  /** The directory of the writes in progress, where leftovers of a crash are. */
  incomingDirectory: string;
}

/** Every file below `directory`, as paths relative to it, except under `incoming`. */
const filesBelow = (directory: string, root = directory): string[] =>
  readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === "incoming" ? [] : filesBelow(path, root);
    return [relative(root, path)];
  });

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(async () => {
  await bucket.stop();
});

const SUBJECTS: [string, (dataDir: string) => Promise<Subject>][] = [
  [
    "the directory store",
    async (dataDir) => ({
      store: new DirectoryBlobStore(dataDir),
      stored: async () => filesBelow(join(dataDir, "blobs")),
      incomingDirectory: join(dataDir, "blobs", "incoming"),
    }),
  ],
  [
    "the S3 store",
    async (dataDir) => {
      // Each test its own bucket, and `stored` lists all of it: nothing may land beside the prefix either.
      const name = `test-${randomBytes(4).toString("hex")}`;
      await bucket.create(name);
      const store = await openBlobStore({ dataDir, blobUrl: `s3://${name}/some/prefix`, s3: bucket.s3 });
      return {
        store,
        stored: () => bucket.keys(name),
        incomingDirectory: join(dataDir, "blobs", "incoming"),
      };
    },
  ],
];

/** A source that sends `bytes`, then fails half way through the rest. */
function failingSource(bytes: Buffer): Readable {
  return Readable.from(
    (async function* () {
      yield bytes.subarray(0, bytes.length / 2);
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error("the connection was reset");
    })(),
  );
}

/** Writes `bytes` as a streamed upload does, and keeps them under their address. */
async function writeStreamed(store: BlobStore, bytes: Buffer): Promise<void> {
  const incoming = store.incoming();
  try {
    await pipeline(Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]), incoming.stream);
    await incoming.keep(addressOf(bytes));
  } finally {
    await incoming.discard();
  }
}

const readAll = async (store: BlobStore, address: string) => buffer(await store.read(address));

describe.each(SUBJECTS)("%s", (_name, open) => {
  let dataDir: string;
  let subject: Subject;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "lrg-blobs-"));
    subject = await open(dataDir);
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps bytes put in memory under their SHA-256, once, and reads them back", async () => {
    const bytes = randomBytes(3000);
    const address = await subject.store.put(bytes);
    expect(address).toBe(addressOf(bytes));
    expect(await subject.store.has(address)).toBe(true);
    expect(await subject.store.has(addressOf(Buffer.from("other bytes")))).toBe(false);
    expect((await readAll(subject.store, address)).equals(bytes)).toBe(true);
    expect(await subject.store.put(bytes)).toBe(address);
    expect(await subject.stored()).toEqual([expect.stringContaining(`${address.slice(0, 2)}/${address}`)]);
  });

  it("keeps a streamed write under the address given, readable whole, with nothing left in progress", async () => {
    const bytes = randomBytes(200_000);
    await writeStreamed(subject.store, bytes);
    expect(await subject.store.has(addressOf(bytes))).toBe(true);
    expect((await readAll(subject.store, addressOf(bytes))).equals(bytes)).toBe(true);
    expect(readdirSync(subject.incomingDirectory)).toEqual([]);
  });

  it("keeps nothing of a streamed write whose source fails half way", async () => {
    const bytes = randomBytes(4096);
    const incoming = subject.store.incoming();
    await expect(pipeline(failingSource(bytes), incoming.stream)).rejects.toThrow("the connection was reset");
    // Kept by mistake, it would be a partial blob under an address: refused.
    await expect(incoming.keep(addressOf(bytes))).rejects.toThrow("only once all of its bytes were written");
    await incoming.discard();
    expect(await subject.stored()).toEqual([]);
    for (const address of [addressOf(bytes), addressOf(bytes.subarray(0, bytes.length / 2))]) {
      expect(await subject.store.has(address)).toBe(false);
      await expect(subject.store.read(address)).rejects.toBeInstanceOf(BlobNotFoundError);
    }
    expect(readdirSync(subject.incomingDirectory)).toEqual([]);
  });

  it("refuses to keep a write whose stream has not ended", async () => {
    const bytes = randomBytes(1000);
    const incoming = subject.store.incoming();
    await new Promise((resolve) => incoming.stream.write(bytes.subarray(0, 500), resolve));
    await expect(incoming.keep(addressOf(bytes))).rejects.toThrow("only once all of its bytes were written");
    await incoming.discard();
    expect(await subject.stored()).toEqual([]);
  });

  it("takes concurrent writes of the same bytes, streamed and in memory, and keeps one whole blob", async () => {
    const bytes = randomBytes(64 * 1024);
    const address = addressOf(bytes);
    await Promise.all([
      ...Array.from({ length: 4 }, () => writeStreamed(subject.store, bytes)),
      ...Array.from({ length: 4 }, () => subject.store.put(bytes)),
    ]);
    expect(await subject.stored()).toHaveLength(1);
    expect((await readAll(subject.store, address)).equals(bytes)).toBe(true);
    expect(readdirSync(subject.incomingDirectory)).toEqual([]);
  });

  it("sweeps the leftovers of writes never kept: all of them, or only those untouched for the time given", async () => {
    const kept = await subject.store.put(randomBytes(100));
    const leftover = async () => {
      const incoming = subject.store.incoming(); // neither kept nor discarded: as a crash leaves it
      await pipeline(Readable.from([randomBytes(100)]), incoming.stream);
    };
    await leftover();
    await leftover();
    const [old, recent] = readdirSync(subject.incomingDirectory);
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    await utimes(join(subject.incomingDirectory, String(old)), hourAgo, hourAgo);
    await subject.store.sweepIncoming(10 * 60_000);
    expect(readdirSync(subject.incomingDirectory)).toEqual([recent]);
    await subject.store.sweepIncoming();
    expect(readdirSync(subject.incomingDirectory)).toEqual([]);
    expect(await subject.store.has(kept)).toBe(true);
    expect(await subject.stored()).toHaveLength(1);
  });

  it("fails clearly when asked for a blob it does not have", async () => {
    const missing = addressOf(Buffer.from("never stored"));
    await subject.store.put(Buffer.from("something else"));
    const reading = subject.store.read(missing);
    await expect(reading).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(reading).rejects.toThrow(`no blob ${missing} in the blob store`);
  });

  it("takes only content addresses", async () => {
    for (const address of ["../../etc/passwd", "A".repeat(64), "ab"]) {
      await expect(subject.store.read(address)).rejects.toThrow("not a blob address");
      await expect(subject.store.has(address)).rejects.toThrow("not a blob address");
    }
  });
});
