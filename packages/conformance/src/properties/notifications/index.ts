// Properties of the notifications: lists and acknowledgement, the model of both versions, the behaviours where the
// requirement is silent, and the payload schemas.
import type { Property } from "../../property.js";
import { notificationBehaviourProperties } from "./behaviours.js";
import { listProperties } from "./lists.js";
import { notificationModel } from "./model.js";
import { payloadSchemaProperties } from "./payload-schemas.js";

/** Every property of the notifications. */
export const notificationProperties: Property[] = [
  ...listProperties,
  notificationModel,
  ...notificationBehaviourProperties,
  ...payloadSchemaProperties,
];
