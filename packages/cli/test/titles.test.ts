// lrg search and lrg titles names|copies through the built lrg, over the gateway's seeded register.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrap } from "@lrg/client";
import { IN_SERVICE_HOURS } from "../../client/test/integration/gateway-support.js";
import { connectionEnv, lrg, makeHome, startGateway, type Home, type RunningGateway } from "./support.js";

let gateway: RunningGateway;
let home: Home;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.setClock(IN_SERVICE_HOURS);
  // Over plain HTTP there is no client certificate to present (the mutual TLS path is the client's to test).
  await gateway.settings({ require_client_certificate: false });
  home = makeHome();
  env = { ...home.env, ...connectionEnv(gateway, await gateway.newBusinessUnit()) };
});
afterAll(async () => {
  home.remove();
  await gateway.stop();
});

const SEARCH = [
  "--proprietors",
  "Alex Example and Sam Example",
  "--applicant",
  "Robin Sample",
  "--property",
  "1 Sample Row, Exampleton",
  "--from",
  "2025-03-14",
];

describe("search", () => {
  it("answers the result at once in service hours", async () => {
    const run = await lrg(["search", "ZZ100001", ...SEARCH], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Registry reference: +[A-Z0-9]{7}$/m);
    expect(run.stdout).toMatch(/^Title: +ZZ100001$/m);
    expect(run.stderr).toBe("");
    const json = await lrg(["search", "ZZ100001", ...SEARCH, "--json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      message_id: expect.any(String),
      result: { data: { registry_reference: expect.any(String) } },
    });
  });

  it("a deferred result: the search says when and how to fetch it; --result fetches it once it is ready", async () => {
    // The title is processed by hand: the result is expected 15 minutes (of the gateway's clock) later.
    const deferred = await lrg(["search", "ZZ100009", ...SEARCH, "--timeout", "1"], { env });
    expect(deferred.code).toBe(1);
    const match =
      /^lrg: the result is deferred \(BG2000\d\), expected at \S+: fetch it then with lrg search --result (\S+)\n$/.exec(
        deferred.stderr,
      );
    expect(match).not.toBeNull();
    const messageId = match?.[1] as string;
    await unwrap(gateway.sandbox.POST("/sandbox/v1/clock/advance", { body: { seconds: 16 * 60 } }));
    const ready = await lrg(["search", "--result", messageId, "--json"], { env });
    expect(ready.code).toBe(0);
    expect(JSON.parse(ready.stdout)).toMatchObject({
      message_id: messageId,
      result: { data: { registry_reference: expect.any(String) } },
    });
    await gateway.setClock(IN_SERVICE_HOURS);
  });

  it("bad input: a lower-case title or missing flags (2), an unknown title refused (1)", async () => {
    expect((await lrg(["search", "zz1", ...SEARCH], { env })).code).toBe(2);
    const missing = await lrg(["search", "ZZ100001"], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("lrg: usage: search needs --proprietors and --applicant (or --request FILE)\n");
    const unknown = await lrg(["titles", "names", "ZZ999999"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toMatch(/^lrg: refused: 404 /);
  });
});

describe("titles", () => {
  it("names lists the proprietors as a table and as JSON", async () => {
    const run = await lrg(["titles", "names", "ZZ100001"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^TYPE +NAME$/m);
    expect(run.stdout).toMatch(/^PRIVATE_INDIVIDUAL +\S/m);
    const json = await lrg(["titles", "names", "ZZ100001", "--json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      data: { title_number: "ZZ100001", proprietors: expect.any(Array) },
    });
  });

  it("copies shows the availability of the register, the plan and the documents referred to", async () => {
    const run = await lrg(["titles", "copies", "ZZ100001"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^REGISTER +\S.*(IMMEDIATE|MANUAL|UNAVAILABLE)$/m);
    expect(run.stdout).toMatch(/^TITLEPLAN +/m);
    const json = await lrg(["titles", "copies", "ZZ100001", "--json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ data: { title_number: "ZZ100001" } });
  });
});
