import { describe, expect, it } from "vitest";
import { CLIENT_CERTIFICATE_REQUIRED } from "../../src/policies.js";
import { RULES } from "../../src/readiness/check.js";
import { rateLimits, RUN_RETRY_AFTER_SECONDS } from "../../src/readiness/rate-limits.js";
import { WAIT_GRACE_MS } from "../../src/readiness/waits.js";
import { factsOf, observed } from "./observations.js";
import { errorCodeOf } from "../support/conformance.js";
import { IN_SERVICE_HOURS } from "../title-enquiries/support.js";
import {
  allowTitleEnquiries,
  lookUp,
  retryAfter,
  setClock,
  setTitleSettings,
  waitRetryAfter,
  withClientCertificate,
} from "./pacing-support.js";
import { advance, check, newUnit, read, start, useTestGateway } from "./support.js";

useTestGateway();

describe("the rate-limits check", () => {
  it("answers the run's first look-up 429 with Retry-After, and passes software that waits that long", async () => {
    const unit = await newUnit();
    await allowTitleEnquiries(unit);
    const run = await start(unit, { checks: ["rate-limits"], time_limit_seconds: 60 });
    const instructions = check(run, "rate-limits").instructions;
    expect(instructions).toMatch(/^Look up a title from your software before /);
    expect(instructions).toContain("require_client_certificate is false");
    expect(instructions).not.toContain("Registered proprietor names are served");

    const limited = await lookUp(unit, "availability");
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ errors: [{ error_code: "BG40006" }] });
    expect(retryAfter(limited)).toBe(2);
    await waitRetryAfter(unit, limited);
    expect((await lookUp(unit, "availability")).status).toBe(200);
    // The run answers one 429: the other look-up is answered as any other.
    expect((await lookUp(unit, "names")).status).toBe(200);

    const judged = check(await read(unit, run.run_id), "rate-limits");
    expect(judged.verdict).toBe("passed");
    expect(judged.evidence.found).toMatch(
      /^Waited: getOfficialCopiesAvailability answered 429 at \S+ with Retry-After 2; the next attempt came 2\.\d{3} s later/,
    );
    expect(judged.evidence.requests.map((r) => [r.operation_id, r.status, r.retry_after])).toEqual([
      ["getOfficialCopiesAvailability", 429, 2],
      ["getOfficialCopiesAvailability", 200, null],
    ]);
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "rate-limits").verdict).toBe("passed");
  });

  it("fails software that retries at once after a 429, with the two requests as evidence", async () => {
    const unit = await newUnit();
    await allowTitleEnquiries(unit);
    const run = await start(unit, { checks: ["rate-limits"], time_limit_seconds: 60 });
    expect((await lookUp(unit)).status).toBe(429);
    expect((await lookUp(unit)).status).toBe(200);
    // A failure is final at once, while the run goes on.
    const judged = check(await read(unit, run.run_id), "rate-limits");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /^Retried too soon: getRegisteredProprietorNames answered 429 at \S+ with Retry-After 2; the next attempt came \d+\.\d{3} s later/,
    );
    expect(judged.evidence.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it("judges every 429 of the run: the registry's own limit met later and retried at once fails too", async () => {
    const unit = await newUnit();
    await allowTitleEnquiries(unit);
    const run = await start(unit, { checks: ["rate-limits"], time_limit_seconds: 600 });
    const held = await lookUp(unit);
    await waitRetryAfter(unit, held);
    // Six look-ups a minute per user: the seventh in a row is refused by the registry's limit (for about 10 seconds).
    const answers = [];
    for (let index = 0; index < 7; index += 1) answers.push((await lookUp(unit)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect((await lookUp(unit)).status).toBe(429);
    const judged = check(await read(unit, run.run_id), "rate-limits");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /^Retried too soon: getRegisteredProprietorNames answered 429 at \S+ with Retry-After \d+;/,
    );
  });

  it("fails software that never tries again after the 429, and is not exercised when it looks nothing up", async () => {
    const [giving, idle] = [await newUnit(), await newUnit()];
    await Promise.all([allowTitleEnquiries(giving), allowTitleEnquiries(idle)]);
    const [givingRun, idleRun] = [
      await start(giving, { checks: ["rate-limits"], time_limit_seconds: 60 }),
      await start(idle, { checks: ["rate-limits"], time_limit_seconds: 60 }),
    ];
    expect((await lookUp(giving)).status).toBe(429);
    expect(check(await read(giving, givingRun.run_id), "rate-limits").verdict).toBe("running");
    await Promise.all([advance(giving, 60), advance(idle, 60)]);
    const gaveUp = check(await read(giving, givingRun.run_id), "rate-limits");
    expect(gaveUp.verdict).toBe("failed");
    expect(gaveUp.evidence.found).toMatch(/Retry-After 2; no attempt followed\.$/);
    const nothing = check(await read(idle, idleRun.run_id), "rate-limits");
    expect(nothing).toMatchObject({
      verdict: "not_exercised",
      evidence: { found: "The software met no 429 during the run." },
    });
    // Once the run ended, look-ups are answered as any other.
    expect((await lookUp(idle)).status).toBe(200);
  });
});

describe("the rate-limits check, where title enquiries need mutual TLS", () => {
  it("fails software that looks a title up without its client certificate (403 BG40005), passes it with one, and is not exercised without a look-up", async () => {
    const [refusing, certified, idle] = [await newUnit(), await newUnit(), await newUnit()];
    for (const unit of [refusing, certified, idle]) {
      await setTitleSettings(unit, { require_client_certificate: true });
      await setClock(unit, IN_SERVICE_HOURS);
    }
    const [refusingRun, certifiedRun, idleRun] = [
      await start(refusing, { checks: ["rate-limits"], time_limit_seconds: 60 }),
      await start(certified, { checks: ["rate-limits"], time_limit_seconds: 60 }),
      await start(idle, { checks: ["rate-limits"], time_limit_seconds: 60 }),
    ];
    expect(check(refusingRun, "rate-limits").instructions).toContain(
      "require_client_certificate is true, as the registry has it: send these title enquiries over HTTPS with a " +
        "client certificate signed by the gateway's client CA",
    );

    const refused = await lookUp(refusing);
    expect(refused.status).toBe(403);
    expect(errorCodeOf(refused.body)).toMatchObject({ code: "BG40005" });
    // A failure is final at once, while the run goes on.
    const failed = check(await read(refusing, refusingRun.run_id), "rate-limits");
    expect(failed.verdict).toBe("failed");
    expect(failed.evidence.found).toMatch(
      /^Your software did not present its client certificate \(403 BG40005, mutual TLS\): getRegisteredProprietorNames was refused so at \S+\.$/,
    );
    expect(failed.evidence.requests.map((r) => [r.operation_id, r.status, r.answer_code])).toEqual([
      ["getRegisteredProprietorNames", 403, "BG40005"],
    ]);

    const limited = await lookUp(certified, "availability", withClientCertificate);
    expect(limited.status).toBe(429);
    await waitRetryAfter(certified, limited);
    expect((await lookUp(certified, "availability", withClientCertificate)).status).toBe(200);

    await Promise.all([advance(refusing, 60), advance(certified, 60), advance(idle, 60)]);
    expect(check(await read(refusing, refusingRun.run_id), "rate-limits").verdict).toBe("failed");
    expect(check(await read(certified, certifiedRun.run_id), "rate-limits").verdict).toBe("passed");
    expect(check(await read(idle, idleRun.run_id), "rate-limits")).toMatchObject({
      verdict: "not_exercised",
      evidence: { found: "The software met no 429 during the run." },
    });
  });
});

describe("the rate-limits instructions, outside the service hours", () => {
  it("say that registered proprietor names answer 423 until they resume, and official copy availability does not", async () => {
    const unit = await newUnit();
    await setTitleSettings(unit, { require_client_certificate: false });
    await setClock(unit, "2025-04-01T22:30:00.000Z");
    const run = await start(unit, { checks: ["rate-limits"], time_limit_seconds: 60 });
    expect(check(run, "rate-limits").instructions).toContain(
      "Registered proprietor names are served 06:30 to 23:00 London time and the unit's clock shows " +
        "2025-04-01T22:30:00",
    );
    expect((await lookUp(unit, "names")).status).toBe(429);
    await advance(unit, RUN_RETRY_AFTER_SECONDS);
    expect((await lookUp(unit, "names")).status).toBe(423);
    expect((await lookUp(unit, "availability")).status).toBe(200);
  });
});

const names = (clockMs: number, status = 200, retryAfterSeconds: number | null = null) =>
  observed("getRegisteredProprietorNames", { clockMs, status, retryAfterSeconds });
const availability = (clockMs: number) => observed("getOfficialCopiesAvailability", { clockMs });
const held = names(1000, 429, RUN_RETRY_AFTER_SECONDS);
const refusedNames = observed("getRegisteredProprietorNames", { clockMs: 500, status: 403, answerCode: "BG40005" });

describe("the rate-limits verdicts, on the unit's clock", () => {
  it.each([
    ["the next attempt exactly Retry-After later", [held, names(3000)], false, "passed"],
    ["50 ms short of it (the grace for timers)", [held, names(2950)], false, "passed"],
    ["51 ms short of it", [held, names(2949)], false, "failed"],
    [
      "another operation at once, the same one after the wait",
      [held, availability(1001), names(3000)],
      false,
      "passed",
    ],
    ["another operation at once, the same one too soon", [held, availability(1001), names(1002)], false, "failed"],
    ["a later 429 retried too soon", [held, names(3000), names(3001, 429, 10), names(5000)], false, "failed"],
    ["a 429 without Retry-After (not a wait)", [names(1000, 429), names(1001)], true, "not_exercised"],
    ["a 429 and nothing after, while the run goes on", [held], false, "running"],
    ["a 429 and nothing after, at the end", [held], true, "failed"],
    ["no 429, at the end", [names(1000)], true, "not_exercised"],
    ["a look-up refused 403 BG40005 (no client certificate)", [refusedNames], false, "failed"],
    ["a refused look-up, then a 429 honoured", [refusedNames, held, names(3000)], false, "failed"],
    ["a 403 of another code", [names(1000, 403)], true, "not_exercised"],
  ] as const)("%s", (_name, observations, ended, verdict) => {
    expect(rateLimits.judge(factsOf([...observations], ended)).verdict).toBe(verdict);
  });

  it("are the rule the spec states: the run's Retry-After and the grace", () => {
    expect(RULES["rate-limits"]).toContain(`429 with Retry-After: ${RUN_RETRY_AFTER_SECONDS} (x-lrg-source: design)`);
    expect(RULES["rate-limits"]).toContain(`${WAIT_GRACE_MS} ms are forgiven`);
    expect(RULES["rate-limits"]).toContain(
      `A look-up refused 403 ${CLIENT_CERTIFICATE_REQUIRED} (no client certificate) fails`,
    );
  });
});
