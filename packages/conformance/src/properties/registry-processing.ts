// The simulated registry's own work, observed from outside: automatic processing of a submission whose
// documents pass or fail their asynchronous checks, and the payload schemas notifications point at.
import { setTimeout as sleep } from "node:timers/promises";
import { createValidator } from "@lrg/spec/check";
import fc from "fast-check";
import {
  decide,
  EICAR,
  expectThat,
  list,
  submission,
  submit,
  transition,
  upload,
  type Notification,
} from "../driver.js";
import type { Property } from "../property.js";

/** Small files of each kind the registry checks for (written here, byte by byte); `supported` when they pass. */
export const SAMPLES: Record<string, { bytes: Buffer; supported: boolean }> = {
  pdf: {
    bytes: Buffer.from(
      "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    ),
    supported: true,
  },
  png: {
    bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 7)]),
    supported: true,
  },
  gif: { bytes: Buffer.concat([Buffer.from("GIF87a"), Buffer.alloc(32, 9)]), supported: true },
  tiff: { bytes: Buffer.concat([Buffer.from([0x4d, 0x4d, 0x00, 0x2a]), Buffer.alloc(32, 5)]), supported: true },
  text: {
    bytes: Buffer.from("a plain text letter, which the registry does not accept as a document\n"),
    supported: false,
  },
  protectedPdf: {
    bytes: Buffer.from(
      "%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 3 0 R >>\n%%EOF\n",
    ),
    supported: false,
  },
  // JPEG: the requirement admits PDF, TIFF, GIF and PNG only (one registry guide names JPG; the requirement stands).
  jpeg: {
    bytes: Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
      Buffer.alloc(32, 3),
    ]),
    supported: false,
  },
  // A PDF that carries the anti-virus test signature: the virus scan fails it, as a real scanner does.
  infectedPdf: {
    bytes: Buffer.concat([Buffer.from("%PDF-1.7\n% "), EICAR, Buffer.from("\ntrailer\n<< >>\n%%EOF\n")]),
    supported: false,
  },
};

const fileChecks: Property = {
  id: "registry.file-checks",
  rows: ["R063", "R065", "R066", "R135", "R116", "R117", "R042", "R133", "R036", "R304"],
  title:
    "documents are checked after upload: a submission of PDF, TIFF, GIF and PNG files passes automatic processing; one with another type (JPEG too), a password-protected PDF or the EICAR test signature fails validation with a document-valid error pointing at each, with attachment notifications for each",
  requires: ["control-plane"],
  runs: 4,
  async check(context) {
    const { session } = context;
    const kinds = Object.keys(SAMPLES);
    await context.assert(
      fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...kinds), { minLength: 1, maxLength: 3 }), async (chosen) => {
        const ids: string[] = [];
        for (const kind of chosen) ids.push(await upload(session, (SAMPLES[kind] as { bytes: Buffer }).bytes));
        // Give the checks time to finish: a submission that fails on one document while another is still being
        // checked gets no attachment notification for the second (reported as a gateway defect).
        await sleep(300);
        const { id, ...data } = await decide(session, submission({ documentIds: ids }));
        const failing = chosen.map((kind, index) => ({ kind, index })).filter(({ kind }) => !SAMPLES[kind]?.supported);
        expectThat(
          data.status === (failing.length > 0 ? "VALIDATION_FAILED" : "ACCEPTED_PRIORITY_PROTECTED"),
          `${chosen.join("+")}: status ${data.status}`,
        );
        for (const { index, kind } of failing) {
          expectThat(
            data.errors.some(
              (e) => e.type === "document-valid" && e.pointer === `/documents/doc-${index + 1}/document_id`,
            ),
            `no document-valid error points at the ${kind} document: ${JSON.stringify(data.errors)}`,
          );
        }
        const notifications = await list(session, "v1", session.credentials, { subject: id });
        chosen.forEach((kind, index) => {
          const type = SAMPLES[kind]?.supported ? "application.attachment-success" : "application.attachment-failed";
          expectThat(
            notifications.some(
              (n) =>
                n.notification_type === type &&
                (n.payload.data as { document_id?: string } | null)?.document_id === ids[index],
            ),
            `no ${type} notification for the ${kind} document`,
          );
        });
      }),
    );
  },
};

// The payload schemas are served by the target, so they are compiled by an Ajv of their own.
const ajv = createValidator();

const payloadSchemas: Property = {
  id: "notifications.payload-schemas",
  rows: ["R007", "R013", "R151", "R111", "R115", "R121"],
  title:
    "every notification's payload_schema (version 0 and 1) is an address with the requirement's v1 segment that serves a JSON schema, and the payload's data validates against it",
  requires: ["control-plane"],
  runs: 3,
  async check(context) {
    const { session } = context;
    const schemas = new Map<string, (data: unknown) => boolean>();
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ["ACCEPTED_PRIORITY_PROTECTED", "COMPLETED"],
          ["ACCEPTED_AWAITING_PRIORITY", "ACCEPTED_PRIORITY_PROTECTED", "CANCELLED"],
          ["VALIDATION_FAILED"],
          ["SYSTEM_ERROR"],
        ),
        async (path) => {
          const id = await submit(session, session.credentials, submission());
          for (const to of path) await transition(session, id, { to });
          if (path[0] === "ACCEPTED_PRIORITY_PROTECTED")
            await session.control(
              "POST",
              `/sandbox/v1/applications/${id}/correspondence`,
              { documents: ["LTR"] },
              {
                status: 201,
              },
            );
          for (const version of ["v0", "v1"] as const) {
            const items: Notification[] = await list(session, version, session.credentials, { subject: id });
            expectThat(items.length > 0, `no ${version} notifications`);
            for (const item of items) {
              // The requirement: the schemas are published at a versioned address with a v1 segment, for both versions.
              expectThat(
                new URL(item.payload_schema).pathname.includes("/v1/"),
                `${version} payload_schema ${item.payload_schema} has no /v1/ segment`,
              );
              let validate = schemas.get(item.payload_schema);
              if (!validate) {
                const answer = await session.http.send({ method: "GET", url: item.payload_schema });
                expectThat(
                  answer.status === 200 && /json/.test(answer.headers["content-type"] ?? ""),
                  `${item.payload_schema} answered ${answer.status} ${answer.headers["content-type"] ?? ""}`,
                );
                // Compiled for what it says, not for where it claims to live.
                const {
                  $id: _id,
                  $schema: _schema,
                  ...schema
                } = JSON.parse(answer.bytes.toString("utf8")) as Record<string, unknown>;
                const compiled = ajv.compile(schema);
                validate = (data: unknown) => compiled(data);
                schemas.set(item.payload_schema, validate);
              }
              expectThat(
                validate(item.payload.data),
                `${item.notification_type} payload.data does not validate against ${item.payload_schema}`,
              );
            }
          }
        },
      ),
    );
  },
};

/** Properties of the simulated registry's processing. */
export const registryProcessingProperties: Property[] = [fileChecks, payloadSchemas];
