import type { FastifyInstance } from "fastify";
import type { Storage } from "../storage/storage.js";
import type { Metrics } from "./metrics.js";
/** Health, readiness, metrics, the bundled spec, the payload schemas and the docs. */
export declare function registerOperationsRoutes(app: FastifyInstance, storage: Storage, metrics: Metrics, isClosing: () => boolean): void;
