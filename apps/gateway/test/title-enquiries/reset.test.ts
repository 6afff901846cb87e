// A sandbox reset forgets everything of the title enquiries: the official searches (so their message_ids can be
// used again), the rate-limit windows and the settings of the title services; and nothing lives outside the store.
import { existsSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IN_SERVICE_HOURS, poll, search, searchRequest, startTitleGateway, type TitleGateway } from "./support.js";

let gw: TitleGateway;
beforeAll(async () => {
  gw = await startTitleGateway();
});
afterAll(async () => {
  await gw.stop();
});

const names = "/s2/v1/titles/ZZ100001/registered-proprietor-names";

async function reset(): Promise<void> {
  expect((await gw.sandbox("POST", "/sandbox/v1/reset")).status).toBe(204);
  // The reset restores the default settings: title enquiries need a client certificate again, which these tests
  // over plain HTTP do without, and the clock is real time again.
  expect((await gw.sandbox("GET", "/sandbox/v1/settings")).body).toMatchObject({
    require_client_certificate: true,
    service_hours: "enforced",
  });
  await gw.sandbox("PUT", "/sandbox/v1/settings", { require_client_certificate: false });
  await gw.setClock(IN_SERVICE_HOURS);
}

describe("POST /sandbox/v1/reset and the title enquiries", () => {
  it("a message_id used before a reset is accepted after it (not 409), and the old result is gone", async () => {
    await gw.setClock(IN_SERVICE_HOURS);
    const body = searchRequest();
    const id = String(body["message_id"]);
    expect((await search(gw, body)).status).toBe(201);
    expect((await search(gw, body)).status).toBe(409);

    await reset();
    expect((await gw.call("GET", poll(id))).status).toBe(404);
    const again = await search(gw, body);
    expect(again.status).toBe(201);
    expect((await gw.call("GET", poll(id))).body).toEqual(again.body);
  });

  it("the rate-limit windows are emptied", async () => {
    await gw.setClock(IN_SERVICE_HOURS);
    let answer = await gw.call("GET", names);
    for (let i = 0; i < 10 && answer.status !== 429; i += 1) answer = await gw.call("GET", names);
    expect(answer.status).toBe(429);

    await reset();
    expect((await gw.call("GET", names)).status).toBe(200);
  });

  it("no database file but the gateway's own is opened in the data directory", () => {
    expect(existsSync(`${gw.dataDir}/title-enquiries.sqlite`)).toBe(false);
    expect(
      readdirSync(gw.dataDir)
        .filter((name) => name.includes(".sqlite"))
        .sort(),
    ).toEqual(["gateway.sqlite", "gateway.sqlite-shm", "gateway.sqlite-wal"]);
  });
});
