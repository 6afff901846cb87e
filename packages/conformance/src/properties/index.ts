// Every property of the suite, grouped by what it checks (one folder a domain), in the order the runner checks them.
import type { Property } from "../property.js";
import { applicationProperties } from "./applications/index.js";
import { authProperties } from "./auth/index.js";
import { controlPlaneProperties } from "./control-plane/index.js";
import { documentProperties } from "./documents/index.js";
import { exampleProperties } from "./examples.js";
import { negativeProperties } from "./negative/index.js";
import { notificationProperties } from "./notifications/index.js";
import { titleEnquiryProperties } from "./title-enquiries/index.js";

/** The whole suite. */
export const allProperties: readonly Property[] = [
  ...exampleProperties,
  ...notificationProperties,
  ...applicationProperties,
  ...documentProperties,
  ...titleEnquiryProperties,
  ...authProperties,
  ...negativeProperties,
  ...controlPlaneProperties,
];
