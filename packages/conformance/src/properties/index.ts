// Every property of the suite, in the order the runner checks them.
import type { Property } from "../property.js";
import { applicationProperties } from "./application-model.js";
import { attachmentProperties } from "./attachments.js";
import { auditTrailProperties } from "./audit-trail.js";
import { authProperties } from "./auth.js";
import { controlPlaneProperties } from "./control-plane.js";
import { documentProperties } from "./documents.js";
import { failedLoginProperties } from "./failed-logins.js";
import { exampleProperties } from "./examples.js";
import { negativeProperties } from "./negative.js";
import { notificationModel } from "./notification-model.js";
import { notificationProperties } from "./notifications.js";
import { registryBehaviourProperties } from "./registry-behaviour.js";
import { registryProcessingProperties } from "./registry-processing.js";
import { registryRuleProperties } from "./registry-rules.js";
import { titleEnquiryProperties } from "./title-enquiries.js";

/** The whole suite. */
export const allProperties: readonly Property[] = [
  ...exampleProperties,
  ...notificationProperties,
  notificationModel,
  ...applicationProperties,
  ...documentProperties,
  ...registryProcessingProperties,
  ...registryRuleProperties,
  ...registryBehaviourProperties,
  ...titleEnquiryProperties,
  ...attachmentProperties,
  ...authProperties,
  ...failedLoginProperties,
  ...negativeProperties,
  ...controlPlaneProperties,
  ...auditTrailProperties,
];
