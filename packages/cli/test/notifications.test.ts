// lrg notifications list|ack|tail|forward through the built lrg against a gateway this file starts.
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NotificationV1 } from "@lrg/client";
import {
  NOTIFICATIONS_PER_SUBMISSION,
  connectionEnv,
  follow,
  lrg,
  makeHome,
  startGateway,
  submitThroughClient,
  waitForNew,
  type Credentials,
  type Home,
  type RunningGateway,
} from "./support.js";

let gateway: RunningGateway;
let home: Home;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.settings({ duplicate_rate: 0 });
  home = makeHome();
});
afterAll(async () => {
  home.remove();
  await gateway.stop();
});

/** A new business unit with `count` applications submitted and their NEW notifications arrived. */
async function unitWithNotifications(
  count: number,
): Promise<{ user: Credentials; env: NodeJS.ProcessEnv; notifications: NotificationV1[] }> {
  const user = await gateway.newBusinessUnit();
  const client = gateway.client(user);
  for (let i = 0; i < count; i += 1) await submitThroughClient(client, `CLI-N-${i}`);
  const notifications = await waitForNew(client, count * NOTIFICATIONS_PER_SUBMISSION);
  return { user, env: { ...home.env, ...connectionEnv(gateway, user) }, notifications };
}

async function statuses(user: Credentials): Promise<Map<string, string>> {
  const client = gateway.client(user);
  const all = new Map<string, string>();
  for (const status of ["NEW", "ACKNOWLEDGED"] as const) {
    for await (const n of client.notifications.listAll({ status })) all.set(n.notification_id, n.status);
  }
  return all;
}

