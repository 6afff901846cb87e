import { componentSchema } from "../spec/openapi.js";
/** The application state machine, read from the spec (the single source the docs also draw from). */
export const transitions = componentSchema("ApplicationStatus")["x-lrg-transitions"];
/** The transition from one status to another, or undefined when the move is not allowed. */
export function transitionBetween(from, to) {
    return transitions.find((t) => t.from === from && t.to === to);
}
//# sourceMappingURL=state-machine.js.map