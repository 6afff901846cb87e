// What a property is, and how one is checked with fast-check: the number of runs and the seed come from the
// command line (or the property's default), and a failure carries fast-check's report (seed, path, shrunk
// counterexample) so that it can be replayed.
import fc from "fast-check";
import type { Capability, Session } from "./session.js";

/** A property of the interface, checked against a target. */
export interface Property {
  /** Stable identifier, e.g. `notifications.acknowledge-limit`. */
  id: string;
  /** The rows of spec/TRACEABILITY.md it checks (none for the sandbox control plane, which is our design). */
  rows: readonly string[];
  /** What it asserts, in words. */
  title: string;
  /** What the target must offer; otherwise the property is skipped, with the missing capability as reason. */
  requires: readonly Capability[];
  /**
   * Set when the property changes registry-wide state that other runs on the same gateway share (the day list, the
   * global clock, the client address's failed-login budget): why. It then runs only in an exclusive session
   * (`--exclusive`, or a gateway the suite started itself) and is skipped with this reason otherwise.
   */
  exclusive?: string;
  /** Runs of each fast-check check when the command line gives none. */
  runs: number;
  check(context: PropertyContext): Promise<void>;
}

/** The name a property is reported under: its rows (or `design` for the control plane's contract), then its title. */
export function propertyName(property: Property): string {
  return `[${property.rows.length > 0 ? property.rows.join(", ") : "design"}] ${property.title}`;
}

/** Options of a run of the suite. */
export interface RunOptions {
  /** Runs of every fast-check check (overrides each property's default). */
  runs?: number;
  /** At most this many runs of every check: each property's default, lowered to it (ignored when `runs` is given). */
  maxRuns?: number;
  /** Seed of every fast-check check, to replay a failure. */
  seed?: number;
  /** With the seed, the path fast-check reported: replays the shrunk counterexample at once. */
  path?: string;
}

/** A fast-check failure, with what replays it. */
export class PropertyFailure extends Error {
  readonly seed: number;
  readonly counterexample: unknown;
  readonly numRuns: number;
  readonly path: string | undefined;

  constructor(
    message: string,
    details: { seed: number; counterexample: unknown; numRuns: number; path?: string | undefined },
  ) {
    super(message);
    this.name = "PropertyFailure";
    this.seed = details.seed;
    this.counterexample = details.counterexample;
    this.numRuns = details.numRuns;
    this.path = details.path;
  }
}

/** What a property's check gets: the session, and fast-check parameterised by the run options. */
export class PropertyContext {
  readonly session: Session;
  readonly options: RunOptions;
  readonly defaultRuns: number;
  /** Runs performed by the checks so far. */
  runs = 0;

  constructor(session: Session, options: RunOptions, defaultRuns: number) {
    this.session = session;
    this.options = options;
    this.defaultRuns = defaultRuns;
  }

  /**
   * The fast-check parameters of one check: runs from the options, else `runs`, else the property's default, at
   * most the options' `maxRuns`.
   */
  parameters<T>(runs?: number, examples?: T[]): fc.Parameters<T> {
    return {
      ...(examples !== undefined ? { examples } : {}),
      numRuns: this.options.runs ?? Math.min(runs ?? this.defaultRuns, this.options.maxRuns ?? Infinity),
      ...(this.options.seed !== undefined ? { seed: this.options.seed } : {}),
      ...(this.options.path !== undefined ? { path: this.options.path } : {}),
      includeErrorInReport: true,
      // A target answers slowly compared with generation: bound the time a check (and its shrinking) may take.
      interruptAfterTimeLimit: 120_000,
      markInterruptAsFailure: true,
    };
  }

  /**
   * Checks a property with fast-check; throws a PropertyFailure carrying the report on failure. `examples` are
   * checked first, before the generated values.
   */
  async assert<Ts>(
    property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
    runs?: number,
    examples?: Ts[],
  ): Promise<void> {
    const details = await fc.check(property as fc.IAsyncPropertyWithHooks<Ts>, this.parameters<Ts>(runs, examples));
    this.runs += details.numRuns;
    if (details.failed) {
      throw new PropertyFailure(fc.defaultReportMessage(details) ?? "property failed", {
        seed: details.seed,
        counterexample: details.counterexample,
        numRuns: details.numRuns,
        path: details.counterexamplePath ?? undefined,
      });
    }
  }

  /** A single example-based step (a scenario that is not generated) counted as one run. */
  async once(step: () => Promise<void>): Promise<void> {
    await step();
    this.runs += 1;
  }
}
