import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { basic } from "../support/gateway.js";
import { uploadHeaders } from "../support/documents.js";
import { SAMPLES } from "../support/upload.js";
import {
  advance,
  check,
  correctUpload,
  gateway,
  newUnit,
  read,
  start,
  uploadAddressFor,
  useTestGateway,
} from "./support.js";

useTestGateway();

describe("the checksum-and-length check", () => {
  it("passes a client whose first upload PUT is answered 200, and observes it without credentials or signature", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["checksum-and-length"], time_limit_seconds: 60 });
    expect(check(run, "checksum-and-length").instructions).toMatch(/^Send one document/);
    expect(await correctUpload(unit, SAMPLES.pdf)).toBe(200);
    const judged = check(await read(unit, run.run_id), "checksum-and-length");
    expect(judged.verdict).toBe("passed");
    // The address asked for, then the PUT.
    expect(judged.evidence.requests.map((r) => r.operation_id)).toEqual(["createUploadUrl", "uploadDocument"]);
    expect(judged.evidence.requests[1]).toMatchObject({
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
    // The evidence names the header the PUT's own 403 named.
    expect(judged.evidence.found).toMatch(
      /^The first upload PUT \(observation \d+\) was answered 403 403-01: .*X-Provider-Checksum-Sha256/,
    );
    const puts = judged.evidence.requests.filter((r) => r.operation_id === "uploadDocument");
    expect(puts.map((r) => [r.status, r.answer_code])).toEqual([
      [403, "403-01"],
      [200, null],
    ]);
  });

  it("fails a client that sends the hex digest as file_sha256 everywhere: its address is refused, and no PUT follows", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["checksum-and-length", "expired-upload"], time_limit_seconds: 60 });
    const hex = createHash("sha256").update(SAMPLES.pdf).digest("hex");
    const asked = await gateway().call("POST", "/v0/documents/url", {
      as: unit,
      body: { data: { document_type: "TR1", file_length: SAMPLES.pdf.length, file_sha256: hex } },
    });
    expect(asked.status).toBe(400);
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.verdict).toBe("failed");
    for (const name of ["checksum-and-length", "expired-upload"]) {
      const judged = check(finished, name);
      expect(judged.verdict, name).toBe("failed");
      expect(judged.evidence.found, name).toMatch(
        /^The software's request for an upload address \(observation 1\) was refused 400 400-02: .*file_sha256/,
      );
      expect(judged.evidence.requests.map((r) => [r.operation_id, r.status, r.answer_code])).toEqual([
        ["createUploadUrl", 400, "400-02"],
      ]);
    }
  });

  it("fails a client that sends its credentials to the upload address, though the PUT succeeds", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["checksum-and-length"], time_limit_seconds: 60 });
    const address = await uploadAddressFor(unit, SAMPLES.pdf);
    const put = await fetch(address, {
      method: "PUT",
      headers: { ...uploadHeaders(SAMPLES.pdf), authorization: basic(unit) },
      body: SAMPLES.pdf,
    });
    await put.arrayBuffer();
    const judged = check(await read(unit, run.run_id), "checksum-and-length");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /^The software sent its credentials \(an Authorization header\) to the upload address \(observation 2\)/,
    );
    expect(judged.evidence.requests.find((r) => r.operation_id === "uploadDocument")).toMatchObject({
      credentials_sent: true,
      status: put.status,
    });
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
