// Send a document (upload address, then the signed PUT) and Download a document (302, then the signed address).
import { createHash, randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  acknowledge,
  advanceClock,
  expectStatus,
  expectThat,
  list,
  submission,
  submit,
  transition,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Answer, Session } from "../../session.js";
import { componentSchema, enums, MAX_DOCUMENT_BYTES } from "@lrg/spec";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes);
const checksumOf = (bytes: Buffer) => sha256(bytes).digest("base64");
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const documentTypes = [...enums.DocumentTypeCode];

/** Asks for an upload address. */
function uploadUrl(session: Session, data: Record<string, unknown>): Promise<Answer> {
  return session.call("POST", "/v0/documents/url", { json: { data } });
}

/** A new upload address for `bytes`; answers the address and the document id. */
async function newUpload(session: Session, bytes: Buffer, type = "TR1"): Promise<{ url: string; documentId: string }> {
  const answer = await uploadUrl(session, {
    document_type: type,
    file_length: bytes.length,
    file_sha256: checksumOf(bytes),
  });
  expectStatus(answer, 200, "upload address");
  const data = (answer.body as { data: { upload_url: string; document_id: string } }).data;
  return { url: data.upload_url, documentId: data.document_id };
}

/** PUTs bytes to an upload address with exactly the headers given (no credentials: the address is pre-signed). */
function put(session: Session, url: string, body: Buffer, headers: Record<string, string>): Promise<Answer> {
  return session.call("PUT", url, {
    as: null,
    body,
    headers: { "content-type": "application/octet-stream", ...headers },
  });
}

const checksumLength: Property = {
  id: "documents.checksum-length",
  rows: ["R142", "R034", "R056", "R033", "R036", "R146", "R067"],
  title:
    "file_sha256 is exactly 44 characters: the base64 SHA-256 of any file gets an upload address (200, a document_id); 43, 45 or any other length is refused with 400",
  requires: ["writes"],
  runs: 20,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.constantFrom(...documentTypes),
        async (bytes, type) => {
          const answer = await uploadUrl(session, {
            document_type: type,
            file_length: bytes.length,
            file_sha256: checksumOf(Buffer.from(bytes)),
          });
          expectStatus(answer, 200, "a 44-character checksum");
        },
      ),
      Math.ceil(context.defaultRuns / 2),
    );
    await context.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.oneof(
          fc.constantFrom(43, 45),
          fc.integer({ min: 0, max: 100 }).filter((n) => n !== 44),
        ),
        fc.nat(),
        async (bytes, length, salt) => {
          const checksum = checksumOf(Buffer.from(bytes));
          const padding = Array.from({ length: Math.max(0, length - 44) }, (_, i) => BASE64[(salt + i) % 64]).join("");
          const wrong = `${checksum}${padding}`.slice(0, length);
          const answer = await uploadUrl(session, {
            document_type: "TR1",
            file_length: bytes.length,
            file_sha256: wrong,
          });
          expectStatus(answer, 400, `a ${length}-character checksum`);
        },
      ),
    );
  },
};

const documentSize: Property = {
  id: "documents.size-limit",
  rows: ["R140", "R064", "R033"],
  title:
    "file_length is at most 41943040 bytes: 41943040 gets an upload address, 41943041 and more are refused with 400",
  requires: ["writes"],
  runs: 6,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.boolean(), async (excess, atLimit) => {
        const fileLength = atLimit ? MAX_DOCUMENT_BYTES : MAX_DOCUMENT_BYTES + excess;
        const answer = await uploadUrl(session, {
          document_type: "TR1",
          file_length: fileLength,
          file_sha256: checksumOf(Buffer.from("x")),
        });
        expectStatus(answer, atLimit ? 200 : 400, `file_length ${fileLength}`);
      }),
    );
  },
};

type Tamper =
  | "none"
  | "no-checksum"
  | "other-checksum"
  | "other-bytes"
  | "longer-body"
  | "altered-signature"
  | "altered-expires"
  | "other-document"
  | "no-signature";

