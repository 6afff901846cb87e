// lrg notifications tail: follows the notifications that arrive after it started (or, with --all or --since, also
// those already waiting), and keeps following through lost connections.
import { setTimeout as sleep } from "node:timers/promises";
import { HttpError, NetworkError, type GatewayClient, type NotificationV1 } from "@lrg/client";
import { UsageError, type Output } from "../conventions.js";
import type { Runtime } from "../runtime.js";
import { filtersOf, type ListFlags } from "./notification-filters.js";
import { duplicateTracker, notificationLine } from "./notifications.js";

export interface TailFlags extends ListFlags {
  readonly ack?: boolean;
  readonly all?: boolean;
  readonly interval: string;
  readonly count?: number;
}

/** The longest wait between two attempts to reach a gateway that went away. */
const MAX_RECONNECT_MS = 30_000;

/**
 * On a terminal, a line starts by clearing the line it lands on: a progress bar another command draws in place
 * there (`lrg documents upload` while tail runs in the background) is replaced, not run into.
 */
const clearing = (stream: NodeJS.WriteStream): string => (stream.isTTY === true ? "\r\u001b[K" : "");

/** A line about the follow itself (ready, connection lost or back): stderr, JSON with --json. */
function say(out: Output, event: string, text: string, fields: Record<string, unknown> = {}): void {
  out.note(out.json ? JSON.stringify({ event, ...fields, detail: text }) : `${clearing(process.stderr)}lrg: ${text}`);
}

/** A failure that a later attempt may not meet: the connection, or the gateway's 5xx and 429 answers. */
function transient(error: unknown): error is Error {
  return error instanceof NetworkError || (error instanceof HttpError && (error.status >= 500 || error.status === 429));
}

async function newNotifications(client: GatewayClient, flags: TailFlags): Promise<NotificationV1[]> {
  const all: NotificationV1[] = [];
  for await (const notification of client.notifications.listAll({ ...filtersOf(flags), status: "NEW" }))
    all.push(notification);
  return all;
}

export async function tailNotifications(runtime: Runtime, flags: TailFlags): Promise<void> {
  const { out } = runtime;
  const interval = Number(flags.interval);
  if (!Number.isFinite(interval) || interval <= 0)
    throw new UsageError(`--interval must be a positive number of seconds (got ${flags.interval})`);
  const client = await runtime.client();
  const connection = runtime.connection();
  const seen = new Set<string>();
  const duplicateOf = duplicateTracker();
  let printed = 0;

  /** Prints (and acknowledges) a notification; answers whether --count is reached. */
  const emit = async (notification: NotificationV1): Promise<boolean> => {
    seen.add(notification.notification_id);
    const duplicate = duplicateOf(notification);
    if (out.json) out.data({ ...notification, duplicate_of: duplicate ?? null });
    else out.line(`${clearing(process.stdout)}${notificationLine(out, notification, duplicate)}`);
    if (flags.ack === true) await client.notifications.acknowledge([notification.notification_id]);
    printed += 1;
    return flags.count !== undefined && printed >= flags.count;
  };

  // The first read fails as any command does (a wrong address or password is the user's to fix); from then on the
  // follow outlives lost connections. What is waiting now is printed only when asked for (--all, --since): else it
  // is remembered, so that `--count` counts what arrives from now on.
  const waiting = await newNotifications(client, flags);
  const backlog = flags.all === true || flags.since !== undefined;
  if (!backlog)
    for (const notification of waiting) {
      seen.add(notification.notification_id);
      duplicateOf(notification);
    }
  // Before "Ready!": a ^C or SIGTERM sent as soon as it is read must stop the follow, not kill the process.
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  const user = connection.username();
  say(out, "ready", `Ready! Following notifications of ${user} at ${connection.baseUrl} (^C to stop)`, {
    user,
    url: connection.baseUrl,
  });
  if (backlog) for (const notification of waiting) if (await emit(notification)) return;

  let failures = 0;
  while (!stop.signal.aborted) {
    const wait = failures === 0 ? interval * 1000 : Math.min(MAX_RECONNECT_MS, interval * 1000 * 2 ** failures);
    await sleep(wait, undefined, { signal: stop.signal }).catch(() => undefined);
    if (stop.signal.aborted) return;
    let arrived: NotificationV1[];
    try {
      arrived = await newNotifications(client, flags);
    } catch (error) {
      if (!transient(error)) throw error;
      failures += 1;
      if (failures === 1)
        say(
          out,
          "connection-lost",
          `connection lost (${error.message}); reconnecting, with longer waits up to ${MAX_RECONNECT_MS / 1000} s`,
        );
      continue;
    }
    if (failures > 0)
      say(out, "connection-back", `connection back after ${failures} failed ${failures === 1 ? "poll" : "polls"}`);
    failures = 0;
    // NEW ones only: those printed before and not acknowledged are recognised by id and not printed again.
    for (const notification of arrived) {
      if (seen.has(notification.notification_id)) continue;
      if (await emit(notification)) return;
    }
  }
}
