import type { FastifyInstance, FastifyRequest } from "fastify";
import { applicationHandlers } from "./applications/routes.js";
import { AttachmentService } from "./applications/attachments.js";
import { auditHandlers } from "./audit/routes.js";
import { AuditTrail } from "./audit/trail.js";
import { ApplicationService } from "./applications/service.js";
import { BasicAuthenticator } from "./auth/basic-auth.js";
import { ensureDemoUser } from "./auth/demo-user.js";
import { Clock } from "./clock.js";
import type { GatewayConfig } from "./config.js";
import { emptyHooks } from "./hooks.js";
import { createApp } from "./http/app.js";
import { DEFAULT_LIMITS } from "./http/limits.js";
import { mutualTlsListeners, type ListenMutualTls } from "./http/mutual-tls.js";
import { notificationHandlers } from "./notifications/routes.js";
import { NotificationService } from "./notifications/service.js";
import { Metrics } from "./operations/metrics.js";
import { registerOperationsRoutes } from "./operations/routes.js";
import type { RegistryOperations, SandboxOperations } from "./operation-types.js";
import { registryPolicies } from "./policies.js";
import { installReadiness, readinessStorePart, type ReadinessStore } from "./readiness/install.js";
import { keepPace } from "./registry/pace.js";
import { SandboxState } from "./registry/sandbox-state.js";
import { registerOperations, type RegistryHandlers } from "./routing.js";
import { sandboxHandlers } from "./sandbox/routes.js";
import { ControlTokens } from "./sandbox/tokens.js";
import { openBlobStore } from "./storage/blobs/open-blob-store.js";
import { openStorage } from "./storage/open-storage.js";
import type { Storage } from "./storage/storage.js";
import { titleEnquiries } from "./title-enquiries/routes.js";
import { documentHandlers } from "./documents/routes.js";
import { DocumentService } from "./documents/service.js";
import { AddressSigner } from "./documents/signing.js";

export type { GatewayConfig } from "./config.js";

/** What the gateway exposes beside its HTTP interface, for `main.ts` and for tests. */
export interface Gateway {
  app: FastifyInstance;
  /** The store behind the gateway, as its interface (the backend is chosen at start), readiness runs' part with it. */
  storage: Storage & ReadinessStore;
  clock: Clock;
  /** Operations of the spec that this build does not answer yet. */
  unimplemented: string[];
  /** The notification service (tests compare its cached pages with fresh reads). */
  notifications: NotificationService;
  /**
   * Serves the same routes over HTTPS with mutual TLS as well, on another port: the demo certificates of the data
   * directory (made on first use) give the server certificate and the client CA. Answers the address and the files.
   */
  listenMutualTls: ListenMutualTls;
}

/** How the gateway is composed beyond its configuration; every member has the deployed gateway's default. */
export interface Composition {
  /**
   * false: readiness never steps into the gateway's work: it is installed on hook points of its own that nothing calls,
   * so the gateway's stay empty for good (its runs can be started, and observe and change nothing). The gateway a
   * benchmark measures what readiness costs against; its requests take the path of a build without readiness. Default
   * true.
   */
  readiness?: boolean;
}

/**
 * Builds the gateway: storage in `config.dataDir` (migrated), the simulated registry, every handled operation of
 * the spec and of the sandbox control plane, and the operational routes. Call `app.listen()` to serve;
 * `app.close()` finishes in-flight requests, stops the registry's background work and closes the store.
 */
export async function createServer(config: GatewayConfig, composition: Composition = {}): Promise<Gateway> {
  // The blob store first: a configuration it refuses then leaves no database open.
  const blobs = await openBlobStore(config);
  const storage = await openStorage(config, [readinessStorePart]);
  // A blob directory shared by instances keeps other instances' writes in progress (an hour is past any upload).
  await blobs.sweepIncoming(config.databaseUrl ? 60 * 60_000 : 0);
  const clock = new Clock();
  const state = new SandboxState(storage, clock);
  await state.load();
  const authenticator = new BasicAuthenticator(storage, { now: () => clock.nowMs() });
  const metrics = new Metrics();
  metrics.include(() => authenticator.metrics());
  let closing = false;
  const limits = { ...DEFAULT_LIMITS, ...config.limits };
  const app = createApp({ config, clock, storage, metrics, limits, closing: () => closing });
  const log = (error: unknown, message: string) => app.log.error({ err: error }, message);
  const hooks = emptyHooks();
  const settingsOf = (businessUnitId: string | null) => state.settingsOf(businessUnitId);
  const { decisionDelayMs } = config;
  const applications = new ApplicationService({ storage, clock, blobs, state, decisionDelayMs, hooks: hooks.registry });
  const admitWaiting = (businessUnitId: string) => applications.admitWaiting(businessUnitId);
  const readinessHooks = composition.readiness === false ? emptyHooks() : hooks;
  const readiness = await installReadiness({ storage, clock, blobs, state, hooks: readinessHooks, log, admitWaiting });
  const attachments = new AttachmentService({ storage, clock, state });
  const notifications = new NotificationService(storage, clock, (unit) => settingsOf(unit).strict_date_times);
  const signer = new AddressSigner(config.signingSecret);
  const documents = new DocumentService({ storage, clock, blobs, signer, log, hooks: hooks.registry });
  const titles = titleEnquiries({
    storage,
    clock,
    blobs,
    settings: settingsOf,
    hooks: hooks.registry,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
  });
  await ensureDemoUser(storage, config.demoUser);

  // Another instance on the same store changed the sandbox state or a password: read it again, forget what was derived.
  storage.onStateChanged(async () => {
    authenticator.forget();
    await state.load().then(
      () => notifications.forgetPages(),
      (error: unknown) => log(error, "reloading the sandbox state failed"),
    );
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
    policies: registryPolicies(settingsOf, (request) =>
      documents.ownerOfAddress(request.params as Record<string, unknown>),
    ),
    bodyTimeoutMs: limits.bodyTimeoutMs,
    onAnswer: (operation, request, reply, payload) => hooks.registry.answerSent?.(operation, request, reply, payload),
  });
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
    await ensureDemoUser(storage, config.demoUser);
  };
  // Every control-plane action is recorded as it is answered; per-unit clocks: `(unit) => clock.nowMs(unit)`.
  const audit = new AuditTrail(storage, (businessUnitId) => clock.nowMs(businessUnitId ?? null));
  const controlTokens = new ControlTokens(storage, config.sandboxToken);
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

  const pace = keepPace({ storage, applications, attachments, notifications, log, closing: () => closing });
  await documents.resumeChecks();
  const mutualTls = mutualTlsListeners(app, config.dataDir, limits);
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onClose", async () => {
    await pace.stop();
    await documents.close();
    for (const hook of hooks.beforeClose) await hook();
    await mutualTls.closed();
    await storage.close();
  });
  return { app, storage, clock, unimplemented, notifications, listenMutualTls: mutualTls.listen };
}
