// Redoc 2's addresses in the references (`#tag/notifications`, `#operation/createUploadUrl`), still in links people
// keep. Redoc 3 redirects them itself, but only after showing its "No page at this address" for a moment; the
// reference pages replace them before Redoc starts (see adaptReference in build.ts).
import { operationsOf, type DocumentName } from "@lrg/spec";

/** Where Redoc 3 (hash routing) shows an operation, relative to the reference page. */
export function referenceAnchor(operation: { operationId: string; tags: readonly string[] }): string {
  return `#/${operation.tags[0] ?? "default"}/${operation.operationId.toLowerCase()}`;
}

/** Each Redoc 2 address of a document's tags and operations, with the Redoc 3 address it now has. */
export function legacyAnchors(document: DocumentName): Record<string, string> {
  const anchors: Record<string, string> = {};
  for (const operation of operationsOf(document)) {
    const tag = operation.tags[0] ?? "default";
    anchors[`#tag/${tag}`] = `#/${tag}`;
    anchors[`#operation/${operation.operationId}`] = referenceAnchor(operation);
    anchors[`#tag/${tag}/operation/${operation.operationId}`] = referenceAnchor(operation);
  }
  return anchors;
}

/**
 * Runs in the reference page before Redoc: a Redoc 2 address becomes its Redoc 3 one, so that Redoc routes it at
 * once. The page inlines this function's source, so it must stay self-contained.
 */
export function followLegacyAnchor(anchors: Record<string, string>): void {
  const to = anchors[window.location.hash];
  if (to !== undefined) window.history.replaceState(window.history.state, "", to);
}
