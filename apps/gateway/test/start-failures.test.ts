// What an operator sees when a start cannot go on: one line on stderr naming the variable (or the file) and what to
// do, a non-zero exit and no stack trace, as for a busy port (start-and-log.test.ts). Each case starts the built
// gateway as its own process over a temporary data directory.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGatewayToExit, type RunAs } from "./support/process.js";
import { startTestBucket } from "./support/s3.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lrg-start-failure-"));
  dirs.push(dir);
  return dir;
};

/** Starts the gateway with `env` and expects it to stop at once: the one line it printed on stderr. */
async function refusedStart(env: Record<string, string>, dataDir = newDir(), as?: RunAs): Promise<string> {
  const { code, stdout, stderr } = await runGatewayToExit(dataDir, env, as);
  expect(code, stderr).not.toBe(0);
  expect(code, stderr).not.toBeNull();
  expect(stdout).not.toContain("listening on");
  expect(stderr).not.toMatch(/^\s+at /m);
  const lines = stderr.trimEnd().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^lrg-gateway: /);
  return lines[0]!;
}

/** Whether any user may run the program at `path`: it and every directory above it are executable by others. */
function othersMayRun(path: string): boolean {
  for (let at = path; ; at = dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0) return false;
    if (dirname(at) === at) return true;
  }
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a setting out of its range stops the start with one line naming it", () => {
  const day = 86_400_000;
  it.each([
    ["PORT", "eighty", 'PORT must be a port number from 0 to 65535 (0: any free port), not "eighty"'],
    ["PORT", "65536", 'PORT must be a port number from 0 to 65535 (0: any free port), not "65536"'],
    ["LRG_HTTPS_PORT", "99999", 'LRG_HTTPS_PORT must be a port number from 0 to 65535, or off, not "99999"'],
    ["LRG_HTTPS_PORT", "on", 'LRG_HTTPS_PORT must be a port number from 0 to 65535, or off, not "on"'],
    [
      "LRG_DATABASE_POOL_SIZE",
      "lots",
      'LRG_DATABASE_POOL_SIZE must be a whole number of connections from 1 to 10000, not "lots"',
    ],
    [
      "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS",
      "0",
      'LRG_DATABASE_ACKNOWLEDGE_STATEMENTS must be a whole number of statements from 1 to 100, not "0"',
    ],
    [
      "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS",
      "10",
      "LRG_DATABASE_ACKNOWLEDGE_STATEMENTS must be below LRG_DATABASE_POOL_SIZE (10), not 10: the statements would hold every connection",
    ],
    [
      "LRG_SQLITE_CACHE_MIB",
      "65537",
      'LRG_SQLITE_CACHE_MIB must be a whole number of MiB from 1 to 65536, not "65537"',
    ],
    [
      "LRG_HEADERS_TIMEOUT_MS",
      "-1",
      `LRG_HEADERS_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${day}, not "-1"`,
    ],
    [
      "LRG_BODY_TIMEOUT_MS",
      "1.5",
      `LRG_BODY_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${day}, not "1.5"`,
    ],
    [
      "LRG_REQUEST_TIMEOUT_MS",
      "86400001",
      `LRG_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${day}, not "86400001"`,
    ],
    [
      "LRG_MAX_CONNECTIONS",
      "0",
      'LRG_MAX_CONNECTIONS must be a whole number of connections from 1 to 1000000, not "0"',
    ],
    [
      "LRG_DECISION_DELAY_MS",
      "soon",
      `LRG_DECISION_DELAY_MS must be a whole number of milliseconds from 0 to ${day}, not "soon"`,
    ],
    ["LRG_LOG", "loud", 'LRG_LOG must be off, json or human (or unset), not "loud"'],
  ])("%s=%s", async (name, value, message) => {
    expect(await refusedStart({ [name]: value })).toBe(`lrg-gateway: ${message}`);
  });
});

describe("LRG_DATABASE_URL", () => {
  it.each([
    ["another scheme", "mysql://lrg:hunter2@127.0.0.1/lrg"],
    ["not a URL", "postgres://lrg:hunter2@[::1/lrg"],
  ])("%s stops the start with one line naming it, without its password", async (_name, url) => {
    const line = await refusedStart({ LRG_DATABASE_URL: url });
    expect(line).toContain("LRG_DATABASE_URL must be a postgres:// URL");
    expect(line).not.toContain("hunter2");
  });

  it("at a closed port stops the start with one line naming it, where it points and what to do", async () => {
    const port = await closedPort();
    const line = await refusedStart({ LRG_DATABASE_URL: `postgres://lrg:hunter2@127.0.0.1:${port}/lrg` });
    expect(line).toBe(
      `lrg-gateway: cannot reach the database of LRG_DATABASE_URL at 127.0.0.1:${port} (the connection was refused: nothing listens there); start PostgreSQL there, or set LRG_DATABASE_URL to a database that runs`,
    );
  });
});

