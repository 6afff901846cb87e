// Failed logins are budgeted per client address and per username (`x-lrg-failed-login-limit` on basicAuth), refused
// with 429 (429-02) before any password check, and password checks run under bounded concurrency. Attackers come
// from other loopback addresses (127.0.0.0/8 is all local on Linux), so their budgets are not the test's own. The
// budgets refill by the gateway's clock: the tests set it back to one instant before each attempt, so that nothing
// refills while they run (a clock set back refills nothing) and the counts are exact.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedLoginLimit } from "@lrg/spec";
import { basic, startGateway, type Credentials, type TestGateway } from "./support/gateway.js";
import { expectConformant, expectDocumentedHeaders } from "./support/conformance.js";

let gw: TestGateway;
/** The instant the gateway's clock is held at. */
let pinned: string;
beforeAll(async () => {
  gw = await startGateway();
  await gw.sandbox("PUT", "/sandbox/v1/settings", { require_client_certificate: false });
  pinned = ((await gw.sandbox("GET", "/sandbox/v1/clock")).body as { now: string }).now;
});
afterAll(async () => {
  await gw.stop();
});

const PER_ADDRESS = failedLoginLimit.perAddress.failures;
const PER_USERNAME = failedLoginLimit.perUsername.failures;
/** Seconds after which every budget is full again. */
const REFILL_SECONDS =
  Math.ceil(
    Math.max(
      (PER_ADDRESS * 60) / failedLoginLimit.perAddress.refillPerMinute,
      (PER_USERNAME * 60) / failedLoginLimit.perUsername.refillPerMinute,
    ),
  ) + 1;

/** Sets the gateway's clock back to the pinned instant. */
const pin = () => gw.sandbox("PUT", "/sandbox/v1/clock", { now: pinned });
/** Moves the pinned instant on until every budget is full again. */
const refill = async () => {
  pinned = new Date(Date.parse(pinned) + REFILL_SECONDS * 1000).toISOString();
  await pin();
};

interface Login {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * A request with `authorization` sent from the loopback address `from`, the clock pinned first (unless `free`); the
 * answer is checked against the spec.
 */
async function login(from: string, authorization: string, path = "/v1/notifications", free = false): Promise<Login> {
  if (!free) await pin();
  const target = new URL(path, gw.url);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        localAddress: from,
        agent: false,
        headers: { authorization },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const contentType = response.headers["content-type"] ?? null;
          const body = text && contentType?.includes("json") ? (JSON.parse(text) as unknown) : text;
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === "string") headers.set(name, value);
          const status = response.statusCode ?? 0;
          expectConformant("GET", path, status, text ? contentType : null, body);
          if (status === 429) expectDocumentedHeaders("GET", path, status, headers);
          resolve({ status, headers, body });
        });
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

const wrong = (user: Credentials) => basic({ username: user.username, password: `${user.password}-wrong` });

/** Sends wrong passwords for `user` from `from` until an answer is not 401; answers how many were 401 and that answer. */
async function failUntilRefused(from: string, user: Credentials): Promise<{ failures: number; refusal: Login }> {
  // Bounded, so that a broken throttle fails the test rather than run on.
  for (let failures = 0; failures < 3 * PER_USERNAME; failures += 1) {
    const answer = await login(from, wrong(user));
    if (answer.status !== 401) return { failures, refusal: answer };
  }
  throw new Error(`${3 * PER_USERNAME} wrong passwords from ${from} were all answered 401`);
}

