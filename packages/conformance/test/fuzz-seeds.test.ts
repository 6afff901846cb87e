// Coverage by construction, not by seed: twenty short fuzzing runs, each from another seed, against one gateway.
// Whatever the seed, every operation in the spec answers success at least once (the warm-up reaches each from its
// examples and the records the set-up makes), and the business-unit isolation check is made on every operation that
// names a unit's record, and holds. The first seed is fixed (`fuzzSeed`); `FUZZ_SEED=<seed>` starts the twenty from
// that seed, `FUZZ_SEED=random` from a fresh one. One request in flight, so that a seed draws the same run however
// busy the machine is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "@lrg/spec";
import { runFuzz, type FuzzSummary } from "../src/fuzz/runner.js";
import { isolationApplies } from "../src/operation-facts.js";
import { startGateway, type StartedTarget } from "../src/targets.js";
import { fuzzSeed } from "./support/fuzz-seed.js";

const RUNS = 20;
const FIRST = fuzzSeed(20261129);
const seeds = Array.from({ length: RUNS }, (_, index) => FIRST + index);

let gateway: StartedTarget & { sandboxToken: string };
const summaries = new Map<number, FuzzSummary>();

beforeAll(async () => {
  process.stderr.write(`fuzz-seeds.test.ts: seeds ${FIRST} to ${FIRST + RUNS - 1} (FUZZ_SEED=${FIRST} again)\n`);
  gateway = await startGateway();
  for (const seed of seeds) {
    summaries.set(
      seed,
      await runFuzz({
        url: gateway.url,
        sandboxToken: gateway.sandboxToken,
        // The warm-up and set-up take about half; the rest is drawn from the seed.
        requests: 300,
        seed,
        concurrency: 1,
        epochSize: 100,
      }),
    );
  }
}, 900_000);

afterAll(async () => {
  await gateway?.stop();
});

describe(`twenty seeds from ${FIRST}`, () => {
  it("every operation answers success at least once whatever the seed", () => {
    expect(operations.length).toBeGreaterThan(0);
    const failures = seeds.map((seed) => [seed, summaries.get(seed)?.neverSucceeded]);
    expect(failures).toEqual(seeds.map((seed) => [seed, []]));
  });

  it("checks isolation on every operation of one business unit's records, and finds no breach, whatever the seed", () => {
    const scoped = operations.filter(isolationApplies).map((o) => o.operationId);
    expect(scoped.length).toBeGreaterThan(0);
    const outcomes = seeds.map((seed) => {
      const summary = summaries.get(seed);
      return {
        seed,
        unchecked: scoped.filter((id) => !summary?.isolationChecked.includes(id)),
        breaches: (summary?.violations ?? [])
          .filter((v) => v.oracle === "isolation")
          .map((v) => `${v.method} ${v.target} -> ${v.status}`),
      };
    });
    expect(outcomes).toEqual(seeds.map((seed) => ({ seed, unchecked: [], breaches: [] })));
  });

  it("draws requests from the seed after the warm-up", () => {
    for (const seed of seeds) expect(summaries.get(seed)?.epochs, `seed ${seed}`).toBeGreaterThan(0);
  });
});