const uploadSignature: Property = {
  id: "documents.upload-signature",
  rows: ["R057", "R058", "R059", "R062", "R131", "R132", "R035", "R109"],
  title:
    "a PUT with the signed headers and bytes is answered 200 once (409 after); a missing or different checksum header, other bytes or an altered address is refused with 403 and leaves the address usable",
  requires: ["writes", "semantics"],
  runs: 30,
  async check(context) {
    const { session } = context;
    const tampers: Tamper[] = [
      "none",
      "no-checksum",
      "other-checksum",
      "other-bytes",
      "longer-body",
      "altered-signature",
      "altered-expires",
      "other-document",
      "no-signature",
    ];
    await context.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 2048 }),
        fc.constantFrom(...tampers),
        async (raw, tamper) => {
          const bytes = Buffer.from(raw);
          const { url } = await newUpload(session, bytes);
          const checksum = checksumOf(bytes);
          const address = new URL(url);
          let target = url;
          let body = bytes;
          let headers: Record<string, string> = { "x-provider-checksum-sha256": checksum };
          switch (tamper) {
            case "no-checksum":
              headers = {};
              break;
            case "other-checksum":
              headers = { "x-provider-checksum-sha256": checksumOf(Buffer.concat([bytes, Buffer.from("x")])) };
              break;
            case "other-bytes":
              body = Buffer.from(bytes.map((b, i) => (i === 0 ? b ^ 0xff : b)));
              break;
            case "longer-body":
              body = Buffer.concat([bytes, Buffer.from("!")]);
              break;
            case "altered-signature": {
              const signature = String(address.searchParams.get("signature"));
              address.searchParams.set("signature", `${signature[0] === "0" ? "1" : "0"}${signature.slice(1)}`);
              target = address.href;
              break;
            }
            case "altered-expires":
              address.searchParams.set("expires", String(Number(address.searchParams.get("expires")) + 60));
              target = address.href;
              break;
            case "other-document":
              address.pathname = address.pathname.replace(/[^/]+$/, randomUUID());
              target = address.href;
              break;
            case "no-signature":
              address.searchParams.delete("signature");
              target = address.href;
              break;
            case "none":
              break;
          }
          const first = await put(session, target, body, headers);
          // An address without its signature does not match the operation's required parameters (400-02); any
          // other tampering is a signature or a checksum that does not verify (403-01).
          const [status, code] = tamper === "no-signature" ? [400, "400-02"] : [403, "403-01"];
          if (tamper !== "none") {
            expectStatus(first, status, `upload with ${tamper}`);
            expectThat((first.body as { code?: string }).code === code, `problem code ${first.text}`);
          }
          const valid = await put(session, url, bytes, { "x-provider-checksum-sha256": checksum });
          expectStatus(
            valid,
            tamper === "none" ? 409 : 200,
            tamper === "none" ? "a second upload to one address" : `the upload after a refused ${tamper}`,
          );
          if (tamper === "none") expectStatus(first, 200, "upload");
        },
      ),
    );
  },
};

const uploadExpiry: Property = {
  id: "documents.upload-expiry",
  rows: ["R060", "R141"],
  title:
    "an upload address is valid for ten minutes from its generation: a PUT started within them is answered 200, one started after with 403 (403-02)",
  requires: ["control-plane"],
  runs: 6,
  async check(context) {
    const { session } = context;
    await context.assert(
      fc.asyncProperty(fc.boolean(), fc.integer({ min: 0, max: 3600 }), async (inTime, extra) => {
        const bytes = Buffer.from(`expiry ${randomUUID()}`);
        const { url } = await newUpload(session, bytes);
        // A few seconds of margin either side of the ten minutes: requests take real time too.
        await advanceClock(session, inTime ? Math.min(extra, 590) : 605 + extra);
        const answer = await put(session, url, bytes, { "x-provider-checksum-sha256": checksumOf(bytes) });
        expectStatus(
          answer,
          inTime ? 200 : 403,
          inTime ? "an upload within ten minutes" : "an upload after ten minutes",
        );
        if (!inTime) expectThat((answer.body as { code?: string }).code === "403-02", `problem code ${answer.text}`);
      }),
    );
  },
};

const CODE_NAMES = componentSchema("CorrespondenceDocumentTypeCode")["x-lrg-code-names"] as
  Record<string, string> | undefined;

