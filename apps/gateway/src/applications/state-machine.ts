import { transitions, type Transition } from "@lrg/spec";

/** The transition from one status to another, or undefined when the move is not allowed. */
export function transitionBetween(from: string, to: string): Transition | undefined {
  return transitions.find((t) => t.from === from && t.to === to);
}
