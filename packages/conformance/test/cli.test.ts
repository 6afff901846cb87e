// The command line: against a running gateway (--url and LRG_SANDBOX_TOKEN), a remote environment (observed
// only), the mock, and a gateway broken by a proxy; a summary table, JUnit XML and the exit code.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startTestGateway, type TestGateway } from "@lrg/gateway/testing";
import { operations } from "@lrg/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBreakingProxy } from "./support/breaking-proxy.js";

const cli = join(import.meta.dirname, "..", "dist", "cli.js");
/** The root of the checkout, where `npm run conformance` is defined. */
const checkout = join(import.meta.dirname, "..", "..", "..");
const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function lrgConformance(
  args: string[],
  env: Record<string, string> = {},
  command: readonly string[] = [process.execPath, cli],
  timeout = 90_000,
): Promise<Outcome> {
  const [file, ...first] = command as [string, ...string[]];
  try {
    const { stdout, stderr } = await run(file, [...first, ...args], {
      env: { ...process.env, ...env },
      timeout,
      cwd: checkout,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

let gateway: TestGateway;
let url: string;
let dir: string;
const sandboxToken = randomBytes(18).toString("base64url");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lrg-cli-"));
  gateway = await startTestGateway({ sandboxToken });
  url = gateway.url;
});

afterAll(async () => {
  await gateway?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A business unit's user of the test gateway, which is told not to ask for a client certificate over plain HTTP. */
async function remoteUser(): Promise<{ username: string; password: string }> {
  const unit = (await (
    await fetch(`${url}/sandbox/v1/business-units`, {
      method: "POST",
      headers: { authorization: `Bearer ${sandboxToken}` },
    })
  ).json()) as { username: string; password: string };
  // The registry is reached with a client certificate; this gateway over plain HTTP is told not to ask for one.
  const relaxed = await fetch(`${url}/sandbox/v1/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${sandboxToken}`, "content-type": "application/json" },
    body: JSON.stringify({ require_client_certificate: false }),
  });
  expect(relaxed.status).toBe(200);
  return unit;
}

interface FuzzReport {
  seed: number;
  target: string;
  scope: string;
  requests: number;
  violationCount: number;
  serverErrors: number;
  operations: Record<string, { requests: number }>;
  variants: Record<string, number>;
  known: Record<string, { count: number }>;
}

describe("lrg-conformance --fuzz", () => {
  it("fuzzes a running gateway given by --url with the seed given, prints the counts and writes its report", async () => {
    const report = join(dir, "fuzz", "gateway.json");
    // A gateway of the fuzzer's own, as the README asks: it resets the sandbox and may leave system errors scheduled
    // for any business unit's next submissions, which would fail the property runs below on the shared one.
    const own = await startTestGateway({ sandboxToken });
    const outcome = await lrgConformance(
      [
        "--target",
        "gateway",
        "--url",
        own.url,
        "--fuzz",
        "400",
        "--seed",
        "4242",
        "--epoch",
        "100",
        "--report",
        report,
      ],
      { LRG_SANDBOX_TOKEN: sandboxToken },
      undefined,
      240_000,
    ).finally(() => own.stop());
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(outcome.stderr).toContain("seed 4242 (--seed 4242 draws the same requests)");
    expect(outcome.stdout).toMatch(
      /^fuzz: [\d,]+ requests \([\d,]+ drawn, \d+ epochs\) in \d+ s, [\d,]+\/s; seed 4242$/m,
    );
    expect(outcome.stdout).toContain("violations: 0; known departures: 0; 5xx not explained by fault injection: 0");
    const written = JSON.parse(await readFile(report, "utf8")) as FuzzReport;
    expect({
      seed: written.seed,
      target: written.target,
      scope: written.scope,
      violations: written.violationCount,
      serverErrors: written.serverErrors,
    }).toEqual({ seed: 4242, target: "gateway", scope: "full", violations: 0, serverErrors: 0 });
    expect(written.requests).toBeGreaterThanOrEqual(400);
    expect(Object.keys(written.known)).toContain("mock-pdf-placeholder");
  });

  it("fuzzes a remote environment with GET requests only, as its user or as nobody", async () => {
    const unit = await remoteUser();
    const report = join(dir, "fuzz", "remote.json");
    const outcome = await lrgConformance(
      ["--target", "remote", "--fuzz", "150", "--seed", "7", "--report", report],
      { LRG_BASE_URL: url, LRG_USERNAME: unit.username, LRG_PASSWORD: unit.password },
      undefined,
      240_000,
    );
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    const written = JSON.parse(await readFile(report, "utf8")) as FuzzReport;
    expect(written.scope).toBe("observe");
    const gets = new Set(
      operations.filter((o) => o.document === "registry" && o.method === "GET").map((o) => o.operationId),
    );
    const addressed = Object.entries(written.operations)
      .filter(([, tally]) => tally.requests > 0)
      .map(([id]) => id);
    expect(addressed.filter((id) => id !== "(unmatched)" && !gets.has(id))).toEqual([]);
    expect(
      Object.keys(written.variants).filter(
        (v) => v.startsWith("upload") || v.startsWith("download") || v === "wrong-method",
      ),
    ).toEqual([]);
  });

  it("refuses property options beside --fuzz with exit code 2", async () => {
    const outcome = await lrgConformance(["--target", "gateway", "--fuzz", "10", "--only", "negative"]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("--only does not go with --fuzz");
  });
});

describe("lrg-conformance", () => {
  it("refuses a missing target with usage and exit code 2", async () => {
    const outcome = await lrgConformance([]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("Usage: lrg-conformance --target mock|gateway|remote");
  });

  it("asks for LRG_SANDBOX_TOKEN, without a stack trace, when --target gateway --url has none", async () => {
    const outcome = await lrgConformance(["--target", "gateway", "--url", url], { LRG_SANDBOX_TOKEN: "" });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("needs the gateway's control-plane token in LRG_SANDBOX_TOKEN");
    expect(outcome.stderr).not.toMatch(/^\s+at /m);
  });

  it("checks a running gateway given by --url and LRG_SANDBOX_TOKEN, prints the summary and writes JUnit XML", async () => {
    const junit = join(dir, "gateway.xml");
    const outcome = await lrgConformance(
      ["--target", "gateway", "--url", url, "--only", "notifications.acknowledge", "--runs", "5", "--junit", junit],
      { LRG_SANDBOX_TOKEN: sandboxToken },
    );
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/notifications\.acknowledge-limit\s+gateway\s+5\s+passed/);
    expect(outcome.stdout).toContain("1 passed, 0 failed, 0 skipped");
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain('<testsuite name="lrg-conformance (gateway)" tests="1" failures="0" errors="0" skipped="0"');
    expect(xml).toContain('name="[R138, R015, R016, R094, R101, R017, R018] acknowledge takes at most 100 ids');
  });

  it("skips the properties on registry-wide state at --url unless --exclusive is given, and runs them with it", async () => {
    const args = ["--target", "gateway", "--url", url, "--only", "applications.day-list-model", "--runs", "2"];
    const shared = await lrgConformance(args, { LRG_SANDBOX_TOKEN: sandboxToken });
    expect(shared.code, shared.stdout + shared.stderr).toBe(0);
    expect(shared.stdout).toContain(
      "skipped (gateway: the day list is registry-wide: run with --exclusive on a gateway of your own)",
    );
    expect(shared.stdout).toContain("0 passed, 0 failed, 1 skipped");
    const exclusive = await lrgConformance([...args, "--exclusive"], { LRG_SANDBOX_TOKEN: sandboxToken });
    expect(exclusive.code, exclusive.stdout + exclusive.stderr).toBe(0);
    expect(exclusive.stdout).toMatch(/business unit [0-9a-f-]{36}, exclusive/);
    expect(exclusive.stdout).toMatch(/applications\.day-list-model\s+gateway\s+2\s+passed/);
  });

  it("refuses --exclusive without --target gateway --url with exit code 2", async () => {
    const outcome = await lrgConformance(["--target", "mock", "--exclusive"]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("--exclusive goes with --target gateway --url");
  });

  it("runs from the root of the checkout as npm run conformance -- --url, the gateway target preset", async () => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const outcome = await lrgConformance(
      ["--url", url, "--only", "notifications.acknowledge-limit", "--runs", "2"],
      { LRG_SANDBOX_TOKEN: sandboxToken },
      [npm, "run", "conformance", "--"],
    );
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/notifications\.acknowledge-limit\s+gateway\s+2\s+passed/);
  });

  it("observes a remote environment with its credentials only, skipping what would change it", async () => {
    const unit = await remoteUser();
    const junit = join(dir, "remote.xml");
    const outcome = await lrgConformance(["--target", "remote", "--runs", "3", "--junit", junit], {
      LRG_BASE_URL: url,
      LRG_USERNAME: unit.username,
      LRG_PASSWORD: unit.password,
    });
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/notifications\.created-after-later-than-created-before\s+remote\s+\d+\s+passed/);
    expect(outcome.stdout).toMatch(/notifications\.model\s+remote\s+0\s+skipped/);
    const xml = await readFile(junit, "utf8");
    expect(xml).toMatch(/<skipped message="remote: needs the sandbox control plane/);
    expect(xml).not.toContain("<failure");
  });

  it("exits 1 with the seed and the shrunk counterexample when a property fails", async () => {
    const proxy = await startBreakingProxy(url, "drop-400-01");
    try {
      const junit = join(dir, "broken.xml");
      const outcome = await lrgConformance(
        ["--target", "gateway", "--url", proxy.url, "--only", "created-after", "--junit", junit],
        { LRG_SANDBOX_TOKEN: sandboxToken },
      );
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toMatch(/seed: -?\d+, path: "[\d:]+"/);
      expect(outcome.stdout).toContain("Counterexample:");
      expect(await readFile(junit, "utf8")).toContain('<failure message="Property failed after');
    } finally {
      await proxy.close();
    }
  });

  it("runs the stateless properties against the mock it starts and skips the rest with the reason", async () => {
    const outcome = await lrgConformance(["--target", "mock", "--runs", "3", "--only", "documents."]);
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/documents\.checksum-length\s+mock\s+\d+\s+passed/);
    expect(outcome.stdout).toMatch(/documents\.upload-expiry\s+mock\s+0\s+skipped/);
  });
});
