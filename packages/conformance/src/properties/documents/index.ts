// Properties of the documents: uploads to and downloads from signed addresses, an upload's declared length, and the
// registry's checks of an uploaded file.
import type { Property } from "../../property.js";
import { contentLengthProperties } from "./content-length.js";
import { fileCheckProperties } from "./file-checks.js";
import { transferProperties } from "./transfers.js";

/** Every property of the documents. */
export const documentProperties: Property[] = [
  ...transferProperties,
  ...fileCheckProperties,
  ...contentLengthProperties,
];
