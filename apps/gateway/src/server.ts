import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { applicationHandlers } from "./applications/routes.js";
import { ApplicationService } from "./applications/service.js";
import { BasicAuthenticator } from "./auth/basic-auth.js";
import { hashPassword, verifyPassword } from "./auth/passwords.js";
import { Clock } from "./clock.js";
import type { GatewayConfig } from "./config.js";
import { notificationHandlers } from "./notifications/routes.js";
import { NotificationService } from "./notifications/service.js";
import { Metrics } from "./operations/metrics.js";
import { registerOperationsRoutes } from "./operations/routes.js";
import { Problem } from "./problems.js";
import { SandboxState } from "./registry/sandbox-state.js";
import { problemFor, registerOperations } from "./routing.js";
import { createBusinessUnit, sandboxHandlers } from "./sandbox/routes.js";
import { openapi, sandbox } from "./spec/openapi.js";
import { BlobStore } from "./storage/blob-store.js";
import { SqliteStorage } from "./storage/sqlite/sqlite-storage.js";
import { closeTitleEnquiries, titleEnquiryHandlers } from "./title-enquiries/routes.js";
import { documentHandlers } from "./documents/routes.js";
import { DocumentService } from "./documents/service.js";
import { AddressSigner } from "./documents/signing.js";
import { readFileSync } from "node:fs";
import type { TLSSocket } from "node:tls";
import { constants as tlsConstants } from "node:crypto";

export type { GatewayConfig } from "./config.js";

/** What the gateway exposes beside its HTTP interface, for `main.ts` and for tests. */
export interface Gateway {
  app: FastifyInstance;
  storage: SqliteStorage;
  clock: Clock;
  /** Operations of the spec that this build does not answer yet. */
  unimplemented: string[];
  /** The notification service (tests compare its cached pages with fresh reads). */
  notifications: NotificationService;
}

const JSON_BODY_LIMIT = 1024 * 1024;

/** The problem of a request that no operation answers (404-02). */
function noOperation(request: FastifyRequest): Problem {
  return new Problem("404-02", `no operation answers ${request.method} ${request.url.split("?")[0] ?? ""}`);
}
const PROCESSING_INTERVAL_MS = 250;
const RETENTION_INTERVAL_MS = 60_000;

/**
 * Builds the gateway: storage in `config.dataDir` (migrated), the simulated registry, every handled operation of
 * the spec and of the sandbox control plane, and the operational routes. Call `app.listen()` to serve;
 * `app.close()` finishes in-flight requests, stops the registry's background work and closes the store.
 */
