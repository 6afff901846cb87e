import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BasicAuthenticator, Principal } from "./auth/basic-auth.js";
import { checkBearer } from "./auth/basic-auth.js";
import { errorEnvelopeOf, renderEnvelope, type ErrorEnvelope } from "./error-envelopes.js";
import { Problem } from "./problems.js";
import { operationsOf, type DocumentName, type Operation as OperationSpec, type SpecNode } from "@lrg/spec";
import { compileRequestValidator, type ValidatedRequest } from "./spec/validation.js";

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
  beforeHandler?: (spec: OperationSpec, request: FastifyRequest) => Promise<void>;
}

/**
 * Registers every operation of a spec document that has a handler: path from the spec, authentication from its
 * `security`, request validation compiled from its schemas. Handlers stay thin: they get a validated request
 * and answer a status and body. Answers the operations left without a handler.
 */
export function registerOperations(app: FastifyInstance, document: DocumentName, handlers: Record<string, Handler>, options: RegistrarOptions): string[] {
  const missing: string[] = [];
  const anonymous = { username: "", businessUnitId: "" };
  for (const spec of operationsOf(document)) {
    const handler = handlers[spec.operationId];
    if (!handler) {
      missing.push(spec.operationId);
      continue;
    }
    const validate = compileRequestValidator(spec);
    // Every error of this operation, whatever raised it (validation, credentials, body parsing), is rendered in
    // the registry's envelope when the spec names one (see errorAnswer).
    const config: RouteErrorConfig = { errorEnvelope: errorEnvelopeOf(spec.operation) };
    const security = spec.security;
    const url = spec.path.replace(/\{(\w+)\}/g, ":$1");
    const content = ((spec.operation["requestBody"] as SpecNode | undefined)?.["content"] ?? {}) as Record<string, unknown>;
    // A body that is not JSON (an upload) reaches the handler as the raw request stream, never buffered.
    const rawBody = Object.keys(content).length > 0 && content["application/json"] === undefined;
    // An operation without credentials is authorised by its signed address: any change to the address, its
    // query included, is the handler's signature failure to answer, not a schema error.
    const signedAddress = security === "none";
    const run = async (request: FastifyRequest, reply: FastifyReply) => {
      const authorization = request.headers.authorization;
      let principal: Principal = anonymous;
      // A refused upload is answered before its body is read: end the connection rather than wait for the rest.
      if (rawBody) reply.header("connection", "close");
      await options.beforeHandler?.(spec, request);
      if (security === "basic") principal = await options.authenticator.authenticate(authorization);
      if (security === "bearer") checkBearer(authorization, options.sandboxToken);
      const validated = signedAddress
        ? { params: request.params as Record<string, unknown>, query: request.query as Record<string, unknown>, body: rawBody ? request.raw : request.body }
        : { ...validate(request), ...(rawBody ? { body: request.raw } : {}) };
      const answer = await handler({ ...validated, principal, request, reply, headers: request.headers });
      if (!answer) return reply; // the handler wrote the reply itself (streams, redirects)
      reply.code(answer.status);
      for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
      return answer.body === undefined ? reply.send() : reply.send(answer.body);
    };
    // The spec's aliases: the notification services also answer under /api.
    for (const prefix of ["", ...spec.aliases]) {
      const route = { method: spec.method as "GET", url: `${prefix}${url}`, handler: run, config };
      if (config.errorEnvelope) rememberEnvelope(app, route.method, `${prefix}${spec.path}`, config.errorEnvelope);
      void app.register(async (scope) => {
        if (rawBody) {
          scope.removeAllContentTypeParsers();
          scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
        } else {
          // A JSON operation reads application/json only: Fastify's default text/plain parser would turn any text
          // into a string body (a schema error) where the spec answers 415.
          scope.removeContentTypeParser("text/plain");
        }
        scope.route(route);
      });
    }
  }
  return missing;
}

/** What a route of the spec carries for the error handler. */
interface RouteErrorConfig {
  errorEnvelope: ErrorEnvelope | undefined;
}

/**
 * The enveloped operations of each server by method and path pattern: a request that fails before Fastify routes
 * it (a path that is not a valid URL) is still answered in its operation's envelope.
 */
const envelopedPaths = new WeakMap<FastifyInstance, { method: string; path: RegExp; envelope: ErrorEnvelope }[]>();

function rememberEnvelope(app: FastifyInstance, method: string, specPath: string, envelope: ErrorEnvelope): void {
  const path = new RegExp(`^${specPath.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{\w+\\?\}/g, "[^/]*")}$`);
  envelopedPaths.set(app, [...(envelopedPaths.get(app) ?? []), { method, path, envelope }]);
}

function envelopeOf(request: FastifyRequest): ErrorEnvelope | undefined {
  const routed = (request.routeOptions.config as Partial<RouteErrorConfig> | undefined)?.errorEnvelope;
  if (routed) return routed;
  const path = request.url.split("?")[0] ?? request.url;
  return envelopedPaths.get(request.server)?.find((entry) => entry.method === request.method && entry.path.test(path))?.envelope;
}

/** The problem of a request that no operation of the spec answers (404-02). */
export function noOperation(request: FastifyRequest): Problem {
  return new Problem("404-02", `no operation answers ${request.method} ${request.url.split("?")[0] ?? ""}`);
}

/**
 * The answer to an error of a request: problem+json, or the registry's envelope of the operation the request was
 * routed to when the spec names one (`x-lrg-error-envelope`). A request no operation answers gets 404-02, even when
 * Fastify refused its body first.
 */
export function errorAnswer(error: unknown, request: FastifyRequest, nowMs: number): { problem: Problem; contentType: string; body: unknown } {
  // Fastify's own errors on a request it did not route (its body was refused before the not-found handler ran).
  const unrouted = request.is404 && !(error instanceof Problem);
  const problem = unrouted
    ? noOperation(request)
    : problemFor(error);
  const envelope = envelopeOf(request);
  if (envelope) return { problem, contentType: "application/json", body: renderEnvelope(envelope, problem, { requestId: request.id, nowMs }) };
  return { problem, contentType: "application/problem+json", body: problem.body(request.url.split("?")[0] ?? request.url) };
}

/** Renders any error as problem+json: a Problem as it is, Fastify's own request errors by their stable code. */
export function problemFor(error: unknown): Problem {
  if (error instanceof Problem) return error;
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new Problem("400-03", "request body is not well-formed JSON");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new Problem("413-01", "request body exceeds 1048576 bytes");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new Problem("415-01", "content type is not accepted; send application/json");
    default:
      if (fastifyError.statusCode === 413) return new Problem("413-01", "request body is too large");
      if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
        return new Problem("400-02", fastifyError.message ?? "the request is not valid");
      }
      return new Problem("500-01", "an unexpected fault occurred; it has been logged");
  }
}
