import type { Handler } from "../routing.js";
import type { ApplicationService } from "./service.js";
/** Handlers of submit-an-application and application information. */
export declare function applicationHandlers(applications: ApplicationService): Record<string, Handler>;
