// The registry's clock as a recording shows it. The sandbox keeps a clock of its own, which a test or the readiness
// guide moves (sets, advances) instead of waiting in real time; a recording of that traffic holds what the control
// plane answered of it. `lrg drift` and `lrg readiness judge` time a recording's exchanges by this one estimate.
import { isDeepStrictEqual } from "node:util";
import { componentSchema, operationsOf, type Operation } from "./reader.js";

/** Whether an operation answers the sandbox's clock: its success answer is the `SandboxClock` schema (`now`). */
function answersClock(operation: Operation): boolean {
  const clock = componentSchema("SandboxClock", "sandbox");
  return [...operation.responses].some(
    ([status, response]) =>
      status >= 200 && status < 300 && isDeepStrictEqual(response.content.get("application/json"), clock),
  );
}

/** The operationIds of the control plane's clock: each answers the clock's time as it reads at the answer. */
export const CLOCK_OPERATION_IDS: ReadonlySet<string> = new Set(
  operationsOf("sandbox")
    .filter(answersClock)
    .map((operation) => operation.operationId),
);

/**
 * The instant (ms since the epoch) a clock operation's success answer states the registry's clock read at the answer
 * (`now`); undefined for any other exchange, and for an answer that states none.
 */
export function clockStated(operationId: string, status: number, answer: unknown): number | undefined {
  if (!CLOCK_OPERATION_IDS.has(operationId) || status < 200 || status >= 300) return undefined;
  const now = typeof answer === "object" && answer !== null ? (answer as Record<string, unknown>)["now"] : undefined;
  const instant = typeof now === "string" ? Date.parse(now) : Number.NaN;
  return Number.isNaN(instant) ? undefined : instant;
}

/**
 * The registry's clock along a recording, read in the recording's order: the recording's own clock, moved by each
 * instant the sandbox stated of its clock (set, advanced, read), from that answer on. Where the recording holds no
 * such answer it is the recording's own clock.
 */
export class RecordedClock {
  #offsetMs = 0;

  /**
   * The registry's clock at `recordedMs` of the recording's own; `statedMs` is what an answer that arrived then stated
   * of it (it moves the clock from then on).
   */
  at(recordedMs: number, statedMs?: number): number {
    if (statedMs !== undefined) this.#offsetMs = statedMs - recordedMs;
    return recordedMs + this.#offsetMs;
  }
}
