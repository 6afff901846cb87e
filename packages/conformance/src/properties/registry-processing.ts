// The simulated registry's own work, observed from outside: automatic processing of a submission whose
// documents pass or fail their asynchronous checks, and the payload schemas notifications point at.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { advanceClock, expectStatus, expectThat, list, submission, submit, transition, type Notification } from "../driver.js";
import type { Property } from "../property.js";
import type { Session } from "../session.js";

/** Small files of each kind the registry checks for (written here, byte by byte); `supported` when they pass. */
export const SAMPLES: Record<string, { bytes: Buffer; supported: boolean }> = {
  pdf: { bytes: Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"), supported: true },
  png: { bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 7)]), supported: true },
  gif: { bytes: Buffer.concat([Buffer.from("GIF87a"), Buffer.alloc(32, 9)]), supported: true },
  tiff: { bytes: Buffer.concat([Buffer.from([0x4d, 0x4d, 0x00, 0x2a]), Buffer.alloc(32, 5)]), supported: true },
  text: { bytes: Buffer.from("a plain text letter, which the registry does not accept as a document\n"), supported: false },
  protectedPdf: { bytes: Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 3 0 R >>\n%%EOF\n"), supported: false },
};

/** Sends a document with Send a document (both calls); answers its id. */
export async function upload(session: Session, bytes: Buffer): Promise<string> {
  const checksum = createHash("sha256").update(bytes).digest("base64");
  const answer = await session.call("POST", "/v0/documents/url", { json: { data: { document_type: "TR1", file_length: bytes.length, file_sha256: checksum } } });
  expectStatus(answer, 201, "upload address");
  const { upload_url: url, document_id: id } = (answer.body as { data: { upload_url: string; document_id: string } }).data;
  expectStatus(await session.call("PUT", url, { as: null, body: bytes, headers: { "content-type": "application/octet-stream", "x-provider-checksum-sha256": checksum } }), 200, "upload");
  return id;
}

const fileChecks: Property = {
  id: "registry.file-checks",
  rows: ["R063", "R065", "R066", "R135", "R116", "R117", "R042", "R133", "R036"],
  title: "documents are checked after upload: a submission of PDF, TIFF, GIF and PNG files passes automatic processing; one with another type or a password-protected PDF fails validation (errors name each), with attachment notifications for each",
  requires: ["control-plane"],
  runs: 4,
  async check(context) {
    const { session } = context;
    const kinds = Object.keys(SAMPLES);
    try {
      await context.assert(
        fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...kinds), { minLength: 1, maxLength: 3 }), async (chosen) => {
          const ids: string[] = [];
          for (const kind of chosen) ids.push(await upload(session, (SAMPLES[kind] as { bytes: Buffer }).bytes));
          // Give the checks time to finish: a submission that fails on one document while another is still being
          // checked gets no attachment notification for the second (reported as a gateway defect).
          await sleep(300);
          // Automatic processing decides the applications submitted while it is on.
          await session.control("PUT", "/sandbox/v1/settings", { processing: "automatic" });
          const id = await submit(session, session.credentials, submission({ documentIds: ids }));
          let data: { status: string; errors: { type: string; pointer: string | null }[] } = { status: "VALIDATING", errors: [] };
          for (let attempt = 0; attempt < 40 && data.status === "VALIDATING"; attempt += 1) {
            await advanceClock(session, 5);
            data = ((await session.call("GET", `/v0/applications/${id}/information`)).body as { data: typeof data }).data;
            if (data.status === "VALIDATING") await sleep(25);
          }
          const failing = chosen.map((kind, index) => ({ kind, index })).filter(({ kind }) => !SAMPLES[kind]?.supported);
          expectThat(data.status === (failing.length > 0 ? "VALIDATION_FAILED" : "ACCEPTED_PRIORITY_PROTECTED"), `${chosen.join("+")}: status ${data.status}`);
          for (const { index, kind } of failing) {
            expectThat(data.errors.some((e) => e.pointer === `/documents/doc-${index + 1}/document_id`), `no error points at the ${kind} document: ${JSON.stringify(data.errors)}`);
          }
          const notifications = await list(session, "v1", session.credentials, { subject: id });
          chosen.forEach((kind, index) => {
            const type = SAMPLES[kind]?.supported ? "application.attachment-success" : "application.attachment-failed";
            expectThat(
              notifications.some((n) => n.notification_type === type && (n.payload.data as { document_id?: string } | null)?.document_id === ids[index]),
              `no ${type} notification for the ${kind} document`,
            );
          });
        }),
      );
    } finally {
      await session.control("PUT", "/sandbox/v1/settings", { processing: "manual" });
    }
  },
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

const payloadSchemas: Property = {
  id: "notifications.payload-schemas",
  rows: ["R007", "R013", "R151", "R111", "R115", "R121"],
  title: "every notification's payload_schema is an address under a versioned path that serves a JSON schema, and the payload's data validates against it",
  requires: ["control-plane"],
  runs: 3,
  async check(context) {
    const { session } = context;
    const schemas = new Map<string, (data: unknown) => boolean>();
    await context.assert(
      fc.asyncProperty(fc.constantFrom(["ACCEPTED_PRIORITY_PROTECTED", "COMPLETED"], ["ACCEPTED_AWAITING_PRIORITY", "ACCEPTED_PRIORITY_PROTECTED", "CANCELLED"], ["VALIDATION_FAILED"], ["SYSTEM_ERROR"]), async (path) => {
        const id = await submit(session, session.credentials, submission());
        for (const to of path) await transition(session, id, { to });
        if (path[0] === "ACCEPTED_PRIORITY_PROTECTED") await session.control("POST", `/sandbox/v1/applications/${id}/correspondence`, { documents: ["LTR"] }, 201);
        for (const version of ["v0", "v1"] as const) {
          const items: Notification[] = await list(session, version, session.credentials, { subject: id });
          expectThat(items.length > 0, `no ${version} notifications`);
          for (const item of items) {
            expectThat(new URL(item.payload_schema).pathname.includes(`/${version}/`), `payload_schema ${item.payload_schema} has no /${version}/ segment`);
            let validate = schemas.get(item.payload_schema);
            if (!validate) {
              const answer = await session.http.send({ method: "GET", url: item.payload_schema });
              expectThat(answer.status === 200 && /json/.test(answer.headers["content-type"] ?? ""), `${item.payload_schema} answered ${answer.status} ${answer.headers["content-type"] ?? ""}`);
              // Compiled for what it says, not for where it claims to live.
              const { $id: _id, $schema: _schema, ...schema } = JSON.parse(answer.bytes.toString("utf8")) as Record<string, unknown>;
              const compiled = ajv.compile(schema);
              validate = (data: unknown) => compiled(data);
              schemas.set(item.payload_schema, validate);
            }
            expectThat(validate(item.payload.data), `${item.notification_type} payload.data does not validate against ${item.payload_schema}`);
          }
        }
      }),
    );
  },
};

/** Properties of the simulated registry's processing. */
export const registryProcessingProperties: Property[] = [fileChecks, payloadSchemas];
