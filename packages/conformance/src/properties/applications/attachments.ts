// Attach a document and Attach a message (v1): 202 with no body for a pending application, the outcome as a
// notification, the registry's refusals (OC200, OC036, over 4034 characters) in its attach envelope.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import fc from "fast-check";
import {
  expectStatus,
  expectThat,
  list,
  submission,
  submit,
  transition,
  upload,
  type Notification,
} from "../../driver.js";
import type { Property } from "../../property.js";
import type { Answer, Credentials, Session } from "../../session.js";
import { componentSchema, type SpecNode } from "@lrg/spec";
import { SAMPLES } from "../documents/file-checks.js";

/** The longest message Attach a message takes: the spec's bound on `message_text`. */
const MAX_MESSAGE = Number(
  (
    (componentSchema("AttachMessageRequest")["properties"] as Record<string, SpecNode>)["data"]?.[
      "properties"
    ] as Record<string, SpecNode>
  )["message_text"]?.["maxLength"],
);

function attachDocument(session: Session, id: string, documentId: string, as?: Credentials): Promise<Answer> {
  return session.call("POST", `/v1/applications/${id}/attachments`, {
    ...(as ? { as } : {}),
    json: { data: { document_id: documentId, certification_statement_type: "CERTIFIED" } },
  });
}

function attachMessage(session: Session, id: string, text: string, as?: Credentials): Promise<Answer> {
  return session.call("POST", `/v1/applications/${id}/messages`, {
    ...(as ? { as } : {}),
    json: { data: { message_text: text } },
  });
}

/** The first item of the attach envelope `{ errors: [{ type, detail, pointer }] }`. */
function attachError(answer: Answer): { type: string; detail: string; pointer: string | null } {
  const errors = (answer.body as { errors?: { type: string; detail: string; pointer: string | null }[] }).errors;
  expectThat(Array.isArray(errors) && errors.length > 0, `not the attach envelope: ${answer.text.slice(0, 300)}`);
  return errors[0] as { type: string; detail: string; pointer: string | null };
}

/** Waits for the notification about `id` that `matches` (the outcome of an attachment is decided after the 202). */
async function outcome(session: Session, id: string, matches: (n: Notification) => boolean): Promise<Notification> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = (await list(session, "v1", session.credentials, { subject: id })).find(matches);
    if (found) return found;
    await sleep(50);
  }
  throw new Error(`no matching notification about ${id}`);
}

const documentOf = (n: Notification) => (n.payload.data as { document_id?: string } | null)?.document_id;

const outcomes: Property = {
  id: "attach.outcomes",
  rows: ["R116", "R117", "R118", "R119", "R320", "R321"],
  title:
    "a document or message attached to a pending application is answered 202 with no body, then announced: attachment-success for a document that passes its checks, attachment-failed (failure_reason) for one that does not or was never sent, message-success (numeric attachment_id) for a message, message-failed for one of only white space",
  requires: ["semantics", "writes"],
  runs: 8,
  async check(context) {
    const { session } = context;
    const kinds = ["pdf", "png", "protectedPdf", "text", "never-sent", "message", "blank-message"] as const;
    await context.assert(
      fc.asyncProperty(fc.constantFrom(...kinds), fc.string({ minLength: 1, maxLength: 200 }), async (kind, text) => {
        const id = await submit(session, session.credentials, submission());
        if (kind === "message" || kind === "blank-message") {
          const message = kind === "message" ? `${text}.` : " \t\n".repeat(1 + (text.length % 5));
          const answer = await attachMessage(session, id, message);
          expectStatus(answer, 202, "attach a message");
          expectThat(answer.bytes.length === 0, "a 202 with a body");
          const type = kind === "message" ? "application.message-success" : "application.message-failed";
          const announced = await outcome(session, id, (n) => n.notification_type.startsWith("application.message-"));
          expectThat(announced.notification_type === type, `${kind}: ${announced.notification_type}, expected ${type}`);
          const data = announced.payload.data as { attachment_id?: unknown; failure_reason?: unknown };
          expectThat(
            kind === "message" ? Number.isInteger(data.attachment_id) : typeof data.failure_reason === "string",
            `${type} payload ${JSON.stringify(data)}`,
          );
          return;
        }
        const documentId =
          kind === "never-sent" ? randomUUID() : await upload(session, (SAMPLES[kind] as { bytes: Buffer }).bytes);
        const answer = await attachDocument(session, id, documentId);
        expectStatus(answer, 202, "attach a document");
        expectThat(answer.bytes.length === 0, "a 202 with a body");
        const passes = kind !== "never-sent" && SAMPLES[kind]?.supported === true;
        const announced = await outcome(
          session,
          id,
          (n) => n.notification_type.startsWith("application.attachment-") && documentOf(n) === documentId,
        );
        const type = passes ? "application.attachment-success" : "application.attachment-failed";
        expectThat(announced.notification_type === type, `${kind}: ${announced.notification_type}, expected ${type}`);
        if (!passes)
          expectThat(
            typeof (announced.payload.data as { failure_reason?: unknown }).failure_reason === "string",
            "attachment-failed without failure_reason",
          );
      }),
    );
  },
};

