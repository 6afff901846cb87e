import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3Options } from "../../src/storage/blobs/bucket.js";

/** An S3-compatible service (s3rver) in this process, on a free port, over a temporary directory. */
export interface TestBucket {
  bucket: string;
  /** How the gateway reaches it (path style, s3rver's fixed credentials). */
  s3: S3Options;
  /** Creates another bucket. */
  create(bucket: string): Promise<void>;
  /** Deletes a bucket and every object in it, as an operator's mistake would. */
  remove(bucket: string): Promise<void>;
  /** Every key in the bucket (default `bucket`), whatever its prefix. */
  keys(bucket?: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts s3rver and creates `bucket` in it through the S3 API, as an operator would. */
export async function startTestBucket(bucket = "lrg-test-blobs"): Promise<TestBucket> {
  const directory = await mkdtemp(join(tmpdir(), "lrg-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
  const { port } = await server.run();
  const s3: S3Options = {
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    // s3rver checks signatures made with these.
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  };
  const client = new S3Client({ ...s3, requestChecksumCalculation: "WHEN_REQUIRED" });
  const create = async (name: string) => {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  };
  await create(bucket);
  const keys = async (name = bucket) => {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: name }));
    return (listed.Contents ?? []).map((object) => object.Key ?? "").sort();
  };
  return {
    bucket,
    s3,
    create,
    remove: async (name) => {
      for (const key of await keys(name)) await client.send(new DeleteObjectCommand({ Bucket: name, Key: key }));
      await client.send(new DeleteBucketCommand({ Bucket: name }));
    },
    keys,
    stop: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
