// The settings that count something (MiB, connections, statements): a whole number within bounds is taken; anything
// else stops the start with a message naming the variable, what it expects and what it was given.
import { describe, expect, it } from "vitest";
import { configFromEnv, storeLocation } from "../src/config.js";

const COUNTED = [
  { name: "LRG_SQLITE_CACHE_MIB", field: "sqliteCacheMib", unit: "MiB", max: 65_536 },
  { name: "LRG_DATABASE_POOL_SIZE", field: "databasePoolSize", unit: "connections", max: 10_000 },
  {
    name: "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS",
    field: "databaseAcknowledgeStatements",
    unit: "statements",
    max: 100,
  },
] as const;

describe.each(COUNTED)("$name", ({ name, field, unit, max }) => {
  it.each(["lots", "0", "1.5", "-8", String(max + 1), " 16", "1e3"])("refuses %j with what it expects", (value) => {
    expect(() => configFromEnv({ [name]: value })).toThrow(
      `${name} must be a whole number of ${unit} from 1 to ${max}, not "${value}"`,
    );
  });

  it("takes 1 and its largest value", () => {
    // (A pool large enough for the most acknowledgement statements, which must stay below it.)
    const pool = { LRG_DATABASE_POOL_SIZE: "10000" };
    expect(configFromEnv({ ...pool, [name]: "1" })[field]).toBe(1);
    expect(configFromEnv({ ...pool, [name]: String(max) })[field]).toBe(max);
  });

  it("leaves it unset when the variable is absent or empty", () => {
    expect(configFromEnv({})[field]).toBeUndefined();
    expect(configFromEnv({ [name]: "" })[field]).toBeUndefined();
  });
});

describe("LRG_DATABASE_ACKNOWLEDGE_STATEMENTS beside LRG_DATABASE_POOL_SIZE", () => {
  it("must stay below the pool (10 unless set), so that reads and writes keep a connection", () => {
    expect(configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "9" }).databaseAcknowledgeStatements).toBe(9);
    expect(() => configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "10" })).toThrow(
      "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS must be below LRG_DATABASE_POOL_SIZE (10), not 10: the statements would hold every connection",
    );
    expect(() => configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "4", LRG_DATABASE_POOL_SIZE: "4" })).toThrow(
      "must be below LRG_DATABASE_POOL_SIZE (4), not 4",
    );
    expect(
      configFromEnv({ LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "12", LRG_DATABASE_POOL_SIZE: "20" })
        .databaseAcknowledgeStatements,
    ).toBe(12);
  });
});

describe("LRG_BLOB_URL", () => {
  const bucket = { LRG_BLOB_URL: "s3://lrg-blobs/sandbox/documents" };

  it("names a bucket reached through AWS in us-east-1 unless told otherwise", () => {
    const config = configFromEnv(bucket);
    expect(config.blobUrl).toBe("s3://lrg-blobs/sandbox/documents");
    expect(config.s3).toEqual({ region: "us-east-1", forcePathStyle: false });
    expect(configFromEnv({}).s3).toBeUndefined();
  });

  it("takes the AWS variables, path-style addressing with an endpoint unless LRG_S3_FORCE_PATH_STYLE says otherwise", () => {
    const aws = {
      ...bucket,
      AWS_ENDPOINT_URL: "http://127.0.0.1:9000",
      AWS_REGION: "eu-west-2",
      AWS_ACCESS_KEY_ID: "key",
      AWS_SECRET_ACCESS_KEY: "secret",
    };
    expect(configFromEnv(aws).s3).toEqual({
      region: "eu-west-2",
      endpoint: "http://127.0.0.1:9000",
      forcePathStyle: true,
      credentials: { accessKeyId: "key", secretAccessKey: "secret" },
    });
    expect(configFromEnv({ ...aws, LRG_S3_FORCE_PATH_STYLE: "0" }).s3?.forcePathStyle).toBe(false);
    expect(configFromEnv({ ...bucket, LRG_S3_FORCE_PATH_STYLE: "1" }).s3?.forcePathStyle).toBe(true);
    expect(configFromEnv({ ...aws, LRG_S3_ENDPOINT: "https://s3.example.test" }).s3?.endpoint).toBe(
      "https://s3.example.test",
    );
  });

  it.each([
    ["with LRG_BLOB_DIR", { ...bucket, LRG_BLOB_DIR: "/mnt/blobs" }, "LRG_BLOB_DIR and LRG_BLOB_URL are both set"],
    ["not s3://", { LRG_BLOB_URL: "https://lrg-blobs/x" }, "LRG_BLOB_URL must be s3://bucket or s3://bucket/prefix"],
    ["an invalid bucket name", { LRG_BLOB_URL: "s3://Lrg_Blobs" }, 'not "s3://Lrg_Blobs"'],
    [
      "an endpoint that is no address",
      { ...bucket, LRG_S3_ENDPOINT: "minio:9000" },
      "LRG_S3_ENDPOINT must be an http://",
    ],
    [
      "a path style that is neither 1 nor 0",
      { ...bucket, LRG_S3_FORCE_PATH_STYLE: "yes" },
      "LRG_S3_FORCE_PATH_STYLE must be 1 or 0",
    ],
    [
      "a key without its secret",
      { ...bucket, AWS_ACCESS_KEY_ID: "key" },
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together",
    ],
    [
      "LRG_S3_ENDPOINT without a bucket",
      { LRG_S3_ENDPOINT: "http://127.0.0.1:9000" },
      "LRG_S3_ENDPOINT is set but LRG_BLOB_URL is not",
    ],
  ])("refuses to start %s", (_name, env, message) => {
    expect(() => configFromEnv(env)).toThrow(message);
  });
});

