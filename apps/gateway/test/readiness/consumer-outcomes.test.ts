// The consumer checks (duplicates, paging, nothing-left-behind) judge the outcome their rules ask for, whatever way
// the software reaches it: written as vendors' software over HTTP, each client a different way to consume (the
// guide's loop, version 0 with its own filters, doing nothing), and a run that another team's put-back steps on the
// registry-wide day list leave as it would be alone.
import { describe, expect, it } from "vitest";
import {
  acknowledge,
  advance,
  check,
  gateway,
  list,
  newUnit,
  read,
  start,
  submit,
  untilDecided,
  useTestGateway,
  type Run,
  type Unit,
} from "./support.js";

useTestGateway();

const CONSUMER_CHECKS = ["duplicates", "paging", "nothing-left-behind"];

const verdicts = (run: Run) => run.checks.map((each) => [each.name, each.verdict]);

/**
 * The consuming-notifications guide's loop, as written there: list NEW without any date filter, acknowledge the page
 * (at most 100 ids a call), and list again at once while a page was full.
 */
async function guideConsumer(unit: Unit): Promise<void> {
  for (;;) {
    const page = await list(unit, "?status=NEW");
    if (page.length > 0)
      expect(
        await acknowledge(
          unit,
          page.map((n) => n.notification_id),
        ),
      ).toBe(200);
    if (page.length < 100) return;
  }
}

/**
 * A version 0 consumer, as the docs allow ("choose one version per integration"): lists NEW with status=NEW, pages on
 * `occured_after` (version 0's spelling) from the last event read, and acknowledges with version 0's call.
 */
async function versionZeroConsumer(unit: Unit): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const query = `?status=NEW${after === undefined ? "" : `&occured_after=${encodeURIComponent(after)}`}`;
    const answer = await gateway().call("GET", `/v0/notifications${query}`, { as: unit });
    expect(answer.status).toBe(200);
    const page = (answer.body as { data: { notification_id: string; event_datetime: string }[] }).data;
    if (page.length > 0) {
      const acknowledged = await gateway().call("POST", "/v0/notifications/acknowledge", {
        as: unit,
        body: { data: page.map((n) => n.notification_id) },
      });
      expect(acknowledged.status).toBe(200);
    }
    if (page.length < 100) return;
    after = page.at(-1)!.event_datetime.replace(/Z$/, "");
  }
}

async function setDayList(open: boolean): Promise<void> {
  expect((await gateway().sandbox("PUT", "/sandbox/v1/day-list", { open })).status).toBe(200);
}

describe("the consumer checks judge the outcome", () => {
  it("pass the consuming-notifications guide's loop (NEW again after each page, no created_after)", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: CONSUMER_CHECKS, time_limit_seconds: 60 });
    await guideConsumer(unit);
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(verdicts(finished)).toEqual(CONSUMER_CHECKS.map((name) => [name, "passed"]));
    expect(check(finished, "paging").evidence.found).toMatch(/^250 of 250 acknowledged, over \d+ list requests\.$/);
  });

  it("fail a consumer that stops at the first page, naming it", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["paging"], time_limit_seconds: 60 });
    const page = await list(unit, "?status=NEW");
    expect(
      await acknowledge(
        unit,
        page.map((n) => n.notification_id),
      ),
    ).toBe(200);
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "paging");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /^100 of 250 acknowledged by the run's end; it read no further than the first page/,
    );
  });

  it("judge a version 0 consumer on the version 0 feed: v1-only notifications of its submissions do not fail it", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: CONSUMER_CHECKS, time_limit_seconds: 60 });
    // Its submission names a document never uploaded: once decided, version 1 alone announces the attachment.
    const id = await submit(unit);
    await untilDecided(unit, id);
    await versionZeroConsumer(unit);
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(verdicts(finished)).toEqual(CONSUMER_CHECKS.map((name) => [name, "passed"]));
    expect(check(finished, "nothing-left-behind").evidence.found).toMatch(/version 0 feed/);
    // Read after the run (a version 1 list during it would make the software a version 1 consumer): the version 1
    // feed still holds the attachment's notification NEW, which the version 0 feed never shows.
    const v1Only = await list(unit, `?subject=${id}`);
    expect(v1Only.map((n) => n.notification_type)).toContain("application.attachment-failed");
  });

  it("are not exercised for software that does nothing: the run is not failed", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: CONSUMER_CHECKS, time_limit_seconds: 60 });
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.verdict).toBe("not_exercised");
    expect(verdicts(finished)).toEqual(CONSUMER_CHECKS.map((name) => [name, "not_exercised"]));
    for (const each of finished.checks)
      expect(each.evidence.found).toBe("The software listed no notifications during the run.");
  });

  it("are not changed by another team's put-back steps on the day list: nothing of the run awaits priority", async () => {
    const [unit, other] = [await newUnit(), await newUnit()];
    // The other team decides its applications by hand: the registry never decides one before it does.
    expect(
      (await gateway().control(other.sandbox_token, "PUT", "/sandbox/v1/settings", { processing: "manual" })).status,
    ).toBe(200);
    const run = await start(unit, { checks: CONSUMER_CHECKS, time_limit_seconds: 60 });
    await guideConsumer(unit);
    // Another team follows a guide: closes the day list, submits, and puts it back with the admin token.
    await setDayList(false);
    try {
      const waiting = await submit(other);
      const moved = await gateway().sandbox("POST", `/sandbox/v1/applications/${waiting}/transitions`, {
        to: "ACCEPTED_AWAITING_PRIORITY",
      });
      expect(moved.status).toBe(200);
    } finally {
      await setDayList(true);
    }
    const promoted = await gateway().sandbox("GET", "/sandbox/v1/day-list");
    expect(promoted.body).toMatchObject({ open: true });
    // The run's unit got nothing new from it, and its verdicts are those of a run alone.
    expect(await list(unit, "?status=NEW")).toEqual([]);
    await advance(unit, 60);
    expect(verdicts(await read(unit, run.run_id))).toEqual(CONSUMER_CHECKS.map((name) => [name, "passed"]));
  });
});
