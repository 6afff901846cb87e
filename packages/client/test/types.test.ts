// Type tests: checked by `tsc` (the package's `check`), which covers this file; at run time they only confirm that the
// checked functions exist. Each `@ts-expect-error` is one mistake the types must refuse.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type components,
  type DownloadedDocumentFile,
  type DownloadedDocumentStream,
  type NotificationEvent,
  type NotificationV0,
  type NotificationV1,
  type OfficialSearchOutcome,
  type RateLimitError,
  type SandboxComponents,
  type UploadedDocument,
  createSandboxClient,
} from "../src/index.js";
import { clientWith } from "./support/clients.js";

const client = clientWith({ fetch: async () => new Response("{}") });
const APPLICATION_ID = "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";

async function operations() {
  // openapi-fetch answers the spec's types through a mapped type (it strips readOnly/writeOnly markers), so
  // the data is checked to be assignable to the spec's type, and a few members for equality.
  const list = await client.GET("/v1/notifications", { params: { query: { status: "NEW", limit: 100 } } });
  expectTypeOf(list.data).toExtend<components["schemas"]["NotificationListV1"] | undefined>();
  type ListedV1 = NonNullable<typeof list.data>["data"][number];
  expectTypeOf<ListedV1["notification_type"]>().toEqualTypeOf<NotificationV1["notification_type"]>();
  expectTypeOf<ListedV1["subject_type"]>().toEqualTypeOf<"APPLICATION">();
  expectTypeOf(list.error).toExtend<components["schemas"]["Problem"] | undefined>();
  expectTypeOf(list.response).toEqualTypeOf<Response>();

  const v0 = await client.GET("/v0/notifications", { params: { query: { occured_after: "2025-02-20T09:06:29" } } });
  expectTypeOf(v0.data).toExtend<components["schemas"]["NotificationListV0"] | undefined>();
  type ListedV0 = NonNullable<typeof v0.data>["data"][number];
  expectTypeOf<ListedV0["notification_type"]>().toEqualTypeOf<NotificationV0["notification_type"]>();
  expectTypeOf<ListedV0["subject_type"]>().toEqualTypeOf<"LAND_REGISTER_APPLICATION">();
  // @ts-expect-error version 0 spells it occured_after
  await client.GET("/v0/notifications", { params: { query: { occurred_after: "2025-02-20T09:06:29" } } });

  const information = await client.GET("/v0/applications/{id}/information", {
    params: { path: { id: APPLICATION_ID } },
  });
  expectTypeOf(information.data).toExtend<components["schemas"]["ApplicationInformation"] | undefined>();
  // @ts-expect-error the path parameter is required
  await client.GET("/v0/applications/{id}/information");

  const url = await client.POST("/v0/documents/url", {
    body: {
      data: { document_type: "TR1", file_length: 1, file_sha256: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=" },
    },
  });
  expectTypeOf(url.data).toExtend<components["schemas"]["UploadUrlResponse"] | undefined>();
  expectTypeOf<NonNullable<typeof url.data>["data"]["document_id"]>().toEqualTypeOf<string>();
  // @ts-expect-error the body is required
  await client.POST("/v0/documents/url");
  // prettier-ignore
  // @ts-expect-error an unknown document type
  await client.POST("/v0/documents/url", { body: { data: { document_type: "XX9", file_length: 1, file_sha256: "x" } } });

  await client.POST("/v0/applications", {
    params: { header: { "Idempotency-Key": "submission-0001" } },
    body: {} as components["schemas"]["ApplicationSubmission"],
  });
  // @ts-expect-error no such path in the spec
  await client.GET("/v2/notifications");
  // @ts-expect-error acknowledge is a POST
  await client.GET("/v1/notifications/acknowledge");
}

async function workflows() {
  expectTypeOf(await client.uploadDocument("/tmp/tr1.pdf", { documentType: "TR1" })).toEqualTypeOf<UploadedDocument>();
  // @ts-expect-error not a document type code
  await client.uploadDocument("/tmp/tr1.pdf", { documentType: "NOT_A_TYPE" });

  expectTypeOf(
    await client.downloadDocument("0".repeat(64), { to: "/tmp/letter.pdf" }),
  ).toEqualTypeOf<DownloadedDocumentFile>();
  expectTypeOf(await client.downloadDocument("0".repeat(64))).toEqualTypeOf<DownloadedDocumentStream>();

  for await (const notification of client.notifications.listAll()) {
    expectTypeOf(notification).toEqualTypeOf<NotificationV1>();
    // notification_type narrows payload.data to its own schema (generated with emptyObjectsUnknown, so the base's
    // bare `data: object` does not collapse the members to never).
    if (notification.notification_type === "application.completed") {
      expectTypeOf(notification.payload.data.status).toEqualTypeOf<"COMPLETED">();
      expectTypeOf(notification.payload.data.was_subject_to_early_completion).toEqualTypeOf<boolean>();
    }
  }
  for await (const notification of client.notifications.listAll({
    version: "v0",
    occured_after: "2025-02-20T09:06:29",
  })) {
    expectTypeOf(notification).toEqualTypeOf<NotificationV0>();
  }
  // @ts-expect-error created_after belongs to the paging; use `since`
  client.notifications.listAll({ created_after: "2025-02-20T09:06:29" });

  await client.notifications.consume((event) => expectTypeOf(event).toEqualTypeOf<NotificationEvent<NotificationV1>>());
  await client.notifications.consume((event) => expectTypeOf(event.notification).toEqualTypeOf<NotificationV0>(), {
    version: "v0",
  });

  const outcome = await client.officialSearchOfWhole({
    title_number: "ZZ100001",
    external_reference: { reference: "CONV-2025-0042" },
    official_search_of_whole_with_priority: {
      priority_type: "Purchase",
      property_description: "1 Sample Row",
      search_from_date: "2025-03-14",
      registered_proprietors_details_or_applicants_for_first_registration: "Alex Example",
      applicant_party: "Robin Sample",
    },
  });
  expectTypeOf(outcome).toEqualTypeOf<OfficialSearchOutcome>();
  // @ts-expect-error the title number is required
  await client.officialSearchOfWhole({ external_reference: { reference: "x" } });
}

async function controlPlane() {
  const sandbox = createSandboxClient({
    baseUrl: "http://gateway.test",
    token: "t",
    fetch: async () => new Response("{}"),
  });
  const transitions = "/sandbox/v1/applications/{id}/transitions";
  const path = { path: { id: APPLICATION_ID } };
  // A request member with a default may be left out (issue 40): early_completion is false unless given.
  await sandbox.POST(transitions, { params: path, body: { to: "COMPLETED" } });
  await sandbox.POST(transitions, { params: path, body: { to: "COMPLETED", early_completion: true } });
  // @ts-expect-error early_completion is a boolean
  await sandbox.POST(transitions, { params: path, body: { to: "COMPLETED", early_completion: "yes" } });
  // The other request members with a default: a system error's count, a readiness run's time limit, a submission's.
  await sandbox.POST("/sandbox/v1/system-errors", { body: {} });
  await sandbox.POST("/sandbox/v1/readiness-runs", { body: { business_unit_id: APPLICATION_ID } });
  expectTypeOf<Omit<components["schemas"]["ApplicationSubmission"], "submission_warning_understood">>().toExtend<
    components["schemas"]["ApplicationSubmission"]
  >();
  // An answer's members stay required, defaults or not: the gateway always sends them.
  expectTypeOf<SandboxComponents["schemas"]["SandboxSettings"]["strict_date_times"]>().toEqualTypeOf<boolean>();
  expectTypeOf<SandboxComponents["schemas"]["ReadinessRunSummary"]["time_limit_seconds"]>().toEqualTypeOf<number>();
}

describe("types", () => {
  it("are checked by tsc", () => {
    expectTypeOf<RateLimitError["retryAfter"]>().toEqualTypeOf<number | undefined>();
    expect(typeof operations).toBe("function");
    expect(typeof workflows).toBe("function");
    expect(typeof controlPlane).toBe("function");
  });
});