/** A figure of /metrics. */
async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${gw.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`/metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
}
const scryptRuns = () => metric("lrg_auth_scrypt_total");

describe("failed logins", () => {
  let victim: Credentials;
  beforeAll(async () => {
    victim = await gw.newBusinessUnit();
  });

  it("are answered 401 up to the address's budget, then 429 (429-02) with Retry-After and no password check", async () => {
    const { failures, refusal } = await failUntilRefused("127.0.0.2", victim);
    expect(failures).toBe(PER_ADDRESS);
    expect(refusal.status).toBe(429);
    expect(Number(refusal.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refusal.body).toMatchObject({ code: "429-02", status: 429 });

    // Refused attempts run no scrypt, whoever they name and whatever password they carry (a correct one too).
    const other = await gw.newBusinessUnit();
    const before = await scryptRuns();
    for (const authorization of [wrong(victim), basic(other), basic({ username: "nobody", password: "x" })]) {
      const answer = await login("127.0.0.2", authorization);
      expect(answer.status).toBe(429);
      expect(answer.body).toMatchObject({ code: "429-02" });
    }
    expect(await scryptRuns()).toBe(before);
    expect(await metric('lrg_auth_refused_total{reason="address"}')).toBeGreaterThanOrEqual(4);
  });

  it("from another address do not stop the correct password there", async () => {
    const before = await scryptRuns();
    expect((await login("127.0.0.1", basic(victim))).status).toBe(200);
    expect(await scryptRuns()).toBe(before + 1);
  });

  it("are answered in the envelope of the operation: BG40006 in the registry's on the title enquiries", async () => {
    const lookup = await login("127.0.0.2", wrong(victim), "/s1/v1/titles/ZZ100001/official-copies/availability");
    expect(lookup.status).toBe(429);
    expect(lookup.body).toMatchObject({ errors: [{ error_code: "BG40006", http_status: "429" }] });
    const poll = await login("127.0.0.2", wrong(victim), "/api/v1/poll-requests/6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10");
    expect(poll.status).toBe(429);
    expect(poll.body).toMatchObject({ errors: [{ code: "BG40006", status: "429" }] });
  });

  it("recover with the budget: once refilled (the gateway's clock moved on), a wrong password is checked again", async () => {
    await refill();
    const before = await scryptRuns();
    expect((await login("127.0.0.2", wrong(victim))).status).toBe(401);
    expect(await scryptRuns()).toBe(before + 1);
  });

  it("for one username from many addresses lock out new addresses, never one that logged in as the user before", async () => {
    await refill();
    const user = await gw.newBusinessUnit();
    expect((await login("127.0.0.5", basic(user))).status).toBe(200);
    // Each attacking address spends its own budget, and all of them the username's, until the username refuses.
    let spent = 0;
    let reason = "address";
    for (let octet = 10; reason === "address" && octet < 20; octet += 1) {
      const before = await metric('lrg_auth_refused_total{reason="username"}');
      const { failures } = await failUntilRefused(`127.0.0.${octet}`, user);
      spent += failures;
      if ((await metric('lrg_auth_refused_total{reason="username"}')) > before) reason = "username";
    }
    expect(reason).toBe("username");
    expect(spent).toBe(PER_USERNAME);

    // The same credential encoded with padding of its own (base64 ends at the first "="), so that the gateway's
    // memory of verified headers does not answer for it: a new address is refused even with the correct password,
    // without a check ...
    const encoded = (padding: number) => `${basic(user).replace(/=+$/, "")}${"=".repeat(padding)}`;
    const before = await scryptRuns();
    const stranger = await login("127.0.0.30", encoded(3));
    expect(stranger.status).toBe(429);
    expect(stranger.body).toMatchObject({ code: "429-02" });
    expect(await scryptRuns()).toBe(before);
    // ... while the address that logged in before has its password checked.
    expect((await login("127.0.0.5", encoded(4))).status).toBe(200);
    expect(await scryptRuns()).toBe(before + 1);
  });

  it("never answer 5xx to odd credentials", async () => {
    const odd = [
      basic({ username: "x".repeat(700), password: "y" }),
      basic({ username: "line\nbreak", password: "" }),
      `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x80]).toString("base64")}`,
      `Basic ${Buffer.from(":no-username").toString("base64")}`,
      "Basic ====",
    ];
    for (const authorization of odd) {
      const answer = await login("127.0.0.3", authorization);
      expect([401, 429], authorization.slice(0, 40)).toContain(answer.status);
    }
  });
});

describe("password checks", () => {
  it("run a few at a time: past the waiting queue a login is refused (429-02), and a verified credential never waits", async () => {
    const verified = await gw.newBusinessUnit();
    expect((await login("127.0.0.1", basic(verified))).status).toBe(200);
    // A hundred wrong passwords at once, each from its own address (so no budget refuses them): more than may wait.
    const storm = Array.from({ length: 100 }, (_, i) =>
      login(`127.0.1.${i + 1}`, basic({ username: `storm-${i}`, password: "wrong" }), undefined, true),
    );
    let settled = false;
    void Promise.allSettled(storm).then(() => (settled = true));
    // Once checks are queued, the verified credential logs in: answered while they still wait.
    while (!settled && (await metric("lrg_auth_scrypt_waiting")) === 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await login("127.0.0.1", basic(verified), undefined, true)).status).toBe(200);
    expect(await metric("lrg_auth_scrypt_waiting")).toBeGreaterThan(0);
    const answers = await Promise.all(storm);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({ code: "429-02" });
      expect(answer.headers.get("retry-after")).toBe("1");
    }
    expect(await metric('lrg_auth_refused_total{reason="queue"}')).toBe(refused.length);
  });

  it("with one credential arriving in a burst share one password check: all answered, none refused", async () => {
    const fresh = await gw.newBusinessUnit();
    const before = await scryptRuns();
    // More parallel calls than may wait for a check: a client opening with a burst of work is not refused.
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => login("127.0.0.1", basic(fresh), undefined, true)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect((await scryptRuns()) - before).toBe(1);
  });
});
