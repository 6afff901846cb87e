// The filters of `lrg notifications list`, `tail` and `forward`: the same flags, sent as the same query parameters.
import type { Command } from "commander";
import { enums } from "@lrg/spec/constants";

/** A notification's statuses, as the spec names them (NotificationStatus). */
export const STATUSES = enums.NotificationStatus;

export interface ListFlags {
  readonly status?: (typeof STATUSES)[number];
  readonly type?: string;
  readonly application?: string;
  readonly since?: string;
  readonly filter?: string;
}

/** The list filters as flags (the same on list, tail and forward). */
export function withFilters(command: Command): Command {
  return command
    .option("--type <notification_type>", "only this type, e.g. application.completed")
    .option("--application <id>", "only notifications about this application (its application_request_id)")
    .option("--since <date-time>", "only notifications created after this instant")
    .option("--filter <label>", "only applications submitted with this additional_provider_filter label");
}

/** The flags given, as the list operation's query parameters. */
export function filtersOf(flags: ListFlags): Record<string, string> {
  return {
    ...(flags.status !== undefined && { status: flags.status }),
    ...(flags.type !== undefined && { notification_type: flags.type }),
    ...(flags.application !== undefined && { subject: flags.application }),
    ...(flags.since !== undefined && { since: flags.since }),
    ...(flags.filter !== undefined && { additional_provider_filter: flags.filter }),
  };
}
