#!/usr/bin/env node
// Writes tr1-signed.pdf: a one-page PDF that reads like a signed TR1 (a transfer of whole), small and
// unencrypted, so that the guides' uploads pass the gateway's document checks. It draws the page with the
// gateway's own PDF writer (build first: `npm start` or `npx pnpm@10.34.8 exec turbo run build`). The docs tests
// check that the committed file is what this script writes.
import { writeFileSync } from "node:fs";
import { renderPdf } from "../apps/gateway/dist/registry/pdf.js";

/** The PDF's bytes; the same every time (no dates, no random ids). */
export function samplePdf() {
  return renderPdf("Transfer of whole of registered title(s)  TR1", [
    "1 Title number(s) of the property: ZZ100001",
    "2 Property: 1 Sample Row, Exampleton",
    "3 Date: 14 February 2025",
    "4 Transferor: Alex Example and Sam Example",
    "5 Transferee: Robin Sample",
    "Signed as a deed by Alex Example   /s/ A. Example",
    "Signed as a deed by Sam Example    /s/ S. Example",
    "SAMPLE DOCUMENT FOR THE GATEWAY SANDBOX - NOT A REAL TRANSFER",
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL("tr1-signed.pdf", import.meta.url), samplePdf());
}