describe("a data directory the gateway cannot use", () => {
  it.each([
    ["under a file", (file: string) => join(file, "data"), "a part of its path is a file, not a directory"],
    ["a file", (file: string) => file, "it is a file, not a directory"],
  ])("%s stops the start with one line naming LRG_DATA_DIR", async (_name, under, why) => {
    const file = join(newDir(), "a-file");
    writeFileSync(file, "");
    const dataDir = under(file);
    const line = await refusedStart({}, dataDir);
    expect(line).toBe(
      `lrg-gateway: cannot create LRG_DATA_DIR ${dataDir} (${why}); set LRG_DATA_DIR to a directory this process may create and write in`,
    );
  });

  // Root writes anywhere: the gateway then runs as nobody, for whom the directory is as read-only as for its owner. That
  // needs a Node.js nobody may run: not the copy CI's Node 24 pass keeps under root's own home.
  const asRoot = process.getuid?.() === 0;
  it.skipIf(asRoot && !othersMayRun(process.execPath))(
    "not writable stops the start with one line naming LRG_DATA_DIR",
    async () => {
      const dataDir = newDir();
      chmodSync(dataDir, 0o555);
      const nobody = asRoot ? { uid: 65534, gid: 65534 } : undefined;
      const line = await refusedStart({}, dataDir, nobody);
      expect(line).toBe(
        `lrg-gateway: cannot write in LRG_DATA_DIR ${dataDir} (permission denied); set LRG_DATA_DIR to a directory this process may write in, or let it write there`,
      );
    },
  );

  it("LRG_BLOB_DIR that cannot be created stops the start with one line naming it", async () => {
    const file = join(newDir(), "a-file");
    writeFileSync(file, "");
    const line = await refusedStart({ LRG_BLOB_DIR: join(file, "blobs") });
    expect(line).toMatch(/^lrg-gateway: cannot create LRG_BLOB_DIR .*; set LRG_BLOB_DIR to a directory/);
  });
});

describe("a bucket the gateway cannot write stops the start with one line", () => {
  it("names LRG_BLOB_URL, the endpoint and the credential variables: a bucket that does not exist, or wrong credentials", async () => {
    const bucket = await startTestBucket("lrg-start-bucket");
    try {
      const reach = {
        AWS_ENDPOINT_URL: bucket.s3.endpoint!,
        AWS_ACCESS_KEY_ID: "S3RVER",
        AWS_SECRET_ACCESS_KEY: "S3RVER",
      };
      expect(await refusedStart({ ...reach, LRG_BLOB_URL: "s3://lrg-no-such-bucket" })).toMatch(
        /^lrg-gateway: LRG_BLOB_URL s3:\/\/lrg-no-such-bucket: the bucket refused a write \(.*\); check LRG_BLOB_URL, AWS_ENDPOINT_URL \(or LRG_S3_ENDPOINT\) and the credentials \(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY\)$/,
      );
      expect(
        await refusedStart({
          ...reach,
          AWS_ACCESS_KEY_ID: "WRONG",
          AWS_SECRET_ACCESS_KEY: "WRONG",
          LRG_BLOB_URL: "s3://lrg-start-bucket",
        }),
      ).toMatch(/^lrg-gateway: LRG_BLOB_URL s3:\/\/lrg-start-bucket: the bucket refused a write/);
    } finally {
      await bucket.stop();
    }
  });

  it("says when the object store cannot be reached at all (a closed endpoint)", async () => {
    const port = await closedPort();
    expect(
      await refusedStart({
        AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
        AWS_ACCESS_KEY_ID: "S3RVER",
        AWS_SECRET_ACCESS_KEY: "S3RVER",
        LRG_BLOB_URL: "s3://lrg-start-bucket",
        LRG_BLOB_TIMEOUT_MS: "2000",
      }),
    ).toMatch(/^lrg-gateway: LRG_BLOB_URL s3:\/\/lrg-start-bucket: the object store could not be reached/);
  });
});
