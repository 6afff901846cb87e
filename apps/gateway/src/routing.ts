import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BasicAuthenticator, Principal } from "./auth/basic-auth.js";
import { setControlActor, type ControlActor } from "./auth/control-actor.js";
import type { Clock } from "./clock.js";
import { errorEnvelopeOf, renderEnvelope, type ErrorEnvelope } from "./error-envelopes.js";
import type { RegistryOperations, SandboxOperations } from "./operation-types.js";
import { bodyDeadline } from "./http/limits.js";
import type { PolicyHook } from "./policies.js";
import { Problem, storageProblemOf } from "./problems.js";
import {
  MAX_JSON_BODY_BYTES,
  operationsOf,
  type DocumentName,
  type Operation as OperationSpec,
  type SpecNode,
} from "@lrg/spec";
import { compileRequestValidator, compileSignedAddressValidator, type ValidatedRequest } from "./spec/validation.js";

/** The responses an operation documents, by status (its generated `responses`). */
type ResponsesOf<Op> = Op extends { responses: infer Responses } ? Responses : never;

/** The statuses an operation documents (the keys of its generated `responses`). */
export type StatusOf<Op> = Extract<keyof ResponsesOf<Op>, number>;

/** Bytes as the registrar sends them: in one buffer, or streamed as they are read (a stored document). */
export type Bytes = Buffer | Readable;

declare const encodes: unique symbol;

/**
 * JSON text already serialised from a `T`, sent as it is (a cached page of notifications). Only a claim: whoever
 * renders the text types it so.
 */
export type JsonText<T> = string & { readonly [encodes]: T };

/**
 * The body of one media type of a response: JSON (`application/json`, `application/problem+json`) as its schema types
 * it, or as that JSON's text; anything else (a PDF, an XML or HTML report) as bytes, or as text where its schema is a
 * string.
 */
type MediaBody<Media, Schema> = Media extends "application/json" | `${string}+json`
  ? Schema | JsonText<Schema>
  : unknown extends Schema
    ? Bytes
    : Schema | Bytes;

/** The answer in status `S` of a response: its body as the response's content types it, none where it has no content. */
type AnswerIn<S, Response> = Response extends { content: infer Content }
  ? {
      status: S;
      body: { [Media in keyof Content]: MediaBody<Media, Content[Media]> }[keyof Content];
      headers?: Record<string, string>;
    }
  : { status: S; body?: never; headers?: Record<string, string> };

/**
 * What the handler of operation `Op` answers: a status it documents (of `Status`, when given) with the body the spec
 * gives that status. The registrar writes it; errors thrown as `Problem`s are answered by the error registry instead.
 * A member the schema does not name is not refused here (TypeScript checks no excess members of a function's returned
 * literal): the tests' conformance checks see it.
 */
export type Answer<Op, Status extends StatusOf<Op> = StatusOf<Op>> = {
  [S in Status]: AnswerIn<S, ResponsesOf<Op>[S]>;
}[Status];

/**
 * What a handler answers when it wrote the reply itself (see `closeUnanswered`): the registrar sends nothing more. The
 * one way out of the typed answer, so that it is seen where it is taken.
 */
export const replyWritten: unique symbol = Symbol("reply written");

/** The shape every operation of the generated `operations` types has. */
interface OperationShape {
  parameters: { query?: unknown; path?: unknown };
  requestBody?: { content: Record<string, unknown> } | undefined;
}

/** An empty parameter list (`never` in the generated types) as an empty record. */
type Members<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;

/** A JSON body as its schema types it; any other content (an upload) as the raw request stream. */
type ContentBody<Content> = Content extends { "application/json": infer Json } ? Json : Readable;

/** The body an operation's handler receives: undefined when the operation takes none or it was not sent. */
export type RequestBodyOf<Op extends OperationShape> = Op extends { requestBody: { content: infer Content } }
  ? ContentBody<Content>
  : Op extends { requestBody?: { content: infer Content } }
    ? ContentBody<Content> | undefined
    : undefined;

/**
 * What the handler of operation `Op` is given: the caller (when the operation needs one) and the request, validated
 * against the spec and typed by the generated `operations` (path and query parameters coerced, defaults filled in).
 */
