/**
 * Writes a small, valid PDF (one A4 page of Helvetica text). The simulated registry uses it for the documents it
 * generates, so that a download opens in any viewer and says what it is.
 */
export declare function renderPdf(title: string, lines: string[]): Buffer;
