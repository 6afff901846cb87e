import { describe, expect, it } from "vitest";
import { StatementGroups } from "../src/storage/postgres/statement-groups.js";

/** A statement runner that records each group, holds it until released, and answers each job doubled. */
function recordingRunner(failing: (job: number) => boolean = () => false) {
  const groups: number[][] = [];
  let running = 0;
  let mostAtOnce = 0;
  const releases: (() => void)[] = [];
  const run = async (jobs: number[]): Promise<number[]> => {
    groups.push(jobs);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((resolve) => releases.push(resolve));
    running -= 1;
    if (jobs.some(failing)) throw new Error(`failed: ${jobs.join(",")}`);
    return jobs.map((job) => job * 2);
  };
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { run, groups, releaseAll, mostAtOnce: () => mostAtOnce };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("statement groups", () => {
  it("carries the jobs of one turn in one statement and answers each its own result", async () => {
    const runner = recordingRunner();
    const groups = new StatementGroups(runner.run);
    const answers = Promise.all([1, 2, 3].map((job) => groups.submit(job)));
    await turn();
    await runner.releaseAll();
    expect(await answers).toEqual([2, 4, 6]);
    expect(runner.groups).toEqual([[1, 2, 3]]);
  });

  it("runs one statement at a time: the jobs that arrive meanwhile go together in the next", async () => {
    const runner = recordingRunner();
    const groups = new StatementGroups(runner.run);
    const first = groups.submit(1);
    await turn();
    const later = [groups.submit(2), groups.submit(3)];
    await turn();
    const last = groups.submit(4);
    await turn();
    expect(runner.groups).toEqual([[1]]);
    await runner.releaseAll();
    expect(await Promise.all([first, ...later, last])).toEqual([2, 4, 6, 8]);
    expect(runner.groups).toEqual([[1], [2, 3, 4]]);
    expect(runner.mostAtOnce()).toBe(1);
  });

  it("runs up to inFlight statements at once: a job that arrives while one runs starts the next in a free slot", async () => {
    const runner = recordingRunner();
    const groups = new StatementGroups(runner.run, { inFlight: 2 });
    const first = groups.submit(1);
    await turn();
    const second = [groups.submit(2), groups.submit(3)];
    await turn();
    const third = [groups.submit(4), groups.submit(5)];
    await turn();
    // Two statements run; the jobs that arrived meanwhile wait for a slot, together.
    expect(runner.groups).toEqual([[1], [2, 3]]);
    await runner.releaseAll();
    expect(await Promise.all([first, ...second, ...third])).toEqual([2, 4, 6, 8, 10]);
    expect(runner.groups).toEqual([[1], [2, 3], [4, 5]]);
    expect(runner.mostAtOnce()).toBe(2);
  });

  it("with two slots, puts what one statement cannot carry in the other, and frees both slots after a failure", async () => {
    const runner = recordingRunner((job) => job === 3);
    const groups = new StatementGroups(runner.run, { inFlight: 2 });
    const outcomes = Promise.allSettled(Array.from({ length: 100 }, (_, job) => groups.submit(job)));
    await turn();
    await turn();
    // 64 in the first statement, the other 36 at once in the second slot.
    expect(runner.groups.map((group) => group.length)).toEqual([64, 36]);
    expect(groups.running).toBe(2);
    await runner.releaseAll();
    const settled = await outcomes;
    expect(settled.filter((outcome) => outcome.status === "rejected")).toHaveLength(1);
    expect(settled[3]?.status).toBe("rejected");
    expect(groups.running).toBe(0);
    expect(runner.mostAtOnce()).toBe(2);
    expect(groups.statements).toBe(runner.groups.length);
  });

  it("bounds a statement to 64 jobs", async () => {
    const runner = recordingRunner();
    const groups = new StatementGroups(runner.run);
    const answers = Promise.all(Array.from({ length: 100 }, (_, job) => groups.submit(job)));
    await turn();
    await runner.releaseAll();
    await answers;
    expect(runner.groups.map((group) => group.length)).toEqual([64, 36]);
  });

  it("runs a failed group again job by job, so that only the failing job fails", async () => {
    const runner = recordingRunner((job) => job === 2);
    const groups = new StatementGroups(runner.run);
    const outcomes = Promise.allSettled([1, 2, 3].map((job) => groups.submit(job)));
    await turn();
    await runner.releaseAll();
    const settled = await outcomes;
    expect(settled.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(settled[0]).toMatchObject({ value: 2 });
    expect(runner.groups).toEqual([[1, 2, 3], [1], [2], [3]]);
    // Still serving after a failure.
    const after = groups.submit(5);
    await turn();
    await runner.releaseAll();
    expect(await after).toBe(10);
  });
});
