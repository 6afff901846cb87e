import type { FastifyRequest } from "fastify";
import { noteDocumentOwner, type RegistryHandlers } from "../routing.js";
import type { DocumentService } from "./service.js";

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(",") : value);

/** Handlers of Send a document (two calls) and Download a document (redirect, then the signed address). */
export function documentHandlers(
  documents: DocumentService,
  baseUrl: (request: FastifyRequest) => string,
): RegistryHandlers<"createUploadUrl" | "uploadDocument" | "downloadDocument" | "fetchDocumentContent"> {
  return {
    createUploadUrl: async ({ principal, body, request }) => ({
      status: 200,
      body: { data: await documents.createUploadUrl(principal, body.data, baseUrl(request)) },
    }),
    uploadDocument: async ({ params, query, headers, body, request }) => {
      await documents.receiveUpload({
        // Whose document it is, so that the upload is seen as that unit's (the answerSent hook, an error's clock).
        onDocument: (businessUnitId) => noteDocumentOwner(request, businessUnitId),
        documentId: params.document_id,
        query,
        contentLength: header(headers["content-length"]),
        checksum: header(headers["x-provider-checksum-sha256"]),
        body,
      });
      return { status: 200 };
    },
    downloadDocument: async ({ principal, params, request }) => ({
      status: 302,
      headers: { location: await documents.downloadAddress(principal, params.download_id, baseUrl(request)) },
    }),
    fetchDocumentContent: async ({ params, query, request }) => {
      const { document, body } = await documents.openDownload(params.download_id, query, (businessUnitId) =>
        noteDocumentOwner(request, businessUnitId),
      );
      return {
        status: 200,
        headers: {
          "content-type": document.contentType,
          "content-length": String(document.size),
          "content-disposition": `attachment; filename="${document.code}-${document.downloadId.slice(0, 8)}.pdf"`,
        },
        body,
      };
    },
  };
}