const messageLength: Property = {
  id: "attach.message-length",
  rows: ["R322"],
  title:
    "message_text of 1 to 4034 characters is accepted (202); 4035 or more is refused with 400 in the attach envelope, pointing at /data/message_text, and nothing is announced",
  requires: ["semantics", "writes"],
  runs: 12,
  async check(context) {
    const { session } = context;
    const id = await session.fixture("attach.message-length", () => submit(session, session.credentials, submission()));
    await context.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: 1, max: MAX_MESSAGE }),
          fc.integer({ min: MAX_MESSAGE + 1, max: MAX_MESSAGE + 2000 }),
        ),
        async (length) => {
          const answer = await attachMessage(session, id, "m".repeat(length));
          if (length <= MAX_MESSAGE) return expectStatus(answer, 202, `a message of ${length} characters`);
          expectStatus(answer, 400, `a message of ${length} characters`);
          expectThat(
            attachError(answer).pointer === "/data/message_text",
            `the error does not point at /data/message_text: ${answer.text.slice(0, 300)}`,
          );
        },
      ),
      undefined,
      [[MAX_MESSAGE], [MAX_MESSAGE + 1]],
    );
  },
};

const applicationState: Property = {
  id: "attach.application-state",
  rows: ["R323"],
  title:
    "attaching to an unknown application or another business unit's is 404 OC200; to one that is COMPLETED, CANCELLED, VALIDATION_FAILED or SYSTEM_ERROR is 400 OC036; to a VALIDATING, ACCEPTED_AWAITING_PRIORITY or ACCEPTED_PRIORITY_PROTECTED one, 202",
  requires: ["control-plane"],
  runs: 10,
  async check(context) {
    const { session } = context;
    const other = await session.fixture("attach.other-unit", () => session.newBusinessUnit());
    const paths: Record<string, string[]> = {
      VALIDATING: [],
      ACCEPTED_AWAITING_PRIORITY: ["ACCEPTED_AWAITING_PRIORITY"],
      ACCEPTED_PRIORITY_PROTECTED: ["ACCEPTED_PRIORITY_PROTECTED"],
      COMPLETED: ["ACCEPTED_PRIORITY_PROTECTED", "COMPLETED"],
      CANCELLED: ["ACCEPTED_PRIORITY_PROTECTED", "CANCELLED"],
      VALIDATION_FAILED: ["VALIDATION_FAILED"],
      SYSTEM_ERROR: ["SYSTEM_ERROR"],
    };
    const pending = new Set(["VALIDATING", "ACCEPTED_AWAITING_PRIORITY", "ACCEPTED_PRIORITY_PROTECTED"]);
    await context.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(paths), "unknown", "another unit's"),
        fc.boolean(),
        async (state, message) => {
          const attach = (id: string) =>
            message ? attachMessage(session, id, "hello") : attachDocument(session, id, randomUUID());
          let id: string;
          if (state === "unknown") id = randomUUID();
          else if (state === "another unit's") id = await submit(session, other, submission());
          else {
            id = await submit(session, session.credentials, submission());
            for (const to of paths[state] ?? []) await transition(session, id, { to });
          }
          const answer = await attach(id);
          if (pending.has(state)) return expectStatus(answer, 202, `attach to ${state}`);
          const [status, type] = state === "unknown" || state === "another unit's" ? [404, "OC200"] : [400, "OC036"];
          expectStatus(answer, status, `attach to ${state}`);
          expectThat(
            attachError(answer).type === type,
            `attach to ${state}: type ${attachError(answer).type}, expected ${type}`,
          );
        },
      ),
    );
  },
};

/** Properties of Attach a document and Attach a message. */
export const attachmentProperties: Property[] = [outcomes, messageLength, applicationState];