describe("list and ack", () => {
  it("lists NEW notifications as lines and as JSON; ack takes ids from arguments and from stdin", async () => {
    const { user, env, notifications } = await unitWithNotifications(3);
    const lines = await lrg(["notifications", "list"], { env });
    expect(lines.code).toBe(0);
    const printed = lines.stdout.trimEnd().split("\n");
    expect(printed).toHaveLength(notifications.length);
    expect(printed[0]).toContain(notifications[0]?.notification_id);
    expect(printed[0]).toContain(notifications[0]?.notification_type);

    const json = await lrg(["notifications", "list", "--json", "--application", notifications[0]?.subject as string], {
      env,
    });
    expect((JSON.parse(json.stdout) as NotificationV1[]).map((n) => n.subject)).toEqual(
      notifications.filter((n) => n.subject === notifications[0]?.subject).map((n) => n.subject),
    );

    const [first, ...rest] = notifications.map((n) => n.notification_id);
    const one = await lrg(["notifications", "ack", first as string], { env });
    expect(one.stdout).toBe("acknowledged 1\n");
    const piped = await lrg(["notifications", "ack", "--json"], { env, input: `${rest.join("\n")}\n` });
    expect(JSON.parse(piped.stdout)).toEqual({ acknowledged: rest, not_found: [] });
    expect([...(await statuses(user)).values()].every((status) => status === "ACKNOWLEDGED")).toBe(true);

    const listedAcknowledged = await lrg(["notifications", "list", "--status", "ACKNOWLEDGED", "--json"], { env });
    expect(JSON.parse(listedAcknowledged.stdout)).toHaveLength(notifications.length);
  });

  it("refuses an id that is not one before sending anything (2)", async () => {
    const run = await lrg(["notifications", "ack", "not-an-id"], {
      env: { ...home.env, LRG_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("lrg: usage: not a notification id: not-an-id\n");
  });

  it("an unknown --status is a usage error", async () => {
    const run = await lrg(["notifications", "list", "--status", "OLD"], { env: home.env });
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});

describe("tail", () => {
  it("--all prints the waiting ones, then picks up notifications created after it started; --ack acknowledges them", async () => {
    const { user, env, notifications } = await unitWithNotifications(1);
    const total = 2 * NOTIFICATIONS_PER_SUBMISSION;
    const tail = follow(
      ["notifications", "tail", "--all", "--ack", "--json", "--interval", "0.2", "--count", String(total)],
      env,
    );
    const waiting = await tail.waitForLines(notifications.length);
    expect(waiting.map((line) => JSON.parse(line).notification_id)).toEqual(
      notifications.map((n) => n.notification_id),
    );

    // Created after tail printed its first line: it must be picked up by a later poll.
    const later = await submitThroughClient(gateway.client(user), "CLI-TAIL-LATER");
    const lines = await tail.waitForLines(total);
    for (const line of lines.slice(notifications.length))
      expect(JSON.parse(line)).toMatchObject({ subject: later, duplicate_of: null });
    expect(await tail.exited).toBe(0);
    const after = await statuses(user);
    expect(after.size).toBe(total);
    expect([...after.values()].every((status) => status === "ACKNOWLEDGED")).toBe(true);
  });

  it("marks duplicate deliveries of one event", async () => {
    await gateway.settings({ duplicate_rate: 1 });
    try {
      const { env, notifications } = await unitWithNotifications(2);
      const tail = follow(
        ["notifications", "tail", "--all", "--interval", "0.2", "--count", String(notifications.length)],
        env,
      );
      const lines = await tail.waitForLines(notifications.length);
      expect(await tail.exited).toBe(0);
      const marked = lines.filter((line) => / duplicate of [0-9a-f-]{36}$/.test(line));
      expect(marked.length).toBe(notifications.length / 2);
    } finally {
      await gateway.settings({ duplicate_rate: 0 });
    }
  });

  it("by default follows what arrives after it is ready: --count 1 is not met by what was waiting, run after run", async () => {
    const { user, env, notifications } = await unitWithNotifications(1);
    const client = gateway.client(user);
    for (const run of [1, 2]) {
      const tail = follow(
        [
          "notifications",
          "tail",
          "--type",
          "application.accepted-priority-protected",
          "--count",
          "1",
          "--interval",
          "0.2",
          "--json",
        ],
        env,
      );
      await waitFor(() => tail.stderr.length > 0);
      expect(JSON.parse(tail.stderr[0] as string)).toMatchObject({
        event: "ready",
        user: user.username,
        url: gateway.url,
      });
      const id = await submitThroughClient(client, `CLI-TAIL-NEW-${run}`);
      const [line] = await tail.waitForLines(1);
      expect(JSON.parse(line as string)).toMatchObject({
        subject: id,
        notification_type: "application.accepted-priority-protected",
      });
      expect(await tail.exited).toBe(0);
      expect(tail.lines).toHaveLength(1);
    }
    // Nothing it did not print was acknowledged: the waiting ones are still NEW.
    const now = await statuses(user);
    expect(notifications.every((n) => now.get(n.notification_id) === "NEW")).toBe(true);
    // The line a person reads.
    const human = follow(["notifications", "tail", "--count", "1"], env);
    await waitFor(() => human.stderr.length > 0);
    expect(human.stderr[0]).toBe(
      `lrg: Ready! Following notifications of ${user.username} at ${gateway.url} (^C to stop)`,
    );
    human.child.kill("SIGTERM");
    expect(await human.exited).toBe(0);
  });

  it("keeps following when the connection is lost, saying when it is lost and when it is back", async () => {
    const { user, env } = await unitWithNotifications(0);
    const proxy = await startProxy(new URL(gateway.url));
    try {
      const tail = follow(
        ["notifications", "tail", "--interval", "0.2", "--count", String(NOTIFICATIONS_PER_SUBMISSION)],
        { ...env, LRG_BASE_URL: proxy.url },
      );
      await waitFor(() => tail.stderr.some((line) => line.startsWith("lrg: Ready!")));
      proxy.down = true;
      await waitFor(() => tail.stderr.some((line) => line.startsWith("lrg: connection lost (")));
      // Long enough for the three attempts of several polls: lrg of before gave up here.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(tail.child.exitCode).toBeNull();
      proxy.down = false;
      await waitFor(() => tail.stderr.some((line) => line.startsWith("lrg: connection back after ")));
      const id = await submitThroughClient(gateway.client(user), "CLI-TAIL-RECONNECT");
      const lines = await tail.waitForLines(NOTIFICATIONS_PER_SUBMISSION);
      expect(lines.every((line) => line.includes(id))).toBe(true);
      expect(await tail.exited).toBe(0);
      expect(tail.stderr.filter((line) => line.startsWith("lrg: connection lost"))).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A TCP proxy to the gateway that can be taken down (open connections cut, new ones refused) and back up. */
async function startProxy(target: URL): Promise<{ url: string; down: boolean; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { down: false };
  const server = createNetServer((client) => {
    if (state.down) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
      if (value) for (const socket of sockets) socket.destroy();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Receiver {
  readonly url: string;
  /** Every request, in order: its body, headers and the status answered. */
  readonly requests: { body: string; signature: string | undefined; status: number; stillNew: boolean }[];
  close(): Promise<void>;
}

/**
 * A local receiver that answers 500 to the first `failures` requests and 204 after; on each request it checks
 * with the gateway that the notification is still NEW (nothing may be acknowledged before a 2xx).
 */
async function startReceiver(failures: number, isNew: (id: string) => Promise<boolean>): Promise<Receiver> {
  const requests: Receiver["requests"] = [];
  const read = async (request: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await read(request);
      const stillNew = await isNew((JSON.parse(body) as { notification: NotificationV1 }).notification.notification_id);
      const status = requests.length < failures ? 500 : 204;
      requests.push({ body, signature: request.headers["x-lrg-signature"] as string | undefined, status, stillNew });
      response.writeHead(status).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("forward", () => {
  it("delivers every event signed, acknowledges only after a 2xx, retries with backoff, and loses nothing across a restart", async () => {
    const { user, env, notifications } = await unitWithNotifications(3);
    const secret = "forward-test-secret";
    const forwardEnv = { ...env, LRG_FORWARD_SECRET: secret };
    const client = gateway.client(user);
    const isNew = async (id: string): Promise<boolean> => {
      for await (const n of client.notifications.listAll({ status: "NEW" })) if (n.notification_id === id) return true;
      return false;
    };
    const receiver = await startReceiver(2, isNew);
    try {
      // First run: two failures, then the first event delivered; stopped (killed) right after.
      const first = follow(
        ["notifications", "forward", "--to", receiver.url, "--interval", "0.2", "--max-delay", "1", "--count", "1"],
        forwardEnv,
      );
      const [line] = await first.waitForLines(1);
      expect(line).toMatch(/^delivered \S+ \S+ -> 204 \(attempt 3\)$/);
      expect(await first.exited).toBe(0);
      expect(first.stderr.filter((l) => l.startsWith("retry "))).toHaveLength(2);

      // An event created while lrg is not running is delivered after the restart too.
      await submitThroughClient(client, "CLI-FORWARD-LATE");
      const all = await waitForNew(client, notifications.length - 1 + NOTIFICATIONS_PER_SUBMISSION);
      const restarted = await lrg(["notifications", "forward", "--to", receiver.url, "--once", "--json"], {
        env: forwardEnv,
      });
      expect(restarted.code).toBe(0);
      const results = restarted.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { delivered: boolean });
      expect(results.every((r) => r.delivered)).toBe(true);

      // Every event delivered once with a 2xx, each request signed, nothing acknowledged before its 2xx.
      const delivered = receiver.requests
        .filter((r) => r.status === 204)
        .map((r) => (JSON.parse(r.body) as { notification: NotificationV1 }).notification.notification_id);
      const expected = [...notifications.map((n) => n.notification_id), ...all.map((n) => n.notification_id)];
      expect(new Set(delivered)).toEqual(new Set(expected));
      expect(delivered).toHaveLength(new Set(expected).size);
      expect(receiver.requests.every((r) => r.stillNew)).toBe(true);
      for (const request of receiver.requests) {
        const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request.signature ?? "");
        expect(match).not.toBeNull();
        const expectedSignature = createHmac("sha256", secret).update(`${match?.[1]}.${request.body}`).digest("hex");
        expect(match?.[2]).toBe(expectedSignature);
      }
      const finalStatuses = await statuses(user);
      expect([...finalStatuses.values()].every((s) => s === "ACKNOWLEDGED")).toBe(true);
      expect(finalStatuses.size).toBe(new Set(expected).size);
    } finally {
      await receiver.close();
    }
  });

  it("killed (kill -9) while the receiver keeps failing: nothing is acknowledged, and the next run delivers everything", async () => {
    const { user, env, notifications } = await unitWithNotifications(1);
    const receiver = await startReceiver(0, async () => true);
    try {
      const failing = await startReceiver(1000, async () => true);
      const stopped = follow(
        ["notifications", "forward", "--to", failing.url, "--interval", "0.2", "--max-delay", "0.2"],
        env,
      );
      while (failing.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
      stopped.child.kill("SIGKILL");
      expect(await stopped.exited).toBeNull();
      await failing.close();
      expect([...(await statuses(user)).values()]).toEqual(notifications.map(() => "NEW"));

      const run = await lrg(["notifications", "forward", "--to", receiver.url, "--once"], { env });
      expect(run.code).toBe(0);
      expect(receiver.requests).toHaveLength(notifications.length);
      expect([...(await statuses(user)).values()]).toEqual(notifications.map(() => "ACKNOWLEDGED"));
    } finally {
      await receiver.close();
    }
  });

  it("refuses a --to that is not an address (2)", async () => {
    const run = await lrg(["notifications", "forward", "--to", "nowhere"], { env: home.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("lrg: usage: --to is not an address: nowhere\n");
  });
});
