import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BasicAuthenticator, Principal } from "./auth/basic-auth.js";
import { Problem } from "./problems.js";
import { type OperationSpec, type SpecNode } from "./spec/openapi.js";
import { type ValidatedRequest } from "./spec/validation.js";
/** What a handler answers; the registrar writes it. */
export interface Answer {
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
}
/** What a handler is given: the caller (when the operation needs one) and the validated request. */
export interface HandlerContext extends ValidatedRequest {
    principal: Principal;
    request: FastifyRequest;
    reply: FastifyReply;
    /** Headers as received (lower-case names). */
    headers: Record<string, string | string[] | undefined>;
}
export type Handler = (context: HandlerContext) => Promise<Answer | undefined>;
export interface RegistrarOptions {
    authenticator: BasicAuthenticator;
    sandboxToken: string;
    /** Runs before each handler of the registry's operations (latency and fault injection). */
    beforeHandler?: (spec: OperationSpec) => Promise<void>;
    /** Extra prefixes under which an operation also answers (e.g. `/api` for notifications). */
    aliases?: (spec: OperationSpec) => string[];
}
/**
 * Registers every operation of a spec document that has a handler: path from the spec, authentication from its
 * `security`, request validation compiled from its schemas. Handlers stay thin: they get a validated request
 * and answer a status and body. Answers the operations left without a handler.
 */
export declare function registerOperations(app: FastifyInstance, document: SpecNode, handlers: Record<string, Handler>, options: RegistrarOptions): string[];
/** Renders any error as problem+json: a Problem as it is, Fastify's own request errors by their stable code. */
export declare function problemFor(error: unknown): Problem;
