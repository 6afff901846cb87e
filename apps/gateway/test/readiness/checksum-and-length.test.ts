import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SAMPLES } from "../support/upload.js";
import { advance, check, correctUpload, newUnit, read, start, uploadAddressFor, useTestGateway } from "./support.js";

useTestGateway();

describe("the checksum-and-length check", () => {
  it("passes a client whose first upload PUT is answered 200, and observes it without credentials or signature", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["checksum-and-length"], time_limit_seconds: 60 });
    expect(check(run, "checksum-and-length").instructions).toMatch(/^Send one document/);
    expect(await correctUpload(unit, SAMPLES.pdf)).toBe(200);
    const judged = check(await read(unit, run.run_id), "checksum-and-length");
    expect(judged.verdict).toBe("passed");
    expect(judged.evidence.requests).toHaveLength(1);
    expect(judged.evidence.requests[0]).toMatchObject({
      operation_id: "uploadDocument",
      status: 200,
      credentials_sent: false,
      query: { signature: "[redacted]" },
    });
  });

  it("fails a client that sends the hex digest as X-Provider-Checksum-Sha256, even if it then uploads right", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["checksum-and-length"], time_limit_seconds: 60 });
    const address = await uploadAddressFor(unit, SAMPLES.pdf);
    const hex = createHash("sha256").update(SAMPLES.pdf).digest("hex");
    const put = await fetch(address, {
      method: "PUT",
      headers: { "x-provider-checksum-sha256": hex },
      body: SAMPLES.pdf,
    });
    await put.arrayBuffer();
    expect(put.status).toBe(403);
    expect(await correctUpload(unit, SAMPLES.pdf)).toBe(200);
    const judged = check(await read(unit, run.run_id), "checksum-and-length");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(/^The first upload PUT was answered 403/);
    expect(judged.evidence.requests.map((r) => r.status)).toEqual([403, 200]);
  });

  it("is not exercised when nothing is uploaded, and observes no upload of another unit", async () => {
    const [unit, other] = [await newUnit(), await newUnit()];
    const run = await start(unit, { checks: ["checksum-and-length"], time_limit_seconds: 60 });
    expect(await correctUpload(other, SAMPLES.pdf)).toBe(200);
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(check(finished, "checksum-and-length").verdict).toBe("not_exercised");
    expect(finished.observations.recorded).toBe(0);
  });
});
