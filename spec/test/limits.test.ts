// The requirement's limits, patterns and enums are constraints of the spec, not prose.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openapi, sandbox, type JsonObject } from "../src/index.js";

const spec = openapi as JsonObject;
const components = spec["components"] as JsonObject;
const schemas = components["schemas"] as Record<string, JsonObject>;
const schema = (name: string): JsonObject => {
  const found = schemas[name];
  if (!found) throw new Error(`no component schema ${name}`);
  return found;
};
/** Follows a path of property names through `properties`. */
const member = (root: JsonObject, ...names: string[]): JsonObject =>
  names.reduce((node, name) => (node["properties"] as Record<string, JsonObject>)[name] as JsonObject, root);
const operation = (path: string, method: string): JsonObject =>
  ((spec["paths"] as Record<string, JsonObject>)[path] as JsonObject)[method] as JsonObject;
const parameter = (path: string, method: string, name: string): JsonObject =>
  (operation(path, method)["parameters"] as JsonObject[]).find((p) => p["name"] === name) ?? {};

describe("limits of the requirement", () => {
  const cases: [string, () => unknown, unknown][] = [
    ["acknowledge takes at most 100 ids", () => member(schema("AcknowledgeRequest"), "data")["maxItems"], 100],
    ["v1 list answers at most 100", () => member(schema("NotificationListV1"), "data")["maxItems"], 100],
    ["v0 list answers at most 100", () => member(schema("NotificationListV0"), "data")["maxItems"], 100],
    [
      "v1 limit is at most 100",
      () => (parameter("/v1/notifications", "get", "limit")["schema"] as JsonObject)["maximum"],
      100,
    ],
    [
      "v1 status defaults to NEW",
      () => (parameter("/v1/notifications", "get", "status")["schema"] as JsonObject)["default"],
      "NEW",
    ],
    ["file_sha256 is 44 characters (min)", () => schema("FileSha256")["minLength"], 44],
    ["file_sha256 is 44 characters (max)", () => schema("FileSha256")["maxLength"], 44],
    [
      "file_length is at most 41943040",
      () => member(schema("UploadUrlRequest"), "data", "file_length")["maximum"],
      41943040,
    ],
    ["file_length is at least 1", () => member(schema("UploadUrlRequest"), "data", "file_length")["minimum"], 1],
    ["download_id is 64 lower-case hex", () => schema("DownloadId")["pattern"], "^[0-9a-f]{64}$"],
    ["registry_reference is 7 of A-Z0-9", () => schema("RegistryReference")["pattern"], "^[A-Z0-9]{7}$"],
    [
      "priority_timestamp has milliseconds and Z",
      () => member(schema("ApplicationInformation"), "data", "priority_timestamp")["pattern"],
      schema("MillisecondDateTime")["pattern"],
    ],
    [
      "v1 subject_type is APPLICATION only",
      () => member(schema("NotificationV1Base"), "subject_type")["enum"],
      ["APPLICATION"],
    ],
    [
      "v0 subject_type is LAND_REGISTER_APPLICATION",
      () => member(schema("NotificationV0Base"), "subject_type")["enum"],
      ["LAND_REGISTER_APPLICATION"],
    ],
    ["notification status is NEW or ACKNOWLEDGED", () => schema("NotificationStatus")["enum"], ["NEW", "ACKNOWLEDGED"]],
    [
      "v0 acknowledge answers not_found",
      () => member(schema("AcknowledgeResponseV0"), "data")["required"],
      ["acknowledged", "not_found"],
    ],
    [
      "v1 acknowledge answers acknowledged only",
      () => member(schema("AcknowledgeResponseV1"), "data")["required"],
      ["acknowledged"],
    ],
  ];
  it.each(cases)("%s", (_name, actual, want) => {
    expect(actual()).toEqual(want);
  });

  it("v0 spells the event-time filters occured_* and v1 occurred_*", () => {
    const names = (path: string) => (operation(path, "get")["parameters"] as JsonObject[]).map((p) => p["name"]);
    expect(names("/v0/notifications")).toEqual(expect.arrayContaining(["occured_after", "occured_before"]));
    expect(names("/v1/notifications")).toEqual(
      expect.arrayContaining(["occurred_after", "occurred_before", "subject_type"]),
    );
    expect(names("/v0/notifications")).not.toContain("subject_type");
  });

  it("lists every notification type of the requirement", () => {
    expect(schema("NotificationTypeV1")["enum"]).toEqual([
      "application.accepted-priority-protected",
      "application.accepted-priority-pending",
      "application.validation-failed",
      "application.error",
      "application.correspondence-despatched",
      "application.attachment-success",
      "application.attachment-failed",
      "application.message-success",
      "application.message-failed",
      "application.cancelled",
      "application.completed",
    ]);
    expect(schema("NotificationTypeV0")["enum"]).toEqual(
      expect.arrayContaining([
        "APPLICATION_ACCEPTED_ON_DAY_LIST",
        "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST",
        "APPLICATION_VALIDATION_FAILED",
        "SYSTEM_ERROR",
        "APPLICATION_CANCELLED",
        "APPLICATION_COMPLETED",
      ]),
    );
  });

  it("notifications are a oneOf discriminated by notification_type, one branch per type", () => {
    for (const version of ["V0", "V1"]) {
      const union = schema(`Notification${version}`);
      expect((union["discriminator"] as JsonObject)["propertyName"]).toBe("notification_type");
      expect((union["oneOf"] as JsonObject[]).length).toBe(
        (schema(`NotificationType${version}`)["enum"] as string[]).length,
      );
    }
  });

  it("the correspondence document codes are exactly the requirement's table", () => {
    expect(schema("CorrespondenceDocumentTypeCode")["enum"]).toEqual([
      "ATP",
      "CAN",
      "CMT",
      "CRD",
      "DSR",
      "ECM",
      "ECR",
      "EC6",
      "LRP",
      "LTR",
      "OCD",
      "OCP",
      "OCR",
      "PCD",
      "RCS",
      "REG",
      "ROA",
      "TID",
    ]);
  });

  it("application statuses include the requirement's five and the two outcomes", () => {
    expect(schema("ApplicationStatus")["enum"]).toEqual(
      expect.arrayContaining([
        "VALIDATING",
        "VALIDATION_FAILED",
        "ACCEPTED_AWAITING_PRIORITY",
        "ACCEPTED_PRIORITY_PROTECTED",
        "SYSTEM_ERROR",
        "COMPLETED",
        "CANCELLED",
      ]),
    );
  });

  it("documents the date-ordering problem (400-01) on both list operations", () => {
    for (const path of ["/v0/notifications", "/v1/notifications"]) {
      const response = (operation(path, "get")["responses"] as Record<string, JsonObject>)["400"] as JsonObject;
      const examples = ((response["content"] as JsonObject)["application/problem+json"] as JsonObject)[
        "examples"
      ] as Record<string, JsonObject>;
      const codes = Object.values(examples).map((e) => (e["value"] as JsonObject)["code"]);
      expect(codes).toContain("400-01");
    }
  });
});

