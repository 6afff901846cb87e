import { join } from "node:path";
import { StartFailure, type GatewayConfig } from "../../config.js";
import type { BlobStore } from "./blob-store.js";
import { DirectoryBlobStore } from "./directory-blob-store.js";
import { parseBucketUrl } from "./bucket.js";

/**
 * The blob store the configuration names: a bucket for `blobUrl` (`s3://bucket/prefix`), otherwise the directory
 * `blobDir` (default `dataDir`/blobs). Both at once is refused: one of them would silently go unused. A bucket is
 * written once before it is answered: a wrong bucket, endpoint or credentials stops the start with one line naming
 * the variables to check, rather than a gateway that says it is ready and answers every upload 503-02.
 */
export async function openBlobStore(
  config: Pick<GatewayConfig, "dataDir" | "blobDir" | "blobUrl" | "s3">,
): Promise<BlobStore> {
  if (config.blobUrl === undefined) return new DirectoryBlobStore(config.dataDir, config.blobDir);
  if (config.blobDir !== undefined)
    throw new Error("a blob directory and a blob bucket were both given (LRG_BLOB_DIR, LRG_BLOB_URL): choose one");
  const address = parseBucketUrl(config.blobUrl);
  if (!address) throw new Error(`the blob bucket must be s3://bucket or s3://bucket/prefix, not "${config.blobUrl}"`);
  // Loaded only here: the AWS SDK is large, and a gateway on a directory never needs it.
  // The SDK warns on Node.js 20 that its releases from 2027 will need 22: the gateway pins its release (the lockfile), so
  // the warning tells an operator nothing to do, and would break the start's one line. An operator may still set it.
  process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true";
  const { S3BlobStore } = await import("./s3-blob-store.js");
  const store = new S3BlobStore(
    address,
    config.s3 ?? { region: "us-east-1", forcePathStyle: false },
    // Uploads in progress stay on this machine, where the directory store would keep them too.
    join(config.dataDir, "blobs", "incoming"),
  );
  const health = await store.probe();
  if (!health.writable)
    throw new StartFailure(
      `LRG_BLOB_URL ${config.blobUrl}: ${health.reachable ? "the bucket refused a write" : "the object store could not be reached"} ` +
        `(${health.problem ?? "no answer"}); check LRG_BLOB_URL, AWS_ENDPOINT_URL (or LRG_S3_ENDPOINT) and the credentials ` +
        "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)",
    );
  return store;
}
