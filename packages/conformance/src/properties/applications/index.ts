// Properties of the applications: the model of their lifecycle and the day list, the submission's validation rules,
// attaching documents and messages, and the retry after SYSTEM_ERROR.
import type { Property } from "../../property.js";
import { attachmentProperties } from "./attachments.js";
import { applicationModelProperties } from "./model.js";
import { submissionRuleProperties } from "./rules.js";
import { systemErrorProperties } from "./system-error.js";

/** Every property of the applications. */
export const applicationProperties: Property[] = [
  ...applicationModelProperties,
  ...submissionRuleProperties,
  ...systemErrorProperties,
  ...attachmentProperties,
];
