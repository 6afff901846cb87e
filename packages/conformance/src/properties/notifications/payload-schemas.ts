// The payload schemas notifications point at: served by the target at their published addresses, and each
// notification's data valid against its own.
import { createValidator } from "@lrg/spec/check";
import fc from "fast-check";
import { expectThat, list, submission, submit, transition, type Notification } from "../../driver.js";
import type { Property } from "../../property.js";

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

/** Properties of the notifications' payload schemas. */
export const payloadSchemaProperties: Property[] = [payloadSchemas];
