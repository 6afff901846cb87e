import { randomBytes } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { MAX_JSON_BODY_BYTES } from "@lrg/spec";
import type { Clock } from "../clock.js";
import type { GatewayConfig } from "../config.js";
import type { Metrics } from "../operations/metrics.js";
import { Problem } from "../problems.js";
import { errorAnswer, noOperation } from "../routing.js";
import type { StoreLifecycle } from "../storage/ports/lifecycle.js";
import { humanLog } from "./human-log.js";
import { jsonDepth, MAX_JSON_DEPTH } from "./json-depth.js";
import {
  DEADLINE_CHECK_INTERVAL_MS,
  discardBody,
  limitServer,
  MAX_DISCARDED_BODY_BYTES,
  type ConnectionLimits,
} from "./limits.js";
import { tlsOptions } from "./mutual-tls.js";
import { requestForLog } from "./request-log.js";

/**
 * The gateway's Fastify instance, before any route: its log, its limits, JSON bodies refused beyond MAX_JSON_DEPTH,
 * request ids, and how every request is answered whatever its route: in a later turn of the event loop, with its id,
 * as problem+json (or the operation's envelope) when it fails, measured; with `Connection: close` while `closing`.
 */
export function createApp(deps: {
  config: GatewayConfig;
  clock: Clock;
  storage: StoreLifecycle;
  metrics: Metrics;
  limits: ConnectionLimits;
  closing: () => boolean;
}): FastifyInstance {
  const { config, clock, storage, metrics, limits, closing } = deps;
  const requestPrefix = randomBytes(3).toString("hex");
  let requestCount = 0;
  const app = Fastify({
    logger: config.logger
      ? {
          level: "info",
          serializers: { req: requestForLog },
          ...(config.logFormat === "human" ? { stream: humanLog() } : {}),
        }
      : false,
    http: { connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS },
    bodyLimit: MAX_JSON_BODY_BYTES,
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // Path parameters as long as a request line can be (Node's 16 KiB header limit): an over-long one reaches
    // validation (400-02) or the signature check (403-01) instead of Fastify's own 414.
    routerOptions: { maxParamLength: 16 * 1024 },
    // A path that is not a valid URL (a broken percent-escape) is bad input like any other: problem+json.
    // On an operation the registry answers in its own envelope, in that envelope.
    frameworkErrors: (error, request, reply) => {
      const cause =
        error.code === "FST_ERR_BAD_URL" ? new Problem("400-02", "the request path is not a valid URL") : error;
      const { problem, contentType, body } = errorAnswer(cause, request, clock);
      void (reply as unknown as FastifyReply).code(problem.status).type(contentType).send(body);
    },
    genReqId: () => `${requestPrefix}-${(requestCount += 1).toString(36)}`,
    forceCloseConnections: "idle",
    ...(config.tls ? { https: tlsOptions(config.tls) } : {}),
  });

  limitServer(app.server, limits);
  // JSON bodies nested beyond MAX_JSON_DEPTH are refused before they are parsed; the rest as Fastify parses them.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (jsonDepth(body as string) > MAX_JSON_DEPTH) {
      const detail = `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
      done(new Problem("400-02", detail, { errors: [{ type: "maxDepth", detail, pointer: "/body" }] }), undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });

  app.addHook("onRequest", async (request, reply) => {
    // Each request is answered in a later turn of the event loop than the one that read it, so the requests read in
    // one turn are answered together, and the clients' next requests arrive together too: fewer, fuller turns. On the
    // 2-core benchmark machine, 32 connections listing from SQLite: 8,486/s at 0.095 ms of gateway CPU a request,
    // against 5,692/s at 0.128 ms when each was answered in the turn that read it. (On PostgreSQL, `sync` waits at
    // least that long for its barrier, which, taken out, cost the same.)
    await Promise.all([storage.sync(), nextTurn()]);
    reply.header("x-request-id", request.id);
    // No operation answers it: refused as it arrives, before any body is read (the not-found handler would wait for it).
    if (request.is404) throw noOperation(request);
  });
  app.addHook("onSend", async (request, reply) => {
    // A body refused for its size is read to its end (discarded, up to MAX_DISCARDED_BODY_BYTES) before the answer
    // goes: the connection then closes after an answer the client reads whole, instead of resetting it mid-send.
    const tooLarge = reply.statusCode === 413 && !request.raw.complete;
    if (tooLarge) await discardBody(request.raw, MAX_DISCARDED_BODY_BYTES);
    // While shutting down, answers end their connection so that close() is not held by keep-alive sockets; an answer
    // given before its request's body arrived (refused credentials, a refused upload) ends it too, so that the rest
    // of the body is not read.
    if (closing() || tooLarge || !request.raw.complete) reply.header("connection", "close");
  });
  app.addHook("onResponse", async (request, reply) => {
    metrics.observe(request.method, request.routeOptions.url ?? "unmatched", reply.statusCode, reply.elapsedTime);
  });
  app.setErrorHandler(async (error, request, reply) => {
    const { problem, contentType, body } = errorAnswer(error, request, clock);
    // A store failure is the operator's to see, once per request, without a stack: a restart under load makes many.
    if (!(error instanceof Problem) && (problem.code === "503-02" || problem.code === "503-03"))
      request.log.error(
        { code: (error as { code?: unknown }).code, reason: (error as Error).message },
        "store failure",
      );
    else if (problem.status >= 500 && !(error instanceof Problem))
      request.log.error({ err: error }, "unexpected fault");
    return reply.code(problem.status).headers(problem.headers).type(contentType).send(body);
  });
  app.setNotFoundHandler(async (request) => {
    throw noOperation(request);
  });
  return app;
}
