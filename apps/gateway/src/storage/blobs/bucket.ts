// What names a bucket and how to reach it, apart from the S3 client, so that reading the configuration does not load
// the AWS SDK (which only a gateway with `LRG_BLOB_URL` needs).

/** Where the blobs are in a bucket: `s3://bucket` or `s3://bucket/prefix`. */
export interface BucketAddress {
  bucket: string;
  /** Put before each key: empty, or ending with `/`. */
  keyPrefix: string;
}

/** How to reach the bucket. Without `credentials`, the AWS SDK's own chain finds them (profile, instance role...). */
export interface S3Options {
  region: string;
  /** An S3-compatible service's address (MinIO, Ceph, s3rver...); absent: AWS's own. */
  endpoint?: string;
  /** `bucket` in the path rather than in the host name, as most S3-compatible services want. */
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /**
   * The longest a connection to the service may take to open, and a call may go without a byte either way (an idle
   * bound, so a large upload that keeps moving is never cut; `LRG_BLOB_TIMEOUT_MS`, default `DEFAULT_BLOB_TIMEOUT_MS`).
   */
  timeoutMs?: number;
}

/** The object store's calls' default bound: 10 s, as the gateway's own body timeout. */
export const DEFAULT_BLOB_TIMEOUT_MS = 10_000;

/** Reads `s3://bucket/optional/prefix`; answers undefined for anything else. */
export function parseBucketUrl(url: string): BucketAddress | undefined {
  const match = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(url);
  // S3's rules for bucket names: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end.
  if (!match?.[1] || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(match[1])) return undefined;
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  return { bucket: match[1], keyPrefix: prefix ? `${prefix}/` : "" };
}
