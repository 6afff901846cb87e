// Properties of the sandbox control plane: partial settings, the clock, a unit token's scope, the audit trail.
import type { Property } from "../../property.js";
import { auditTrailProperties } from "./audit-trail.js";
import { sandboxProperties } from "./sandbox.js";

/** Every property of the control plane. */
export const controlPlaneProperties: Property[] = [...sandboxProperties, ...auditTrailProperties];
