// file: download-document.ts
import { createGatewayClient } from "@lrg/client";

const client = createGatewayClient({ baseUrl: "http://127.0.0.1:8080", username: "demo", password: "demo-password" });
const downloadId = "3b4c1f0e9d2a7c6b5e8f1a2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b";

// To a file (written under a temporary name, renamed when complete)...
const saved = await client.downloadDocument(downloadId, { to: "./completion-sheet.pdf" });
console.log(saved.bytes, "bytes of", saved.contentType);

// ...or as a stream.
const { body, fileName } = await client.downloadDocument(downloadId);
for await (const chunk of body) process.stdout.write(chunk);
console.error("suggested name:", fileName);
