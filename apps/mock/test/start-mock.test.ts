// startMock's contract, which other packages' tests rely on: a real Prism on a free port, stopped by close().
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findFreePort, startMock } from "../src/index.js";
import { BASIC_AUTHORIZATION } from "./operations.js";

/** Whether something accepts TCP connections on the address. */
function accepting(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("startMock", () => {
  it("picks a free port on 127.0.0.1, answers, and stops on close", async () => {
    const mock = await startMock({ port: 0 });
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${mock.url}/v1/notifications`, { headers: { authorization: BASIC_AUTHORIZATION } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();

    await mock.close();
    expect(await accepting(mock.url)).toBe(false);
    await mock.close(); // a second close is harmless
  });

  it("listens on the port it is given", async () => {
    const port = await findFreePort();
    const mock = await startMock({ port });
    try {
      expect(mock.url).toBe(`http://127.0.0.1:${port}`);
      expect(await accepting(mock.url)).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it("runs two mocks side by side on different ports", async () => {
    const [a, b] = await Promise.all([startMock(), startMock()]);
    try {
      expect(a.url).not.toBe(b.url);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("serves another document when given one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lrg-mock-"));
    const spec = join(dir, "tiny.json");
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "tiny", version: "1" },
        paths: {
          "/ping": {
            get: {
              operationId: "ping",
              responses: {
                "200": {
                  description: "pong",
                  content: { "application/json": { schema: { type: "object" }, example: { pong: true } } },
                },
              },
            },
          },
        },
      }),
    );
    const mock = await startMock({ spec });
    try {
      const response = await fetch(`${mock.url}/ping`);
      expect(await response.json()).toEqual({ pong: true });
    } finally {
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("generates responses from the schemas when dynamic", async () => {
    const mock = await startMock({ dynamic: true });
    try {
      const response = await fetch(`${mock.url}/s2/v1/titles/ZZ100001/registered-proprietor-names`, {
        headers: { authorization: BASIC_AUTHORIZATION },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: Record<string, unknown> };
      // Generated, not the example (whose title is ZZ100001), and without members the schema does not name.
      expect(body.data["title_number"]).not.toBe("ZZ100001");
      const named = [
        "title_number",
        "title_status",
        "title_status_code",
        "continued_under_title_number",
        "proprietors",
      ];
      expect(Object.keys(body.data).filter((key) => !named.includes(key))).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it("rejects with Prism's output when Prism cannot start", async () => {
    await expect(startMock({ spec: join(tmpdir(), "no-such-spec-lrg.yaml") })).rejects.toThrow(/Prism exited/);
  });

  it("kills Prism's whole process group on close", async () => {
    const mock = await startMock();
    const { port } = new URL(mock.url);
    // The listener belongs to the Prism process we spawned; find it through /proc to check it is gone after.
    const pid = prismPidListeningOn(Number(port));
    expect(pid).toBeDefined();
    await mock.close();
    expect(alive(pid as number)).toBe(false);
  });
});

/** The pid of the node process whose command line starts Prism on this port (Linux /proc). */
function prismPidListeningOn(port: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args.includes("mock") && args.includes("--port") && args[args.indexOf("--port") + 1] === String(port)) {
        return Number(entry);
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}
