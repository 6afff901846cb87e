import type { Handler } from "../routing.js";
import type { TitleEnquiryDeps } from "./deps.js";

/** Handlers of the title enquiry services and the Poll Request Service (lands with its own issue). */
export function titleEnquiryHandlers(_deps: TitleEnquiryDeps): Record<string, Handler> {
  return {};
}
