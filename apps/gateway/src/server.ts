import { randomBytes } from "node:crypto";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { applicationHandlers } from "./applications/routes.js";
import { AttachmentService } from "./applications/attachments.js";
import { auditHandlers } from "./audit/routes.js";
import { AuditTrail } from "./audit/trail.js";
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
import type { RegistryOperations, SandboxOperations } from "./operation-types.js";
import { registryPolicies } from "./policies.js";
import { errorAnswer, noOperation, registerOperations, type RegistryHandlers } from "./routing.js";
import { createBusinessUnit, sandboxHandlers } from "./sandbox/routes.js";
import { emptyHooks } from "./hooks.js";
import { installReadiness } from "./readiness/install.js";
import { ControlTokens } from "./sandbox/tokens.js";
import { openBlobStore } from "./storage/blobs/open-blob-store.js";
import { openStorage } from "./storage/open-storage.js";
import type { Storage } from "./storage/storage.js";
import { titleEnquiries } from "./title-enquiries/routes.js";
import { ensureDemoCertificates, type DemoCertificates } from "./tls/demo-certificates.js";
import { documentHandlers } from "./documents/routes.js";
import { jsonDepth, MAX_JSON_DEPTH } from "./http/json-depth.js";
import { DEADLINE_CHECK_INTERVAL_MS, DEFAULT_LIMITS, limitServer } from "./http/limits.js";
import { humanLog } from "./http/human-log.js";
import { requestForLog } from "./http/request-log.js";
import { DocumentService } from "./documents/service.js";
import { AddressSigner } from "./documents/signing.js";
import { readFileSync } from "node:fs";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { constants as tlsConstants } from "node:crypto";

export type { GatewayConfig } from "./config.js";

/** What the gateway exposes beside its HTTP interface, for `main.ts` and for tests. */
export interface Gateway {
  app: FastifyInstance;
  /** The store behind the gateway, as its interface (the backend is chosen at start). */
  storage: Storage;
  clock: Clock;
  /** Operations of the spec that this build does not answer yet. */
  unimplemented: string[];
  /** The notification service (tests compare its cached pages with fresh reads). */
  notifications: NotificationService;
  /**
   * Serves the same routes over HTTPS with mutual TLS as well, on another port: the demo certificates of the data
   * directory (made on first use) give the server certificate and the client CA. Answers the address and the files.
   */
  listenMutualTls(options: {
    port: number;
    host: string;
  }): Promise<{ address: string; certificates: DemoCertificates }>;
}

/** The TLS options of a server whose title enquiries may check a client certificate signed by `clientCa`. */
function tlsOptions(tls: {
  cert: string;
  key: string;
  clientCa?: string | undefined;
  requireClientCertificate?: boolean | undefined;
}) {
  return {
    cert: readFileSync(tls.cert),
    key: readFileSync(tls.key),
    ...(tls.clientCa
      ? {
          ca: readFileSync(tls.clientCa),
          requestCert: true,
          rejectUnauthorized: tls.requireClientCertificate ?? false,
          // No session resumption: a resumed TLS 1.3 session is reported authorized without the client
          // presenting its certificate again, so every connection must make a full handshake.
          secureOptions: tlsConstants.SSL_OP_NO_TICKET,
          sessionTimeout: 0,
        }
      : {}),
  };
}

const JSON_BODY_LIMIT = 1024 * 1024;

const PROCESSING_INTERVAL_MS = 250;
const RETENTION_INTERVAL_MS = 60_000;

/**
 * Builds the gateway: storage in `config.dataDir` (migrated), the simulated registry, every handled operation of
 * the spec and of the sandbox control plane, and the operational routes. Call `app.listen()` to serve;
 * `app.close()` finishes in-flight requests, stops the registry's background work and closes the store.
 */
