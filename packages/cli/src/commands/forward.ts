// lrg notifications forward: push delivery for local development over the registry's polling interface.
// Each event (a notification and its duplicate deliveries) is POSTed as JSON to a local URL with an HMAC
// signature; it is acknowledged only after a 2xx, retried with backoff otherwise. Which events were delivered is
// kept in a state file, so that a restart acknowledges what was delivered but not yet acknowledged instead of
// delivering it again, and delivers everything still NEW: nothing is lost and nothing is delivered twice in a row.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { groupDuplicates, type NotificationEvent, type NotificationV1 } from "@lrg/client";
import { stateDir, writePrivateFile } from "../config.js";
import { httpAddressOf, UsageError } from "../conventions.js";
import type { Runtime } from "../runtime.js";
import { filtersOf, type ListFlags } from "./notification-filters.js";

export interface ForwardFlags extends ListFlags {
  readonly to: string;
  readonly interval: string;
  readonly once?: boolean;
  readonly count?: number;
  readonly maxDelay: string;
}

/** The header carrying the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = "X-Lrg-Signature";
/** How many delivered events the state file remembers (to acknowledge late duplicates without delivering again). */
const REMEMBERED = 10_000;
const FIRST_RETRY_MS = 500;

interface ForwardState {
  /** Duplicate keys of the events delivered (2xx), oldest first. */
  delivered: string[];
}

/** What the receiver gets. */
export interface ForwardedEvent {
  /** What the deliveries of one event share (`event_datetime`, `notification_type`, `subject`). */
  readonly event_key: string;
  readonly notification: NotificationV1;
  /** Every delivery of the event seen in this poll, the first included. */
  readonly duplicates: readonly NotificationV1[];
  readonly attempt: number;
}

/** Signs a body as the receiver checks it: HMAC-SHA256 over `<t>.<body>` with the shared secret. */
export function signature(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The secret: LRG_FORWARD_SECRET, else one made once and kept (mode 0600) in the state directory. */
function signingSecret(): { secret: string; where: string } {
  const fromEnv = process.env.LRG_FORWARD_SECRET;
  if (fromEnv !== undefined && fromEnv !== "") return { secret: fromEnv, where: "LRG_FORWARD_SECRET" };
  const path = join(stateDir(), "forward-secret");
  if (!existsSync(path)) writePrivateFile(path, `${randomBytes(32).toString("hex")}\n`);
  return { secret: readFileSync(path, "utf8").trim(), where: path };
}

function loadState(path: string): ForwardState {
  if (!existsSync(path)) return { delivered: [] };
  try {
    const state = JSON.parse(readFileSync(path, "utf8")) as ForwardState;
    return { delivered: Array.isArray(state.delivered) ? state.delivered : [] };
  } catch {
    throw new UsageError(`the forward state file ${path} is not readable JSON: remove it to start afresh`);
  }
}

function seconds(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new UsageError(`${name} must be a positive number of seconds (got ${value})`);
  return number;
}

export async function forwardNotifications(runtime: Runtime, flags: ForwardFlags): Promise<void> {
  const { out } = runtime;
  const target = httpAddressOf("--to", flags.to);
  const interval = seconds("--interval", flags.interval);
  const maxDelayMs = seconds("--max-delay", flags.maxDelay) * 1000;
  const client = await runtime.client();
  const connection = runtime.connection();

  // One state file per gateway, user and receiver: forwarding elsewhere starts its own record.
  const identity = createHash("sha256")
    .update(`${connection.baseUrl}\n${connection.username()}\n${target.href}`)
    .digest("hex")
    .slice(0, 16);
  const statePath = join(stateDir(), "forward", `${identity}.json`);
  const state = loadState(statePath);
  const delivered = new Set(state.delivered);
  const remember = (key: string): void => {
    state.delivered.push(key);
    delivered.add(key);
    while (state.delivered.length > REMEMBERED) delivered.delete(state.delivered.shift() as string);
    writePrivateFile(statePath, JSON.stringify(state));
  };
  const { secret, where } = signingSecret();
  out.note(`forwarding to ${target.href} (signed with the secret in ${where}; state in ${statePath})`);

  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  let count = 0;

  const acknowledge = async (event: NotificationEvent<NotificationV1>): Promise<void> => {
    await client.notifications.acknowledge(event.notifications.map((n) => n.notification_id));
  };

  while (!stop.signal.aborted) {
    const waiting: NotificationV1[] = [];
    for await (const notification of client.notifications.listAll({ ...filtersOf(flags), status: "NEW" }))
      waiting.push(notification);
    for (const event of groupDuplicates(waiting)) {
      if (stop.signal.aborted) return;
      if (delivered.has(event.key)) {
        // Delivered before (a duplicate that came later, or a restart between the 2xx and the acknowledgement).
        await acknowledge(event);
        if (out.json)
          out.data({
            event_key: event.key,
            delivered: false,
            acknowledged: event.notifications.map((n) => n.notification_id),
          });
        else
          out.line(
            `${out.paint("dim", "acknowledged")} ${event.notification.notification_type} ${event.notification.subject} (delivered before)`,
          );
        continue;
      }
      const status = await deliver(event, target, secret, maxDelayMs, stop.signal, (attempt, problem) =>
        out.note(
          `${out.paint("yellow", "retry")} ${event.notification.notification_type} ${event.notification.subject}: attempt ${attempt} ${problem}`,
        ),
      );
      if (status === undefined) return; // stopped while retrying: the event stays NEW and is delivered after a restart
      remember(event.key);
      await acknowledge(event);
      count += 1;
      const ids = event.notifications.map((n) => n.notification_id);
      if (out.json)
        out.data({
          event_key: event.key,
          delivered: true,
          status: status.status,
          attempts: status.attempts,
          acknowledged: ids,
        });
      else
        out.line(
          `${out.paint("green", "delivered")} ${event.notification.notification_type} ${event.notification.subject} -> ${status.status} (attempt ${status.attempts})`,
        );
      if (flags.count !== undefined && count >= flags.count) return;
    }
    if (flags.once === true) return;
    await sleep(interval * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
  }
}

/** POSTs one event until the receiver answers 2xx (backoff with jitter between attempts); undefined when stopped. */
async function deliver(
  event: NotificationEvent<NotificationV1>,
  target: URL,
  secret: string,
  maxDelayMs: number,
  signal: AbortSignal,
  onRetry: (attempt: number, problem: string) => void,
): Promise<{ status: number; attempts: number } | undefined> {
  for (let attempt = 1; !signal.aborted; attempt += 1) {
    const payload: ForwardedEvent = {
      event_key: event.key,
      notification: event.notification,
      duplicates: event.notifications,
      attempt,
    };
    const body = JSON.stringify(payload);
    let problem: string;
    try {
      const response = await fetch(target, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          [SIGNATURE_HEADER]: signature(secret, body, Math.floor(Date.now() / 1000)),
          "X-Lrg-Event-Key": event.key,
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { status: response.status, attempts: attempt };
      problem = `answered ${response.status}`;
    } catch (error) {
      if (signal.aborted) return undefined;
      problem = `failed: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`;
    }
    const ceiling = Math.min(maxDelayMs, FIRST_RETRY_MS * 2 ** (attempt - 1));
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    onRetry(attempt, `${problem}; next in ${(delay / 1000).toFixed(1)} s`);
    await sleep(delay, undefined, { signal }).catch(() => undefined);
  }
  return undefined;
}