describe("date-time patterns", () => {
  // Every component schema whose example is a date and a time, of both documents (found, not listed).
  const dateTimes = [openapi, sandbox].flatMap((document) =>
    Object.entries((document["components"] as { schemas: Record<string, JsonObject> }).schemas).filter(
      ([, candidate]) => typeof candidate["example"] === "string" && /^\d{4}-\d{2}-\d{2}T/.test(candidate["example"]),
    ),
  );
  const byName = [...new Map(dateTimes).entries()];
  /** The schema's own example moved to another date (and time, when given). */
  const moved = (example: string, date: string, time?: string) =>
    example.replace(/^\d{4}-\d{2}-\d{2}/, date).replace(/T\d{2}:\d{2}:\d{2}/, (found) => (time ? `T${time}` : found));

  it("finds the date-time schemas", () => {
    expect(byName.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "QueryDateTime",
        "RegistryDateTime",
        "MillisecondDateTime",
        "ZonelessDateTime",
        "SandboxDateTime",
      ]),
    );
  });

  const cases: [string, { date: string; time?: string; admitted: boolean }][] = [
    ["29 February of a leap year", { date: "2024-02-29", admitted: true }],
    ["29 February of a year divisible by 400", { date: "2000-02-29", admitted: true }],
    ["31 December, a second before midnight", { date: "2025-12-31", time: "23:59:59", admitted: true }],
    ["30 April", { date: "2025-04-30", admitted: true }],
    ["month 13", { date: "2025-13-01", admitted: false }],
    ["month 00", { date: "2025-00-01", admitted: false }],
    ["day 00", { date: "2025-01-00", admitted: false }],
    ["30 February", { date: "2025-02-30", admitted: false }],
    ["29 February of a common year", { date: "2023-02-29", admitted: false }],
    ["29 February of a century not divisible by 400", { date: "1900-02-29", admitted: false }],
    ["31 April", { date: "2025-04-31", admitted: false }],
    ["32 January", { date: "2025-01-32", admitted: false }],
    ["hour 24", { date: "2025-01-01", time: "24:00:00", admitted: false }],
    ["minute 60", { date: "2025-01-01", time: "12:60:00", admitted: false }],
    ["a leap second", { date: "2016-12-31", time: "23:59:60", admitted: false }],
  ];
  it.each(byName.flatMap(([name, dateTime]) => cases.map(([what, c]) => [name, what, dateTime, c] as const)))(
    "%s: %s",
    (_name, _what, dateTime, { date, time, admitted }) => {
      const value = moved(String(dateTime["example"]), date, time);
      expect(new RegExp(String(dateTime["pattern"]), "u").test(value), value).toBe(admitted);
    },
  );
});

