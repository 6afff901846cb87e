/** The most jobs one statement carries: a bound on its size (64 acknowledgements are 6,400 ids). */
const MAX_GROUP = 64;

interface Waiting<J, R> {
  job: J;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs jobs of one kind together, one statement for a group of them, and at most `inFlight` statements at a time: the
 * jobs that arrive while every slot is taken wait, and go together in the next statement. Under load the groups grow
 * and the statements do not multiply; alone, a job waits one turn of the event loop.
 *
 * Why a bound: the database's throughput falls when more statements of this kind run at once than it has cores for.
 * On this project's 2-core benchmark machine, acknowledgements of 100 ids ran at 474/s from one connection, 639/s
 * from 2, 372/s from 4 and 268/s from 10, each costing PostgreSQL 1.7, 2.3, 4.1 and 6.3 ms of CPU. In groups, from
 * 32 connections: one instance 787/s with 1 statement at a time and 1,110/s with 2; two instances 1,102/s with 1
 * each and 992/s with 2 each (4 at once on 2 cores).
 *
 * A group whose statement fails is run again one job at a time, so that one job's failure (or a deadlock with another
 * group) is that job's alone.
 */
export class StatementGroups<J, R> {
  readonly #run: (jobs: J[]) => Promise<R[]>;
  readonly #inFlight: number;
  readonly #waiting: Waiting<J, R>[] = [];
  /** Statements running, and statements about to start (their group is taken in the next turn). */
  #running = 0;
  /** A statement is about to start: the jobs of this turn join its group rather than take another slot. */
  #starting = false;

  /** Statements run so far (a failed group's job-by-job reruns included), for /metrics. */
  statements = 0;

  /** `run` answers one result per job, in the jobs' order. */
  constructor(run: (jobs: J[]) => Promise<R[]>, options: { inFlight?: number } = {}) {
    this.#run = run;
    this.#inFlight = Math.max(1, Math.floor(options.inFlight ?? 1));
  }

  /** The most statements at once. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Statements running now (or starting in this turn). */
  get running(): number {
    return this.#running;
  }

  /** Resolves with the job's result once the statement that carried it has committed. */
  submit(job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ job, resolve, reject });
      this.#startIfFree();
    });
  }

  /** Takes a free slot, if there is one and no statement waits to start already: its group forms until the next turn. */
  #startIfFree(): void {
    if (this.#running >= this.#inFlight || this.#starting) return;
    this.#running += 1;
    this.#starting = true;
    // The jobs that arrive in this turn of the event loop go in the same group.
    setImmediate(() => {
      this.#starting = false;
      void this.#drain();
    });
  }

  /** Runs groups in one slot until no job waits. */
  async #drain(): Promise<void> {
    for (let group = this.#waiting.splice(0, MAX_GROUP); group.length > 0; group = this.#waiting.splice(0, MAX_GROUP)) {
      // More jobs than this group carries: another slot may take them meanwhile.
      if (this.#waiting.length > 0) this.#startIfFree();
      try {
        this.statements += 1;
        const results = await this.#run(group.map((waiting) => waiting.job));
        group.forEach((waiting, index) => waiting.resolve(results[index] as R));
      } catch (error) {
        if (group.length === 1) group[0]?.reject(error);
        else for (const waiting of group) await this.#alone(waiting);
      }
    }
    this.#running -= 1;
  }

  async #alone(waiting: Waiting<J, R>): Promise<void> {
    try {
      this.statements += 1;
      const [result] = await this.#run([waiting.job]);
      waiting.resolve(result as R);
    } catch (error) {
      waiting.reject(error);
    }
  }
}
