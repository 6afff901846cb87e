/**
 * Writes a small, valid PDF (one A4 page of Helvetica text). The simulated registry uses it for the documents it
 * generates, so that a download opens in any viewer and says what it is.
 */
export function renderPdf(title, lines) {
    const escape = (text) => text.replace(/[^\x20-\x7E]/g, "?").replace(/([\\()])/g, "\\$1");
    const content = [
        "BT",
        "/F1 18 Tf",
        "56 780 Td",
        `(${escape(title)}) Tj`,
        "/F1 11 Tf",
        "0 -28 Td",
        ...lines.flatMap((line) => [`(${escape(line)}) Tj`, "0 -16 Td"]),
        "ET",
    ].join("\n");
    const objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
        `<< /Title (${escape(title)}) /Producer (Land Registration Gateway sandbox) >>`,
    ];
    let pdf = "%PDF-1.4\n";
    const offsets = [];
    objects.forEach((body, index) => {
        offsets.push(Buffer.byteLength(pdf, "latin1"));
        pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    });
    const xref = Buffer.byteLength(pdf, "latin1");
    pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
    pdf += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
    pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(pdf, "latin1");
}
//# sourceMappingURL=pdf.js.map