import { componentSchema } from "../spec/openapi.js";

/** One allowed move between application statuses, as the spec's `x-lrg-transitions` lists it. */
export interface Transition {
  from: string;
  to: string;
  trigger: string;
  notifications: { v1: string; v0: string };
}

/** The application state machine, read from the spec (the single source the docs also draw from). */
export const transitions = componentSchema("ApplicationStatus")["x-lrg-transitions"] as Transition[];

/** The transition from one status to another, or undefined when the move is not allowed. */
export function transitionBetween(from: string, to: string): Transition | undefined {
  return transitions.find((t) => t.from === from && t.to === to);
}
