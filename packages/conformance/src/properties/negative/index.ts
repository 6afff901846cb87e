// Properties of what the gateway refuses: invalid requests of every operation, media types other than JSON, and the
// registry's error envelopes.
import type { Property } from "../../property.js";
import { errorEnvelopeProperties } from "./error-envelopes.js";
import { mediaTypeProperties } from "./media-types.js";
import { negativeRequestProperties } from "./requests.js";

export { expectRefused, negativeRequests } from "./requests.js";

/** Every property of refusals. */
export const negativeProperties: Property[] = [
  ...mediaTypeProperties,
  ...errorEnvelopeProperties,
  ...negativeRequestProperties,
];