describe("PORT and LRG_HTTPS_PORT", () => {
  it.each([
    ["unset", {}, { port: 8080, httpsPort: 8443 }],
    ["empty (as unset)", { PORT: "", LRG_HTTPS_PORT: "" }, { port: 8080, httpsPort: 8443 }],
    ["0: any free port", { PORT: "0", LRG_HTTPS_PORT: "0" }, { port: 0, httpsPort: 0 }],
    ["the highest", { PORT: "65535", LRG_HTTPS_PORT: "off" }, { port: 65_535, httpsPort: null }],
  ])("takes %s", (_name, env, want) => {
    const { port, httpsPort } = configFromEnv(env);
    expect({ port, httpsPort }).toEqual(want);
  });

  it.each(["eighty", "-1", "65536", "80.0", " 80", "0x50"])("refuses %j as a port (a StartFailure)", (value) => {
    expect(() => configFromEnv({ PORT: value })).toThrow(
      expect.objectContaining({
        name: "StartFailure",
        message: `PORT must be a port number from 0 to 65535 (0: any free port), not "${value}"`,
      }),
    );
    expect(() => configFromEnv({ LRG_HTTPS_PORT: value })).toThrow(
      `LRG_HTTPS_PORT must be a port number from 0 to 65535, or off, not "${value}"`,
    );
  });
});

describe("LRG_DATABASE_URL", () => {
  it.each(["postgres://lrg:secret@db.internal:5432/lrg", "postgresql://lrg@localhost/lrg", "postgres:///lrg"])(
    "takes %s",
    (url) => {
      expect(configFromEnv({ LRG_DATABASE_URL: url }).databaseUrl).toBe(url);
    },
  );

  it.each(["mysql://lrg:secret@localhost/lrg", "lrg:secret@localhost/lrg", "postgres://lrg:secret@[db/lrg"])(
    "refuses %s, without repeating it",
    (url) => {
      expect(() => configFromEnv({ LRG_DATABASE_URL: url })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining("secret") as unknown }),
      );
      expect(() => configFromEnv({ LRG_DATABASE_URL: url })).toThrow("LRG_DATABASE_URL must be a postgres:// URL");
    },
  );
});

describe("LRG_DECISION_DELAY_MS", () => {
  it("takes 0 (decide at once) up to a day, 2000 when unset", () => {
    expect(configFromEnv({}).decisionDelayMs).toBe(2000);
    expect(configFromEnv({ LRG_DECISION_DELAY_MS: "0" }).decisionDelayMs).toBe(0);
    expect(configFromEnv({ LRG_DECISION_DELAY_MS: "86400000" }).decisionDelayMs).toBe(86_400_000);
    expect(() => configFromEnv({ LRG_DECISION_DELAY_MS: "86400001" })).toThrow(
      'LRG_DECISION_DELAY_MS must be a whole number of milliseconds from 0 to 86400000, not "86400001"',
    );
  });
});

describe("storeLocation, the banner's word on where the data is", () => {
  const from = "/srv/lrg/apps/gateway";
  it.each([
    ["npm start's default, read from where it started", { given: {}, want: "data in /srv/lrg/apps/gateway/.data" }],
    ["an absolute data directory", { given: { LRG_DATA_DIR: "/var/lib/lrg" }, want: "data in /var/lib/lrg" }],
    [
      "documents in a directory of their own",
      {
        given: { LRG_BLOB_DIR: "../blobs" },
        want: "data in /srv/lrg/apps/gateway/.data, documents in /srv/lrg/apps/blobs",
      },
    ],
    [
      "documents in a bucket",
      {
        given: { LRG_BLOB_URL: "s3://lrg-documents/sandbox" },
        want: "data in /srv/lrg/apps/gateway/.data, documents in s3://lrg-documents/sandbox",
      },
    ],
    [
      "PostgreSQL, its password never shown",
      {
        given: {
          LRG_DATABASE_URL: "postgres://lrg:secret@db.internal:5432/lrg",
          LRG_BLOB_DIR: "/mnt/shared/lrg-blobs",
        },
        want: "data in PostgreSQL db.internal:5432/lrg, documents in /mnt/shared/lrg-blobs",
      },
    ],
    [
      "PostgreSQL without a host in the URL (a socket named by the environment)",
      {
        given: { LRG_DATABASE_URL: "postgres:///lrg" },
        want: "data in PostgreSQL (LRG_DATABASE_URL), documents in /srv/lrg/apps/gateway/.data/blobs",
      },
    ],
  ])("%s", (_name, { given, want }) => {
    expect(storeLocation(configFromEnv(given), from)).toBe(want);
  });
});
