// file: upload-document.ts
import { createGatewayClient, DocumentSizeError, NetworkError, SignatureError } from "@lrg/client";

const client = createGatewayClient({ baseUrl: "http://127.0.0.1:8080", username: "demo", password: "demo-password" });

try {
  const { document_id } = await client.uploadDocument("examples/tr1-signed.pdf", {
    documentType: "TR1",
    onProgress: ({ phase, loaded, total }) => console.log(phase, loaded, "of", total),
  });
  console.log("name it in the submission as", document_id);
} catch (error) {
  if (error instanceof DocumentSizeError) console.error("refused before sending:", error.message);
  else if (error instanceof SignatureError) console.error("the upload address refused the bytes:", error.code);
  else if (error instanceof NetworkError) console.error("the connection failed; upload again:", error.message);
  else throw error;
}