export async function createServer(config: GatewayConfig): Promise<Gateway> {
  const storage = new SqliteStorage(config.dataDir);
  const blobs = new BlobStore(config.dataDir);
  await blobs.sweepIncoming();
  const clock = new Clock();
  const state = new SandboxState(storage, clock);
  await state.load();
  const authenticator = new BasicAuthenticator(storage);
  const applications = new ApplicationService({ storage, clock, blobs, state, decisionDelayMs: config.decisionDelayMs });
  const notifications = new NotificationService(storage, clock, () => state.settings.strict_date_times);
  const documents = new DocumentService({
    storage,
    clock,
    blobs,
    signer: new AddressSigner(config.signingSecret),
    log: (error, message) => app.log.error({ err: error }, message),
  });
  const metrics = new Metrics();
  let closing = false;

  // The demo login printed at start always works: created when missing, its password reset when it changed.
  const ensureDemoUser = async () => {
    if (!config.demoUser) return;
    const existing = await storage.findUser(config.demoUser.username);
    if (!existing) await createBusinessUnit(storage, "Demo business unit", config.demoUser);
    else if (!(await verifyPassword(config.demoUser.password, existing.passwordHash))) {
      await storage.setPasswordHash(existing.username, await hashPassword(config.demoUser.password));
    }
  };
  await ensureDemoUser();

  const requestPrefix = randomBytes(3).toString("hex");
  let requestCount = 0;
  const app = Fastify({
    logger: config.logger ? { level: "info" } : false,
    bodyLimit: JSON_BODY_LIMIT,
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // Path parameters as long as a request line can be (Node's 16 KiB header limit): an over-long one reaches
    // validation (400-02) or the signature check (403-01) instead of Fastify's own 414.
    routerOptions: { maxParamLength: 16 * 1024 },
    // A path that is not a valid URL (a broken percent-escape) is bad input like any other: problem+json.
    frameworkErrors: (error, request, reply) => {
      const problem = error.code === "FST_ERR_BAD_URL" ? new Problem("400-02", "the request path is not a valid URL") : problemFor(error);
      void (reply as unknown as FastifyReply)
        .code(problem.status)
        .type("application/problem+json")
        .send(problem.body(request.url.split("?")[0] ?? request.url));
    },
    genReqId: () => `${requestPrefix}-${(requestCount += 1).toString(36)}`,
    forceCloseConnections: "idle",
    ...(config.tls
      ? {
          https: {
            cert: readFileSync(config.tls.cert),
            key: readFileSync(config.tls.key),
            ...(config.tls.clientCa
              ? {
                  ca: readFileSync(config.tls.clientCa),
                  requestCert: true,
                  rejectUnauthorized: config.tls.requireClientCertificate ?? false,
                  // No session resumption: a resumed TLS 1.3 session is reported authorized without the client
                  // presenting its certificate again, so every connection must make a full handshake.
                  secureOptions: tlsConstants.SSL_OP_NO_TICKET,
                  sessionTimeout: 0,
                }
              : {}),
          },
        }
      : {}),
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onSend", async (_request, reply) => {
    // While shutting down, answers end their connection so that close() is not held by keep-alive sockets.
    if (closing) reply.header("connection", "close");
  });
  app.addHook("onResponse", async (request, reply) => {
    metrics.observe(request.method, request.routeOptions.url ?? "unmatched", reply.statusCode, reply.elapsedTime);
  });
  app.setErrorHandler(async (error, request, reply) => {
    // Fastify reads a body before its not-found handler runs: a body refused on a route that does not exist (too
    // large, malformed) is still answered as the missing route.
    const problem = request.is404 ? noOperation(request) : problemFor(error);
    if (problem.status >= 500 && !(error instanceof Problem)) request.log.error({ err: error }, "unexpected fault");
    return reply
      .code(problem.status)
      .headers(problem.headers)
      .type("application/problem+json")
      .send(problem.body(request.url.split("?")[0] ?? request.url));
  });
  app.setNotFoundHandler(async (request) => {
    throw noOperation(request);
  });

  const schemaBase = (request: FastifyRequest) => config.publicUrl ?? `${request.protocol}://${request.host}`;
  const registryHandlers = {
    ...applicationHandlers(applications),
    ...notificationHandlers(notifications, schemaBase),
    ...documentHandlers(documents, schemaBase),
    ...titleEnquiryHandlers({ storage, clock, blobs, dataDir: config.dataDir, ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}) }),
  };
  const unimplemented = registerOperations(app, openapi, registryHandlers, {
    authenticator,
    sandboxToken: config.sandboxToken,
    aliases: (spec) => (spec.path.includes("/notifications") ? ["/api"] : []),
    beforeHandler: async (spec, request) => {
      if ((spec.operation["tags"] as string[]).includes("title-enquiries")) {
        // Mutual TLS: with a client CA configured, title enquiries need a certificate that it signed.
        const socket = request.socket as TLSSocket;
        const presented = socket.authorized && Object.keys(socket.getPeerCertificate?.() ?? {}).length > 0;
        if (config.tls?.clientCa && !presented) {
          throw new Problem("403-03", "a client certificate signed by the operator's certificate authority is required");
        }
        return; // fault injection of the sandbox applies to the lifecycle and notification services only
      }
      const { latency_ms: latency, error_rate: errorRate } = state.settings;
      if (latency > 0) await sleep(latency);
      if (errorRate > 0 && Math.random() < errorRate) {
        throw new Problem("503-01", "the service is unavailable (sandbox fault injection); retry later", { headers: { "retry-after": "1" } });
      }
    },
  });
  const afterClockChange = async () => {
    notifications.forgetPages();
    await applications.decideDue();
    await notifications.purgeExpired();
  };
  registerOperations(app, sandbox, sandboxHandlers({ storage, clock, state, applications, authenticator, afterClockChange, afterReset: ensureDemoUser }), {
    authenticator,
    sandboxToken: config.sandboxToken,
  });
  registerOperationsRoutes(app, storage, metrics, () => closing);

  // The simulated registry's own pace: decisions in automatic processing, and retention.
  let deciding = false;
  const processing = setInterval(() => {
    if (deciding || closing) return;
    deciding = true;
    applications
      .decideDue()
      .catch((error: unknown) => app.log.error({ err: error }, "automatic processing failed"))
      .finally(() => (deciding = false));
  }, PROCESSING_INTERVAL_MS);
  const retention = setInterval(() => {
    notifications.purgeExpired().catch((error: unknown) => app.log.error({ err: error }, "retention failed"));
  }, RETENTION_INTERVAL_MS);
  processing.unref();
  await documents.resumeChecks();
  retention.unref();

  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onClose", async () => {
    clearInterval(processing);
    clearInterval(retention);
    while (deciding) await sleep(10);
    await documents.settled();
    await storage.close();
    closeTitleEnquiries(config.dataDir);
  });

  return { app, storage, clock, unimplemented, notifications };
}