export async function createServer(config: GatewayConfig): Promise<Gateway> {
  // The blob store first: a configuration it refuses then leaves no database open.
  const blobs = await openBlobStore(config);
  const storage = await openStorage(config);
  // A blob directory shared by instances keeps other instances' writes in progress (an hour is past any upload).
  await blobs.sweepIncoming(config.databaseUrl ? 60 * 60_000 : 0);
  const clock = new Clock();
  const state = new SandboxState(storage, clock);
  await state.load();
  const authenticator = new BasicAuthenticator(storage, { now: () => clock.nowMs() });
  const hooks = emptyHooks();
  const log = (error: unknown, message: string) => app.log.error({ err: error }, message);
  const readiness = await installReadiness({ storage, clock, blobs, state, hooks, log });
  const applications = new ApplicationService({
    storage,
    clock,
    blobs,
    state,
    decisionDelayMs: config.decisionDelayMs,
    hooks: hooks.registry,
  });
  const attachments = new AttachmentService({ storage, clock, state });
  const notifications = new NotificationService(
    storage,
    clock,
    (businessUnitId) => state.settingsOf(businessUnitId).strict_date_times,
  );
  const documents = new DocumentService({
    storage,
    clock,
    blobs,
    signer: new AddressSigner(config.signingSecret),
    log,
    hooks: hooks.registry,
  });
  const metrics = new Metrics();
  metrics.include(() => authenticator.metrics());
  let closing = false;

  // The demo login printed at start always works: created when missing, its password reset when it changed.
  const ensureDemoUser = async () => {
    if (!config.demoUser) return;
    const existing = await storage.findUser(config.demoUser.username);
    // Instances starting together on one database race to create it: the loser finds the winner's.
    if (!existing)
      await createBusinessUnit(storage, "Demo business unit", config.demoUser).catch(async (error: unknown) => {
        if (!(await storage.findUser(config.demoUser!.username))) throw error;
      });
    else if (!(await verifyPassword(config.demoUser.password, existing.passwordHash))) {
      await storage.setPasswordHash(existing.username, await hashPassword(config.demoUser.password));
    }
  };
  await ensureDemoUser();

  const requestPrefix = randomBytes(3).toString("hex");
  let requestCount = 0;
  const limits = { ...DEFAULT_LIMITS, ...config.limits };
  const app = Fastify({
    logger: config.logger
      ? {
          level: "info",
          serializers: { req: requestForLog },
          ...(config.logFormat === "human" ? { stream: humanLog() } : {}),
        }
      : false,
    http: { connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS },
    bodyLimit: JSON_BODY_LIMIT,
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

  // Another instance on the same store changed the sandbox state or a password: read it again, forget what was derived.
  storage.onStateChanged(async () => {
    authenticator.forget();
    await state.load().then(
      () => notifications.forgetPages(),
      (error: unknown) => app.log.error({ err: error }, "reloading the sandbox state failed"),
    );
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
    // While shutting down, answers end their connection so that close() is not held by keep-alive sockets; an answer
    // given before its request's body arrived (refused credentials, a refused upload) ends it too, so that the rest
    // of the body is not read.
    if (closing || !request.raw.complete) reply.header("connection", "close");
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

  const titles = titleEnquiries({
    storage,
    clock,
    blobs,
    settings: (businessUnitId) => state.settingsOf(businessUnitId),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    hooks: hooks.registry,
  });
  const schemaBase = (request: FastifyRequest) => config.publicUrl ?? `${request.protocol}://${request.host}`;
  const registryHandlers: RegistryHandlers = {
    ...applicationHandlers(applications, attachments),
    ...notificationHandlers(notifications, schemaBase, hooks.registry),
    ...documentHandlers(documents, schemaBase),
    ...titles.handlers,
  };
  const unimplemented = registerOperations<RegistryOperations>(app, "registry", registryHandlers, {
    authenticator,
    policies: registryPolicies((businessUnitId) => state.settingsOf(businessUnitId)),
    bodyTimeoutMs: limits.bodyTimeoutMs,
    onAnswer: (operation, request, reply, payload) => hooks.registry.answerSent?.(operation, request, reply, payload),
  });
  const controlTokens = new ControlTokens(storage, config.sandboxToken);
  const afterClockChange = async () => {
    notifications.forgetPages();
    for (const hook of hooks.afterClockChange) await hook();
    await applications.decideDue();
    await notifications.purgeExpired();
  };
  const afterReset = async () => {
    for (const hook of hooks.afterReset) hook();
    titles.reset();
    authenticator.forgetFailures();
    await ensureDemoUser();
  };
  // Every control-plane action is recorded as it is answered; per-unit clocks: `(unit) => clock.nowMs(unit)`.
  const audit = new AuditTrail(storage, (businessUnitId) => clock.nowMs(businessUnitId ?? null));
  registerOperations<SandboxOperations>(
    app,
    "sandbox",
    {
      ...sandboxHandlers({ storage, clock, state, applications, authenticator, afterClockChange, afterReset }),
      ...auditHandlers(audit),
      ...readiness,
    },
    {
      authenticator,
      controlActor: (authorization) => controlTokens.resolve(authorization),
      onAnswer: (operation, request, reply, payload) => audit.record(operation, request, reply, payload),
      bodyTimeoutMs: limits.bodyTimeoutMs,
    },
  );
  registerOperationsRoutes(app, storage, blobs, metrics, () => closing);

  // The simulated registry's own pace: decisions in automatic processing, and retention.
  let deciding = false;
  const processing = setInterval(() => {
    if (deciding || closing) return;
    deciding = true;
    storage
      .exclusively(
        "processing",
        async () => void (await Promise.all([applications.decideDue(), attachments.resolvePending()])),
      )
      .catch((error: unknown) => app.log.error({ err: error }, "automatic processing failed"))
      .finally(() => (deciding = false));
  }, PROCESSING_INTERVAL_MS);
  const retention = setInterval(() => {
    storage
      .exclusively("retention", async () => void (await notifications.purgeExpired()))
      .catch((error: unknown) => app.log.error({ err: error }, "retention failed"));
  }, RETENTION_INTERVAL_MS);
  processing.unref();
  await documents.resumeChecks();
  retention.unref();

  // The mutual TLS listener shares the routes; it stops taking connections with the main one.
  const tlsServers: HttpsServer[] = [];
  const tlsClosed: Promise<void>[] = [];
  app.addHook("preClose", async () => {
    closing = true;
    for (const server of tlsServers) {
      tlsClosed.push(new Promise((resolve) => server.close(() => resolve())));
      server.closeIdleConnections();
    }
  });
  app.addHook("onClose", async () => {
    clearInterval(processing);
    clearInterval(retention);
    while (deciding) await sleep(10);
    await documents.settled();
    for (const hook of hooks.beforeClose) await hook();
    await Promise.all(tlsClosed);
    await storage.close();
  });

  const listenMutualTls: Gateway["listenMutualTls"] = async ({ port, host }) => {
    const certificates = await ensureDemoCertificates(config.dataDir, [host]);
    await app.ready();
    const server = createHttpsServer(
      tlsOptions({ cert: certificates.serverCert, key: certificates.serverKey, clientCa: certificates.caCert }),
      (req, res) => app.routing(req, res),
    );
    server.on("clientError", (_error, socket) => socket.destroy());
    limitServer(server, limits);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    tlsServers.push(server);
    const bound = server.address() as AddressInfo;
    const hostname = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
    return { address: `https://${hostname}:${bound.port}`, certificates };
  };

  return { app, storage, clock, unimplemented, notifications, listenMutualTls };
}
