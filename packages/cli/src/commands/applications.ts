// lrg applications submit|show|watch.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Option, type Command } from "commander";
import type { ApplicationInformation, ApplicationStatus, ApplicationSubmission, DocumentTypeCode } from "@lrg/client";
import { ExitWith, parseDuration, table, TimeoutReached, UsageError, type Output } from "../conventions.js";
import { runtimeOf, subcommand, type Runtime } from "../runtime.js";
import { checkDocumentType, checkFile, uploadWithProgress } from "./documents.js";
import { duplicateTracker, notificationLine } from "./notifications.js";

/** How `applications watch` ends, by the application's final status (documented in its help and the README). */
export const WATCH_EXIT: Readonly<Record<string, number>> = {
  COMPLETED: 0,
  VALIDATION_FAILED: 10,
  CANCELLED: 11,
  SYSTEM_ERROR: 12,
};

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function checkApplicationId(id: string): void {
  if (!UUID.test(id)) throw new UsageError(`not an application id (a UUID): ${id}`);
}

type DocumentEntry = { type?: string; document_id?: string; file?: string };

/** Reads a submission file; documents given by `file` (relative to the submission) are checked to exist. */
function readSubmission(path: string): {
  body: Record<string, unknown>;
  files: [string, DocumentEntry & { file: string }][];
} {
  checkFile(path);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${(error as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new UsageError(`${path} must hold a JSON object (an application submission)`);
  const documents = (body.documents ?? {}) as Record<string, DocumentEntry>;
  const files: [string, DocumentEntry & { file: string }][] = [];
  for (const [key, entry] of Object.entries(documents)) {
    if (typeof entry?.file !== "string") continue;
    if (entry.document_id !== undefined) throw new UsageError(`documents.${key} names both a file and a document_id`);
    if (typeof entry.type !== "string") throw new UsageError(`documents.${key} needs a type to upload ${entry.file}`);
    const file = resolve(dirname(path), entry.file);
    checkFile(file);
    files.push([key, { ...entry, file }]);
  }
  return { body, files };
}

/** The information as a person reads it: status, then errors, warnings and correspondence as tables. */
function printInformation(out: Output, info: ApplicationInformation): void {
  const status = info.status;
  const colour =
    status === "COMPLETED" || status.startsWith("ACCEPTED") ? "green" : status === "VALIDATING" ? "yellow" : "red";
  const head = [
    ["Application", info.application_request_id],
    ["Status", out.paint(colour, status)],
    ["Registry reference", info.registry_reference ?? "-"],
    ["Priority", info.priority_timestamp ?? "-"],
  ];
  for (const line of table(head.map(([k, v]) => [`${k}:`, v as string]))) out.line(line);
  out.line("");
  out.line(out.paint("bold", `Errors (${info.errors.length})`));
  if (info.errors.length > 0)
    for (const line of table([
      ["TYPE", "POINTER", "DETAIL"],
      ...info.errors.map((e) => [e.type, e.pointer ?? "-", e.detail]),
    ]))
      out.line(`  ${line}`);
  out.line(out.paint("bold", `Warnings (${info.warnings.length})`));
  for (const warning of info.warnings) out.line(`  ${warning}`);
  const documents = info.correspondence.flatMap((record) =>
    record.documents.map((d) => [record.record_id, d.type.code, d.type.name, d.created_at, d.download_id]),
  );
  out.line(out.paint("bold", `Correspondence (${documents.length})`));
  if (documents.length > 0)
    for (const line of table([["RECORD", "CODE", "NAME", "CREATED", "DOWNLOAD ID"], ...documents]))
      out.line(`  ${line}`);
}

/** How long an application may keep its status before `watch` asks whether the sandbox processes by hand. */
const STALLED_MS = 5_000;

/**
 * When the sandbox's processing is `manual`, an application waits for a transition that only the user can request.
 * Answers the hint that says how to move it, or undefined (processing is automatic, or there is no sandbox token to
 * read the settings with: a registry, not the sandbox).
 */
async function manualProcessingHint(
  runtime: Runtime,
  id: string,
  status: ApplicationStatus,
  until?: string,
): Promise<string | undefined> {
  let processing: string | undefined;
  try {
    const { data } = await runtime.sandbox().GET("/sandbox/v1/settings");
    processing = data?.processing;
  } catch {
    return undefined;
  }
  if (processing !== "manual") return undefined;
  const to = until ?? (status === "VALIDATING" ? "ACCEPTED_PRIORITY_PROTECTED" : "COMPLETED");
  return `the sandbox's processing is manual: ${id} stays ${status} until it is moved, with lrg sandbox transition ${id} ${to} (or lrg sandbox settings set processing=automatic)`;
}

export function registerApplications(program: Command): void {
  const applications = subcommand(program, "applications", "Submit applications and follow them", [
    "lrg applications submit transfer.json",
  ]);

  subcommand(
    applications,
    "submit <file.json>",
    'Submit an application; documents given as {"type": "TR1", "file": "./tr1.pdf"} are uploaded first and their ids filled in',
    [
      "lrg applications submit transfer.json",
      'ID=$(lrg applications submit transfer.json) && lrg applications watch "$ID"',
    ],
  )
    .option(
      "--idempotency-key <key>",
      "the submission's Idempotency-Key (generated when not given; printed with --json)",
    )
    .option("--force", "upload documents that do not look like a PDF, TIFF, GIF or PNG (else refused before sending)")
    .action(async (file: string, flags: { idempotencyKey?: string; force?: boolean }, command: Command) => {
      const runtime = runtimeOf(command);
      const { body, files } = readSubmission(file);
      for (const [, entry] of files) checkDocumentType(runtime.out, entry.file, flags.force === true);
      const client = await runtime.client();
      const uploaded: Record<string, string> = {};
      const documents = body.documents as Record<string, DocumentEntry>;
      for (const [key, entry] of files) {
        const document = await uploadWithProgress(client, runtime.out, entry.file, entry.type as DocumentTypeCode);
        uploaded[key] = document.document_id;
        const { file: _file, ...rest } = entry;
        documents[key] = { ...rest, document_id: document.document_id };
      }
      const submitted = await client.applications.submit(body as unknown as ApplicationSubmission, {
        ...(flags.idempotencyKey !== undefined && { idempotencyKey: flags.idempotencyKey }),
      });
      if (runtime.out.json) runtime.out.data({ ...submitted, uploaded });
      else runtime.out.line(submitted.application_request_id);
    });

  subcommand(applications, "show <id>", "Show an application's status, errors, warnings and correspondence", [
    "lrg applications show 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10",
    "lrg applications show 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10 --json | jq .status",
  ]).action(async (id: string, _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    checkApplicationId(id);
    const client = await runtime.client();
    const info = await client.applications.information(id);
    if (runtime.out.json) runtime.out.data(info);
    else printInformation(runtime.out, info);
  });

  subcommand(
    applications,
    "watch <id>",
    "Follow an application (its notifications and status changes) until a final status or --timeout; the exit code says how it ended: 0 COMPLETED (or --until reached), 10 VALIDATION_FAILED, 11 CANCELLED, 12 SYSTEM_ERROR, 4 the timeout ran out. When the application does not move and the sandbox processes by hand (processing=manual, read with the sandbox token), a hint on stderr says how to move it",
    [
      "lrg applications watch 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10",
      'lrg applications watch "$ID" --until ACCEPTED_PRIORITY_PROTECTED --timeout 30s',
    ],
  )
    .addOption(
      new Option("--until <status>", "also stop (exit 0) when the application reaches this status").choices([
        "ACCEPTED_AWAITING_PRIORITY",
        "ACCEPTED_PRIORITY_PROTECTED",
      ]),
    )
    .option("--interval <seconds>", "seconds between two looks", "1")
    .option(
      "--timeout <duration>",
      "stop with exit code 4 when the application has not ended (or reached --until) by then: 90s, 2m, 1h, seconds; 0 waits without a limit",
      "2m",
    )
    .action(async (id: string, flags: { until?: string; interval: string; timeout: string }, command: Command) => {
      const runtime = runtimeOf(command);
      const { out } = runtime;
      checkApplicationId(id);
      const interval = Number(flags.interval);
      if (!Number.isFinite(interval) || interval <= 0)
        throw new UsageError(`--interval must be a positive number of seconds (got ${flags.interval})`);
      const timeout = parseDuration(flags.timeout);
      const deadline = timeout === 0 ? Infinity : Date.now() + timeout * 1000;
      const client = await runtime.client();
      const seen = new Set<string>();
      const duplicateOf = duplicateTracker();
      let last: ApplicationStatus | undefined;
      let changedAt = Date.now();
      let hinted = false;
      for (;;) {
        // The status first, then the notifications: a change of status and its notification are committed together,
        // so a listing made after the status was read holds the notification of every status seen, the final one's
        // included. (Listing first let a change landing in between end the watch without its notification.)
        const info = await client.applications.information(id);
        // The application's notifications are shown, not acknowledged: a consumer elsewhere still gets them.
        for await (const notification of client.notifications.listAll({ subject: id })) {
          if (seen.has(notification.notification_id)) continue;
          seen.add(notification.notification_id);
          const duplicate = duplicateOf(notification);
          if (out.json) out.data({ notification: notification, duplicate_of: duplicate ?? null });
          else out.line(notificationLine(out, notification, duplicate));
        }
        if (info.status !== last) {
          last = info.status;
          changedAt = Date.now();
          if (out.json) out.data({ status: info.status });
          else out.line(`status ${out.paint("bold", info.status)}`);
        }
        if (flags.until !== undefined && info.status === flags.until) return;
        const exitCode = WATCH_EXIT[info.status];
        if (exitCode !== undefined) {
          if (exitCode === 0) return;
          throw new ExitWith(exitCode);
        }
        if (!hinted && Date.now() - changedAt >= STALLED_MS) {
          hinted = true;
          const hint = await manualProcessingHint(runtime, id, info.status, flags.until);
          if (hint !== undefined) out.note(out.json ? JSON.stringify({ hint }) : `lrg: hint: ${hint}`);
        }
        const left = deadline - Date.now();
        if (left <= 0)
          throw new TimeoutReached(
            `application ${id} is still ${info.status} after --timeout ${flags.timeout}; watch it again, or give a longer --timeout (0 for no limit)`,
          );
        await sleep(Math.min(interval * 1000, left));
      }
    });
}