describe("file_sha256 pattern", () => {
  const pattern = new RegExp(String(schema("FileSha256")["pattern"]));
  it("accepts the base64 SHA-256 of any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        expect(createHash("sha256").update(bytes).digest("base64")).toMatch(pattern);
      }),
    );
  });
  it("accepts only strings that decode to exactly 32 bytes", () => {
    const base64 = fc.string({
      unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="),
      minLength: 40,
      maxLength: 48,
    });
    fc.assert(
      fc.property(base64, (candidate) => {
        if (pattern.test(candidate)) {
          const decoded = Buffer.from(candidate, "base64");
          expect(decoded.length).toBe(32);
          expect(decoded.toString("base64")).toBe(candidate);
        }
      }),
    );
  });
  it.each([43, 45])("refuses %i characters", (length) => {
    const digest = createHash("sha256").update("x").digest("base64");
    const candidate = length < 44 ? digest.slice(0, length) : `${digest}A`;
    expect(candidate).toHaveLength(length);
    expect(candidate).not.toMatch(pattern);
  });
});

describe("application state machine (x-lrg-transitions)", () => {
  const statuses = schema("ApplicationStatus")["enum"] as string[];
  const transitions = schema("ApplicationStatus")["x-lrg-transitions"] as JsonObject[];
  const v1Types = schema("NotificationTypeV1")["enum"] as string[];
  const v0Types = schema("NotificationTypeV0")["enum"] as string[];

  it("holds the requirement's one transition: the day list reopening", () => {
    expect(transitions).toContainEqual(
      expect.objectContaining({ from: "ACCEPTED_AWAITING_PRIORITY", to: "ACCEPTED_PRIORITY_PROTECTED" }),
    );
  });

  it.each(transitions.map((t) => [`${String(t["from"])} → ${String(t["to"])}`, t] as const))(
    "%s names known statuses and notification types",
    (_name, t) => {
      expect(statuses).toContain(t["from"]);
      expect(statuses).toContain(t["to"]);
      const notifications = t["notifications"] as JsonObject;
      expect(v1Types).toContain(notifications["v1"]);
      expect(v0Types).toContain(notifications["v0"]);
    },
  );

  it("leaves the terminal statuses without a way out", () => {
    for (const terminal of ["VALIDATION_FAILED", "SYSTEM_ERROR", "COMPLETED", "CANCELLED"]) {
      expect(transitions.filter((t) => t["from"] === terminal)).toEqual([]);
    }
  });
});

describe("correspondence document names (x-lrg-code-names)", () => {
  it("names every code of the requirement's table, and only those", () => {
    const codes = schema("CorrespondenceDocumentTypeCode");
    expect(Object.keys(codes["x-lrg-code-names"] as JsonObject).sort()).toEqual(
      [...(codes["enum"] as string[])].sort(),
    );
  });
});

describe("readiness runs' lists of checks", () => {
  const sandboxSchemas = (sandbox as JsonObject)["components"] as JsonObject;
  const named = (name: string) => (sandboxSchemas["schemas"] as Record<string, JsonObject>)[name] as JsonObject;
  const checkNames = named("ReadinessCheckName")["enum"] as string[];

  // The bound is not the number of checks, so that adding a check is its name in ReadinessCheckName alone.
  it.each(["ReadinessRunRequest", "ReadinessRun", "ReadinessRunSummary"])(
    "%s has room for every check the spec names (maxItems at least the length of ReadinessCheckName)",
    (name) => {
      expect(member(named(name), "checks")["maxItems"]).toBeGreaterThanOrEqual(checkNames.length);
    },
  );

  it("ReadinessRunRequest names each check at most once, from ReadinessCheckName", () => {
    const checks = member(named("ReadinessRunRequest"), "checks");
    expect(checks["uniqueItems"]).toBe(true);
    expect((checks["items"] as Record<string, unknown>)["enum"]).toEqual(checkNames);
  });

  it("ReadinessEvidence holds every observation a run keeps (maxItems is the most a run records)", () => {
    expect(member(named("ReadinessEvidence"), "observations")["maxItems"]).toBe(
      member(named("ReadinessRun"), "observations", "recorded")["maximum"],
    );
  });
});