export interface HandlerContext<Op extends OperationShape> {
  params: Members<Op["parameters"]["path"]>;
  query: Members<Op["parameters"]["query"]>;
  body: RequestBodyOf<Op>;
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Headers as received (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
}

/** The handler of one operation: answers a documented status with its body, or `replyWritten` (see `closeUnanswered`). */
export type Handler<Op extends OperationShape> = (
  context: HandlerContext<Op>,
) => Promise<Answer<Op> | typeof replyWritten>;

/** One handler for each operation `K` of a document's generated `operations`: a missing or misspelt one is a type error. */
export type HandlersOf<Ops extends Record<keyof Ops, OperationShape>, K extends keyof Ops = keyof Ops> = {
  [P in K]: Handler<Ops[P]>;
};

/** The context as the registrar builds it, before it is handed to the operation's handler as that operation's. */
type RegistrarContext = Omit<HandlerContext<OperationShape>, "params" | "query" | "body"> & ValidatedRequest;

/** Any operation's answer, as the registrar writes it. */
interface RegistrarAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Handlers of the registry document (`spec/openapi.yaml`); with `K`, of those operations only. */
export type RegistryHandlers<K extends keyof RegistryOperations = keyof RegistryOperations> = HandlersOf<
  RegistryOperations,
  K
>;

/** Handlers of the sandbox control plane (`spec/sandbox.yaml`); with `K`, of those operations only. */
export type SandboxHandlers<K extends keyof SandboxOperations = keyof SandboxOperations> = HandlersOf<
  SandboxOperations,
  K
>;

export interface RegistrarOptions {
  authenticator: BasicAuthenticator;
  /** Who a control-plane bearer token proves to be (the admin or one business unit); throws 401 otherwise. */
  controlActor?: (authorization: string | undefined) => Promise<ControlActor>;
  /**
   * Policies run after authentication and before the handlers, by operation tag (see `policies.ts`); with it, every
   * tag must have an entry.
   */
  policies?: Record<string, PolicyHook[]>;
  /** How long a JSON body may take to arrive after its headers (see `bodyDeadline`); no deadline when absent. */
  bodyTimeoutMs?: number;
  /**
   * Sees every answer of the document's operations, refusals included, before it is sent (the audit trail of the
   * control plane; the registry interface's `answerSent` hook, see `hooks.ts`): a hook on each route, so that no
   * handler has to remember it. `payload` is the body as it will be sent. Answers nothing when it has nothing to wait
   * for, so that the answer goes out without a turn of the event loop.
   */
  onAnswer?: (
    operation: OperationSpec,
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ) => Promise<void> | undefined;
}

/**
 * Registers every operation of a spec document that has a handler: path from the spec, authentication from its
 * `security`, request validation compiled from its schemas. Handlers stay thin: they get a validated request
 * and answer a status and body. Answers the operations left without a handler.
 */
export function registerOperations<Ops extends Record<keyof Ops, OperationShape>>(
  app: FastifyInstance,
  document: DocumentName,
  handlers: HandlersOf<Ops>,
  options: RegistrarOptions,
): string[] {
  const missing: string[] = [];
  const anonymous = { username: "", businessUnitId: "" };
  for (const spec of operationsOf(document)) {
    // The one typed adaptation: the request validated against this operation's schemas is what its generated type
    // says, so the context is handed over as that operation's (and its answer, typed by the operation's responses,
    // is written as any answer).
    const handler = (
      handlers as unknown as Partial<
        Record<string, (context: RegistrarContext) => Promise<RegistrarAnswer | typeof replyWritten>>
      >
    )[spec.operationId];
    if (!handler) {
      missing.push(spec.operationId);
      continue;
    }
    const policies = policiesOf(spec, options.policies);
    // Every error of this operation, whatever raised it (validation, credentials, body parsing), is rendered in
    // the registry's envelope when the spec names one (see errorAnswer).
    const config: RouteErrorConfig = { errorEnvelope: errorEnvelopeOf(spec.operation) };
    const security = spec.security;
    // An operation without credentials is authorised by its signed address: its required members must be there,
    // but any change to the address, its query included, is the handler's signature failure to answer.
    const validate = security === "none" ? compileSignedAddressValidator(spec) : compileRequestValidator(spec);
    const url = spec.path.replace(/\{(\w+)\}/g, ":$1");
    const content = ((spec.operation["requestBody"] as SpecNode | undefined)?.["content"] ?? {}) as Record<
      string,
      unknown
    >;
    // A body that is not JSON (an upload) reaches the handler as the raw request stream, never buffered.
    const rawBody = Object.keys(content).length > 0 && content["application/json"] === undefined;
    // Credentials are checked as the headers arrive, before any body is read: a refused caller's body is never
    // parsed, and the connection of a body still arriving is closed with the answer (see server.ts).
    const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
      // A refused upload is answered before its body is read: end the connection rather than wait for the rest.
      if (rawBody) reply.header("connection", "close");
      const authorization = request.headers.authorization;
      if (security === "basic")
        principals.set(request, await options.authenticator.authenticate(authorization, request.ip));
      if (security === "bearer") {
        if (!options.controlActor) throw new Error(`operation ${spec.operationId}: no bearer token check was given`);
        setControlActor(request, await options.controlActor(authorization));
      }
      // The body's deadline runs from here: a refused caller is answered whatever its body does, and a password check
      // that waits for a core on a busy machine is not counted against the client (it once cut a 401 off unsent).
      if (!rawBody && options.bodyTimeoutMs !== undefined) bodyDeadline(request.raw, options.bodyTimeoutMs);
    };
    const run = async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = principals.get(request) ?? anonymous;
      // After authentication: a policy reads the settings of the caller's business unit.
      for (const policy of policies) await policy(request, security === "basic" ? principal : undefined);
      const validated = { ...validate(request), ...(rawBody ? { body: request.raw } : {}) };
      const answer = await handler({ ...validated, principal, request, reply, headers: request.headers });
      if (answer === replyWritten) return reply;
      reply.code(answer.status);
      for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
      return answer.body === undefined ? reply.send() : reply.send(answer.body);
    };
    const onAnswer = options.onAnswer;
    const onSend = onAnswer
      ? (
          request: FastifyRequest,
          reply: FastifyReply,
          payload: unknown,
          done: (error: Error | null, payload?: unknown) => void,
        ): void => {
          const answered = () => {
            // Seen as any other answer first, so that its observation precedes whatever the client does next.
            if (unanswered.has(request)) request.raw.socket.destroy();
            done(null, payload);
          };
          const seen = onAnswer(spec, request, reply, payload);
          if (seen === undefined) answered();
          else seen.then(answered, (error: unknown) => done(error instanceof Error ? error : new Error(String(error))));
        }
      : undefined;
    // The spec's aliases: the notification services also answer under /api.
    for (const prefix of ["", ...spec.aliases]) {
      const route = {
        method: spec.method as "GET",
        url: `${prefix}${url}`,
        onRequest: authenticate,
        handler: run,
        config,
        ...(onSend ? { onSend } : {}),
      };
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

/** Who each request authenticated as, from its route's onRequest hook to its handler. */
const principals = new WeakMap<FastifyRequest, Principal>();

/** Who a registry request authenticated as; undefined before its credentials were checked, or when they were refused. */
export function principalOf(request: FastifyRequest): Principal | undefined {
  return principals.get(request);
}

/** Requests whose connection their handler closes unanswered (see closeUnanswered). */
const unanswered = new WeakSet<FastifyRequest>();

/**
 * Closes a request's connection without its answer, after its work was done (the network lost the answer): the
 * answer is seen by `onAnswer` with status 444 (nginx's "connection closed without response"), then the connection is
 * destroyed before a byte of it is written. For operations registered with `onAnswer` (the registry interface). The
 * handler answers what it answers (`replyWritten`).
 */
export function closeUnanswered(request: FastifyRequest, reply: FastifyReply): typeof replyWritten {
  unanswered.add(request);
  void reply.code(444).send();
  return replyWritten;
}

/** The business unit whose document a signed (credential-less) request named, once its handler found it. */
const documentOwners = new WeakMap<FastifyRequest, string>();

/** Records that a request to a signed upload or download address named a document of `businessUnitId`. */
export function noteDocumentOwner(request: FastifyRequest, businessUnitId: string): void {
  documentOwners.set(request, businessUnitId);
}

/** The business unit a request acted for: its credentials', else the owner of the document its signed address named. */
export function businessUnitOf(request: FastifyRequest): string | undefined {
  return principals.get(request)?.businessUnitId ?? documentOwners.get(request);
}

/** The policies of an operation: those of each of its tags, in the order declared. */
function policiesOf(spec: OperationSpec, byTag: Record<string, PolicyHook[]> | undefined): PolicyHook[] {
  if (!byTag) return [];
  return ((spec.operation["tags"] ?? []) as string[]).flatMap((tag) => {
    const declared = byTag[tag];
    if (!declared)
      throw new Error(`operation ${spec.operationId}: no policies are declared for its tag ${tag} (policies.ts)`);
    return declared;
  });
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
  return envelopedPaths.get(request.server)?.find((entry) => entry.method === request.method && entry.path.test(path))
    ?.envelope;
}

/** The problem of a request that no operation of the spec answers (404-02). */
export function noOperation(request: FastifyRequest): Problem {
  return new Problem("404-02", `no operation answers ${request.method} ${request.url.split("?")[0] ?? ""}`);
}

/**
 * The answer to an error of a request: problem+json, or the registry's envelope of the operation the request was
 * routed to when the spec names one (`x-lrg-error-envelope`). A request no operation answers gets 404-02, even when
 * Fastify refused its body first. An envelope is dated by the clock of the request's business unit (`businessUnitOf`),
 * else, for a request whose unit is not known, by the sandbox's global clock.
 */
export function errorAnswer(
  error: unknown,
  request: FastifyRequest,
  clock: Pick<Clock, "nowMs">,
): { problem: Problem; contentType: string; body: unknown } {
  // Fastify's own errors on a request it did not route (its body was refused before the not-found handler ran).
  const unrouted = request.is404 && !(error instanceof Problem);
  const problem = unrouted ? noOperation(request) : problemFor(error);
  const envelope = envelopeOf(request);
  if (envelope)
    return {
      problem,
      contentType: "application/json",
      body: renderEnvelope(envelope, problem, {
        requestId: request.id,
        nowMs: clock.nowMs(businessUnitOf(request) ?? null),
      }),
    };
  return {
    problem,
    contentType: "application/problem+json",
    body: problem.body(request.url.split("?")[0] ?? request.url),
  };
}

/**
 * Renders any error as problem+json: a Problem as it is, a store failure as 503, Fastify's own request errors by
 * their stable code.
 */
export function problemFor(error: unknown): Problem {
  if (error instanceof Problem) return error;
  const storage = storageProblemOf(error);
  if (storage) return storage;
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new Problem("400-03", "request body is not well-formed JSON");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new Problem("413-01", `request body exceeds ${MAX_JSON_BODY_BYTES} bytes`);
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
