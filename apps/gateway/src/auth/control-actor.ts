import type { FastifyRequest } from "fastify";

/** Who acts on the sandbox control plane: the operator with the admin token, or one business unit with its own token. */
export type ControlActor = { kind: "admin" } | { kind: "unit"; businessUnitId: string };

const actors = new WeakMap<FastifyRequest, ControlActor>();

/** Records who the bearer token of a control-plane request proved to be (set once the token is checked). */
export function setControlActor(request: FastifyRequest, actor: ControlActor): void {
  actors.set(request, actor);
}

/** Who made a control-plane request; undefined before its token was checked (or when it was refused). */
export function controlActorOf(request: FastifyRequest): ControlActor | undefined {
  return actors.get(request);
}
