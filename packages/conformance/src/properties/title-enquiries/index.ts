// Properties of the title enquiries.
export { titleEnquiryProperties } from "./enquiries.js";
