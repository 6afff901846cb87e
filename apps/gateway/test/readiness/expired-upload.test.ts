import { describe, expect, it } from "vitest";
import { SAMPLES } from "../support/upload.js";
import {
  advance,
  check,
  correctUpload,
  newUnit,
  putUpload,
  read,
  start,
  uploadAddressFor,
  useTestGateway,
} from "./support.js";

useTestGateway();

describe("the expired-upload check", () => {
  it("issues the run's first upload address expired, and passes a client that asks for a new one", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["expired-upload"], time_limit_seconds: 60 });
    expect(check(run, "expired-upload").instructions).toMatch(/^Send one document/);
    const expired = await uploadAddressFor(unit, SAMPLES.pdf);
    // Refused by the registry's own rule: the address's expiry has passed on the unit's clock.
    expect(await putUpload(expired, SAMPLES.pdf)).toEqual([403, "403-02"]);
    expect(await putUpload(await uploadAddressFor(unit, SAMPLES.pdf), SAMPLES.pdf)).toEqual([200, undefined]);
    // Only the first: a later address of the run is valid as usual.
    expect(await correctUpload(unit, SAMPLES.png)).toBe(200);

    const judged = check(await read(unit, run.run_id), "expired-upload");
    expect(judged.verdict).toBe("passed");
    expect(judged.evidence.found).toMatch(
      /^The upload address of document .+ was issued expired; the software's PUT to it was refused 1 time\(s\), then uploaded the same bytes to a new address \(document .+, 200\)\.$/,
    );
    expect(judged.evidence.requests.map((r) => [r.operation_id, r.status])).toEqual([
      ["createUploadUrl", 200],
      ["uploadDocument", 403],
      ["createUploadUrl", 200],
      ["uploadDocument", 200],
      ["createUploadUrl", 200],
      ["uploadDocument", 200],
    ]);
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "expired-upload").verdict).toBe("passed");
  });

  it("fails a client that retries the PUT on the same address, once the run ends", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["expired-upload"], time_limit_seconds: 60 });
    const address = await uploadAddressFor(unit, SAMPLES.pdf);
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect(await putUpload(address, SAMPLES.pdf)).toEqual([403, "403-02"]);
    expect(check(await read(unit, run.run_id), "expired-upload").verdict).toBe("running");
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "expired-upload");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /the software's PUT to it was refused 3 time\(s\), and no upload of the same bytes to a new address was answered 200\.$/,
    );
    expect(judged.evidence.requests.map((r) => r.status)).toEqual([200, 403, 403, 403]);
  });

  it("fails a client that gives up after the refusal, and one that uploads other bytes instead", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["expired-upload"], time_limit_seconds: 60 });
    expect((await putUpload(await uploadAddressFor(unit, SAMPLES.pdf), SAMPLES.pdf))[0]).toBe(403);
    // Another document is no second try of the first.
    expect(await correctUpload(unit, SAMPLES.png)).toBe(200);
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "expired-upload");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(/no upload of the same bytes to a new address was answered 200\.$/);
  });

  it("is not exercised when the software asks for no address, and expires nothing once the run ended", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["expired-upload"], time_limit_seconds: 60 });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "expired-upload").verdict).toBe("not_exercised");
    expect(await correctUpload(unit, SAMPLES.pdf)).toBe(200);
  });

  it("with checksum-and-length in the same run: a correct client passes both, the PUT judged is the first to a valid address", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["checksum-and-length", "expired-upload"], time_limit_seconds: 60 });
    expect(await correctUpload(unit, SAMPLES.pdf)).toBe(200);
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.checks.map((c) => [c.name, c.verdict])).toEqual([
      ["checksum-and-length", "passed"],
      ["expired-upload", "passed"],
    ]);
    expect(check(finished, "checksum-and-length").evidence.found).toBe(
      "The first upload PUT not refused for an expired address (observation 4) was answered 200.",
    );

    // The naive client that retries the same address fails expired-upload only: its headers were never judged.
    const naive = await newUnit();
    const naiveRun = await start(naive, { checks: ["checksum-and-length", "expired-upload"], time_limit_seconds: 60 });
    const address = await uploadAddressFor(naive, SAMPLES.pdf);
    for (let attempt = 0; attempt < 2; attempt += 1) await putUpload(address, SAMPLES.pdf);
    await advance(naive, 60);
    expect((await read(naive, naiveRun.run_id)).checks.map((c) => [c.name, c.verdict])).toEqual([
      ["checksum-and-length", "not_exercised"],
      ["expired-upload", "failed"],
    ]);
  });
});