const download: Property = {
  id: "documents.download",
  rows: [
    "R029",
    "R030",
    "R031",
    "R032",
    "R039",
    "R040",
    "R068",
    "R069",
    "R070",
    "R071",
    "R072",
    "R073",
    "R074",
    "R106",
    "R115",
    "R129",
    "R147",
  ],
  title:
    "correspondence documents appear in application information and in the correspondence notification (both versions); each download id answers 302 to an address that answers the PDF without credentials, whose SHA-256 is the id",
  requires: ["control-plane"],
  runs: 8,
  async check(context) {
    const { session } = context;
    const credentials = session.credentials;
    await context.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...[...enums.CorrespondenceDocumentTypeCode]), { minLength: 1, maxLength: 3 }),
        async (codes) => {
          const id = await submit(session, credentials, submission());
          const accepted = await transition(session, id, { to: "ACCEPTED_PRIORITY_PROTECTED" });
          const despatched = await session.sandbox("POST", `/sandbox/v1/applications/${id}/correspondence`, {
            documents: codes,
          });
          expectStatus(despatched, 201, "correspondence");
          const information = await session.call("GET", `/v0/applications/${id}/information`);
          const records = (
            information.body as { data: { correspondence: { documents?: { download_id: string }[] }[] } }
          ).data.correspondence;
          const informed = records.flatMap((r) => r.documents ?? []).map((d) => d.download_id);
          for (const version of ["v1", "v0"] as const) {
            const type =
              version === "v1" ? "application.correspondence-despatched" : "APPLICATION_CORRESPONDENCE_DESPATCHED";
            const [notification] = await list(session, version, credentials, { subject: id, notification_type: type });
            expectThat(notification !== undefined, `no ${type} notification`);
            const data = notification.payload.data as {
              documents: { type: { code: string; name: string }; download_id: string }[];
              registry_reference: string;
              application_request_id: string;
            };
            expectThat(
              data.registry_reference === accepted.registry_reference && data.application_request_id === id,
              `${version} correspondence payload names ${data.registry_reference}/${data.application_request_id}`,
            );
            expectThat(
              data.documents.map((d) => d.type.code).join() === codes.join(),
              `${version} documents ${data.documents.map((d) => d.type.code).join()} for ${codes.join()}`,
            );
            for (const document of data.documents) {
              expectThat(
                !CODE_NAMES ||
                  document.type.name === CODE_NAMES[document.type.code]?.toUpperCase() ||
                  document.type.name === CODE_NAMES[document.type.code],
                `name ${document.type.name} of ${document.type.code}`,
              );
              expectThat(
                informed.includes(document.download_id),
                `download id ${document.download_id} is not in application information`,
              );
            }
          }
          for (const downloadId of informed) {
            const redirect = await session.call("GET", `/v1/documents/${downloadId}`);
            expectStatus(redirect, 302, "download");
            const location = String(redirect.headers["location"]);
            const content = await session.call("GET", new URL(location, session.baseUrl).href, { as: null });
            expectStatus(content, 200, "the download address, without credentials");
            expectThat(
              sha256(content.bytes).digest("hex") === downloadId,
              "the document's SHA-256 is not its download id",
            );
          }
          await acknowledge(
            session,
            "v1",
            credentials,
            (await list(session, "v1", credentials, { subject: id })).map((n) => n.notification_id),
          );
        },
      ),
    );
  },
};

const downloadIds: Property = {
  id: "documents.download-id-format",
  rows: ["R143", "R068", "R032", "R147"],
  title:
    "a download id is 64 lower-case hex characters: any other id is refused with 400; a well-formed id of no document of the caller is answered 404",
  requires: [],
  runs: 25,
  async check(context) {
    const { session } = context;
    const hex = (alphabet: string, min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...alphabet.split("")), minLength: min, maxLength: max });
    const malformed = fc.oneof(
      hex("0123456789abcdef", 1, 63),
      hex("0123456789abcdef", 65, 80),
      hex("0123456789ABCDEF", 64, 64).filter((s) => /[A-F]/.test(s)),
      hex("0123456789abcdefg-_", 64, 64).filter((s) => /[g_-]/.test(s)),
    );
    // A mock answers a well-formed id with its example, which is no PDF: only a target with semantics gets those.
    const wellFormed = session.has("semantics")
      ? [hex("0123456789abcdef", 64, 64).map((id) => ({ id, valid: true }))]
      : [];
    await context.assert(
      fc.asyncProperty(
        fc.oneof(
          malformed.map((id) => ({ id, valid: false })),
          ...wellFormed,
        ),
        async ({ id, valid }) => {
          const answer = await session.call("GET", `/v1/documents/${id}`);
          expectStatus(answer, valid ? 404 : 400, valid ? `download id ${id} of no document` : `download id ${id}`);
        },
      ),
    );
  },
};

/** Properties of uploads and downloads through signed addresses. */
export const transferProperties: Property[] = [
  checksumLength,
  documentSize,
  uploadSignature,
  uploadExpiry,
  downloadIds,
  download,
];
