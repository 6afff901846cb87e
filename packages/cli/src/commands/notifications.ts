// lrg notifications list|ack|tail|forward over the registry's version 1 notifications.
import { Option, type Command } from "commander";
import { duplicateKey, type NotificationV1 } from "@lrg/client";
import { UsageError, type Output } from "../conventions.js";
import { readStdin } from "../prompt.js";
import { runtimeOf, subcommand } from "../runtime.js";
import { forwardNotifications, type ForwardFlags } from "./forward.js";
import { tailNotifications, type TailFlags } from "./tail.js";
import { filtersOf, STATUSES, withFilters, type ListFlags } from "./notification-filters.js";

/** One line for a person: when, type, application, id, and the first delivery's id when this one is a duplicate. */
export function notificationLine(out: Output, notification: NotificationV1, duplicateOf?: string): string {
  const mark = duplicateOf === undefined ? "" : out.paint("yellow", ` duplicate of ${duplicateOf}`);
  return `${out.paint("dim", notification.created_datetime)}  ${out.paint("cyan", notification.notification_type)}  ${notification.subject}  ${notification.notification_id}${mark}`;
}

/** Remembers the first delivery of each event, to mark the later ones as duplicates. */
export function duplicateTracker(): (notification: NotificationV1) => string | undefined {
  const first = new Map<string, string>();
  return (notification) => {
    const key = duplicateKey(notification);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, notification.notification_id);
    return seen === notification.notification_id ? undefined : seen;
  };
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function positiveInteger(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1)
      throw new UsageError(`${name} must be a whole number of at least 1 (got ${value})`);
    return number;
  };
}

export function registerNotifications(program: Command): void {
  const notifications = subcommand(
    program,
    "notifications",
    "List, acknowledge, follow and forward notifications (version 1)",
    ["lrg notifications tail --ack"],
  );

  withFilters(
    subcommand(notifications, "list", "List notifications, oldest first (NEW ones unless --status says otherwise)", [
      "lrg notifications list --status ACKNOWLEDGED --type application.completed",
      "lrg notifications list --json | jq -r '.[].notification_id'",
    ]),
  )
    .addOption(new Option("--status <status>", "NEW or ACKNOWLEDGED").choices(STATUSES))
    .action(async (flags: ListFlags, command: Command) => {
      const runtime = runtimeOf(command);
      const client = await runtime.client();
      const all: NotificationV1[] = [];
      for await (const notification of client.notifications.listAll(filtersOf(flags))) all.push(notification);
      if (runtime.out.json) return runtime.out.data(all);
      const duplicateOf = duplicateTracker();
      for (const notification of all)
        runtime.out.line(notificationLine(runtime.out, notification, duplicateOf(notification)));
      if (all.length === 0) runtime.out.note("no notifications");
    });

  subcommand(
    notifications,
    "ack [ids...]",
    "Acknowledge notifications by id (ids as arguments, or one per line on stdin)",
    [
      "lrg notifications ack 0b6f1c2a-4e7d-4c1e-9a53-2d8f4b6e7c10",
      "lrg notifications list --json | jq -r '.[].notification_id' | lrg notifications ack",
    ],
  ).action(async (ids: string[], _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    let all = ids.filter((id) => id !== "-");
    if (ids.length === 0 || ids.includes("-")) {
      if (process.stdin.isTTY === true && ids.length === 0)
        throw new UsageError("no ids: give them as arguments or one per line on stdin");
      all = [...all, ...(await readStdin()).split(/\s+/).filter((id) => id !== "")];
    }
    if (all.length === 0) throw new UsageError("no ids to acknowledge");
    const bad = all.find((id) => !UUID.test(id));
    if (bad !== undefined) throw new UsageError(`not a notification id: ${bad}`);
    const client = await runtime.client();
    const result = await client.notifications.acknowledge(all);
    if (runtime.out.json) return runtime.out.data(result);
    runtime.out.line(`acknowledged ${result.acknowledged.length}`);
    for (const id of result.not_found) runtime.out.note(`not found: ${id}`);
  });

  withFilters(
    subcommand(
      notifications,
      "tail",
      "Follow the NEW notifications that arrive from now on, one line each (JSON lines with --json). The ones already waiting are left alone (not printed, counted or acknowledged) unless --all, or --since says from when. Prints 'Ready! ...' on stderr once it follows, and keeps following when the connection is lost (a line on stderr when it is lost and when it is back)",
      [
        "lrg notifications tail",
        "lrg notifications tail --all --ack --json > events.jsonl",
        "lrg notifications tail --type application.completed --count 1 &",
      ],
    ),
  )
    .option("--all", "first print the NEW notifications already waiting (they count for --count and --ack)")
    .option("--ack", "acknowledge each notification once it is printed")
    .option("--interval <seconds>", "seconds between two polls", "2")
    .option("--count <n>", "stop after this many notifications", positiveInteger("--count"))
    .action(async (flags: TailFlags, command: Command) => {
      await tailNotifications(runtimeOf(command), flags);
    });

  withFilters(
    subcommand(
      notifications,
      "forward",
      "POST each new event to a local URL (signed), acknowledge it after a 2xx, retry with backoff otherwise; resumes after a restart",
      [
        "lrg notifications forward --to http://localhost:3000/hook",
        "LRG_FORWARD_SECRET=s3cret lrg notifications forward --to http://localhost:3000/hook --once",
      ],
    ),
  )
    .requiredOption("--to <url>", "the local address to POST each event to")
    .option("--interval <seconds>", "seconds between two polls", "2")
    .option("--once", "deliver what is waiting, then stop")
    .option("--count <n>", "stop after delivering this many events", positiveInteger("--count"))
    .option("--max-delay <seconds>", "the longest wait between two attempts of one event", "30")
    .action(async (flags: ForwardFlags, command: Command) => {
      await forwardNotifications(runtimeOf(command), flags);
    });
}
