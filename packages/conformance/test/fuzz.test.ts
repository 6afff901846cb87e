// The short fuzzing run of `npm test`: a few thousand requests, valid and invalid, across every operation of
// openapi.json and sandbox.json, against one gateway in this process. `npm run fuzz` is the long one. The seed is
// fixed (`fuzzSeed`) and printed; `FUZZ_SEED=<seed>` draws from another, `FUZZ_SEED=random` from a fresh one. One
// request in flight: with four, a busy machine interleaved the same draws differently and met another state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeFuzz, runFuzz, type FuzzSummary } from "../src/fuzz/runner.js";
import { operations } from "@lrg/spec";
import { startGateway, type StartedTarget } from "../src/targets.js";
import { fuzzSeed } from "./support/fuzz-seed.js";

const REQUESTS = Number(process.env["FUZZ_TEST_REQUESTS"] ?? 3000);
const SEED = fuzzSeed(778062558);

let gateway: StartedTarget & { sandboxToken: string };
let summary: FuzzSummary;

beforeAll(async () => {
  process.stderr.write(`fuzz.test.ts: seed ${SEED} (FUZZ_SEED=${SEED} draws the same requests again)\n`);
  gateway = await startGateway();
  summary = await runFuzz({
    url: gateway.url,
    sandboxToken: gateway.sandboxToken,
    requests: REQUESTS,
    seed: SEED,
    concurrency: 1,
    epochSize: 200,
  });
  process.stderr.write(`${describeFuzz(summary)}\n`);
}, 300_000);

afterAll(async () => {
  await gateway?.stop();
});

describe(`fuzzing every operation (${REQUESTS} requests, seed ${SEED}; FUZZ_SEED=${SEED} reproduces)`, () => {
  it("sends the requests it was asked for", () => {
    expect(summary.requests).toBeGreaterThanOrEqual(REQUESTS);
  });

  it("gets no 5xx that the sandbox's fault injection does not explain", () => {
    expect(summary.serverErrors).toBe(0);
  });

  it("gets no answer outside the spec (beyond the known departures, which it reports)", () => {
    expect(
      summary.violations.map(
        (v) => `${v.method} ${v.target.slice(0, 100)} -> ${v.status ?? "nothing"}: ${v.problems.join("; ")}`,
      ),
    ).toEqual([]);
  });

  it("addresses every operation of both documents, and each answers success at least once", () => {
    // Every operation the spec has (no count written here: a new operation is covered without editing this file).
    expect(operations.length).toBeGreaterThan(0);
    expect(summary.unaddressed).toEqual([]);
    expect(summary.neverSucceeded).toEqual([]);
  });

  it("sends invalid requests of every kind", () => {
    for (const variant of [
      "valid",
      "broken-body",
      "broken-query-parameter",
      "junk-query",
      "malformed-json",
      "wrong-content-type",
      "oversized-body",
      "bad-credentials",
      "odd-path",
      "wrong-method",
      "unmatched-route",
      "upload",
      "download",
    ]) {
      expect(summary.variants[variant] ?? 0, variant).toBeGreaterThan(0);
    }
  });
});
