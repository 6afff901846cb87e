// lrg sandbox ...: the gateway's control plane (business units, clock, day list, transitions, correspondence,
// settings, reset, and triggering a notification through the transition that emits it). Not part of the registry.
import { Option, type Command } from "commander";
import { unwrap, type SandboxComponents } from "@lrg/client";
import { enums } from "@lrg/spec/constants";
import { environmentOverride, readConfig, writeConfig } from "../config.js";
import { parseDuration, table, UsageError, type Output } from "../conventions.js";
import { runtimeOf, subcommand, warnOverride, type Runtime } from "../runtime.js";

type Schemas = SandboxComponents["schemas"];
type TransitionRequest = Schemas["SandboxTransitionRequest"];
type DocumentCode = Schemas["CorrespondenceDocumentTypeCode"];

const TRANSITION_TARGETS = [
  "VALIDATION_FAILED",
  "SYSTEM_ERROR",
  "ACCEPTED_AWAITING_PRIORITY",
  "ACCEPTED_PRIORITY_PROTECTED",
  "COMPLETED",
  "CANCELLED",
] as const;

/** `key=value`: the value as JSON when it reads as JSON (numbers, booleans, null), else as text. */
export function parseSetting(pair: string): [string, unknown] {
  const at = pair.indexOf("=");
  if (at <= 0) throw new UsageError(`not key=value: ${pair}`);
  const key = pair.slice(0, at);
  const raw = pair.slice(at + 1);
  try {
    return [key, JSON.parse(raw)];
  } catch {
    return [key, raw];
  }
}

/** How each notification type is produced by the control plane: the transition (or correspondence) that emits it. */
const TRIGGERS: Record<
  string,
  { transition: (typeof TRANSITION_TARGETS)[number] } | { correspondence: true } | { not: string }
> = {
  "application.accepted-priority-pending": { transition: "ACCEPTED_AWAITING_PRIORITY" },
  "application.accepted-priority-protected": { transition: "ACCEPTED_PRIORITY_PROTECTED" },
  "application.validation-failed": { transition: "VALIDATION_FAILED" },
  "application.error": { transition: "SYSTEM_ERROR" },
  "application.completed": { transition: "COMPLETED" },
  "application.cancelled": { transition: "CANCELLED" },
  "application.correspondence-despatched": { correspondence: true },
  "application.attachment-success": {
    not: "attach a document to a pending application (the gateway checks it and notifies)",
  },
  "application.attachment-failed": {
    not: "attach a document that fails its checks (e.g. an encrypted PDF) to a pending application",
  },
  "application.message-success": { not: "attach a message to a pending application" },
  "application.message-failed": { not: "attach a message to an application that is no longer pending" },
};

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function applicationId(id: string): string {
  if (!UUID.test(id)) throw new UsageError(`not an application id (a UUID): ${id}`);
  return id;
}

interface TransitionFlags {
  readonly early?: boolean;
  readonly documents?: string[];
  readonly registryReference?: string;
  readonly error?: string[];
}

function transitionBody(to: (typeof TRANSITION_TARGETS)[number], flags: TransitionFlags): TransitionRequest {
  const documents = flags.documents === undefined ? {} : { documents: flags.documents as DocumentCode[] };
  switch (to) {
    case "COMPLETED":
      return { to, early_completion: flags.early === true, ...documents };
    case "CANCELLED":
      return { to, ...documents };
    case "ACCEPTED_PRIORITY_PROTECTED":
      return { to, ...(flags.registryReference !== undefined && { registry_reference: flags.registryReference }) };
    case "VALIDATION_FAILED":
      return {
        to,
        ...(flags.error !== undefined && {
          errors: flags.error.map((item) => {
            const [type, ...detail] = item.split(":");
            return { type: type as string, detail: detail.join(":") || (type as string) };
          }),
        }),
      };
    default:
      return { to };
  }
}

async function transition(
  runtime: Runtime,
  id: string,
  to: (typeof TRANSITION_TARGETS)[number],
  flags: TransitionFlags,
): Promise<void> {
  const result = await unwrap(
    runtime
      .sandbox()
      .POST("/sandbox/v1/applications/{id}/transitions", { params: { path: { id } }, body: transitionBody(to, flags) }),
  );
  if (runtime.out.json) return runtime.out.data(result);
  runtime.out.line(
    `${result.application_request_id}: ${result.previous_status} -> ${runtime.out.paint("bold", result.status)}`,
  );
  printEmitted(runtime.out, result.notifications);
}

function printEmitted(out: Output, notifications: Schemas["SandboxEmittedNotifications"]): void {
  for (const n of notifications)
    out.line(`  notification ${n.notification_type} ${n.notification_id}${n.duplicate ? " (duplicate)" : ""}`);
}

async function despatch(runtime: Runtime, id: string, codes: string[]): Promise<void> {
  const result = await unwrap(
    runtime.sandbox().POST("/sandbox/v1/applications/{id}/correspondence", {
      params: { path: { id } },
      body: { documents: codes as DocumentCode[] },
    }),
  );
  if (runtime.out.json) return runtime.out.data(result);
  for (const line of table([
    ["CODE", "NAME", "DOWNLOAD ID"],
    ...result.documents.map((d) => [d.type.code, d.type.name, d.download_id]),
  ]))
    runtime.out.line(line);
  printEmitted(runtime.out, result.notifications);
}

function withTransitionFlags(command: Command): Command {
  return command
    .option("--early", "COMPLETED: the application was subject to early completion")
    .option("--documents <codes...>", "COMPLETED, CANCELLED or correspondence: the documents generated (e.g. REG TID)")
    .option("--registry-reference <ref>", "ACCEPTED_PRIORITY_PROTECTED: the registry reference to give")
    .option("--error <type:detail...>", "VALIDATION_FAILED: the errors to report");
}

export function registerSandbox(program: Command): void {
  const sandbox = subcommand(
    program,
    "sandbox",
    "Drive the gateway's simulated registry (needs the sandbox token: LRG_SANDBOX_TOKEN or the profile)",
    ["lrg sandbox clock advance 2d"],
  );

  const unit = subcommand(sandbox, "unit", "Business units and their own sandbox tokens", [
    "lrg sandbox unit create --name 'Acme Conveyancing' --save-profile acme",
  ]);
  subcommand(
    unit,
    "create",
    "Create a business unit, its user and its sandbox token (admin token); prints them, or keeps them in a profile with --save-profile",
    ["lrg sandbox unit create --name 'Acme Conveyancing' --save-profile acme"],
  )
    .option("--name <name>", "the unit's name")
    .option(
      "--save-profile <profile>",
      "store the new user and the unit's sandbox token in this profile (mode 0600) instead of printing them",
    )
    .action(async (flags: { name?: string; saveProfile?: string }, command: Command) => {
      const runtime = runtimeOf(command);
      const created = await unwrap(
        runtime
          .sandbox()
          .POST("/sandbox/v1/business-units", { body: flags.name === undefined ? {} : { name: flags.name } }),
      );
      if (flags.saveProfile !== undefined) {
        const connection = runtime.connection();
        const config = readConfig();
        // The new profile reaches the gateway as this one does (its address and client certificate), as the new
        // unit's user, and drives the control plane with the unit's own token: its clock, settings and reset.
        const tls = connection.tls();
        config.profiles[flags.saveProfile] = {
          base_url: connection.baseUrl,
          username: created.username,
          password: created.password,
          sandbox_token: created.sandbox_token,
          business_unit_id: created.business_unit_id,
          ...(tls !== undefined && { cert: tls.cert, key: tls.key, ...(tls.ca !== undefined && { ca: tls.ca }) }),
        };
        config.current ??= flags.saveProfile;
        writeConfig(config);
        // Saved as the current profile while LRG_* variables are set: they, not the new profile, will be used.
        if (connection.overridden === undefined) warnOverride(runtime.out, environmentOverride());
        const shown = {
          business_unit_id: created.business_unit_id,
          username: created.username,
          profile: flags.saveProfile,
        };
        if (runtime.out.json) return runtime.out.data(shown);
        return runtime.out.line(
          `business unit ${created.business_unit_id}, user ${created.username}, saved as profile ${flags.saveProfile} (with the unit's sandbox token)`,
        );
      }
      if (runtime.out.json) return runtime.out.data(created);
      for (const line of table([
        ["business_unit_id:", created.business_unit_id],
        ["username:", created.username],
        ["password:", created.password],
        ["sandbox_token:", created.sandbox_token],
      ]))
        runtime.out.line(line);
    });
  subcommand(
    unit,
    "rotate-token [business_unit_id]",
    "Issue a business unit a new sandbox token; the old one stops working at once (default: the profile's unit, whose stored token is replaced)",
    ["lrg sandbox unit rotate-token", "lrg sandbox unit rotate-token 0f8a4c2e-3b1d-4e6f-9a7b-1c2d3e4f5a6b --json"],
  ).action(async (given: string | undefined, _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    const connection = runtime.connection();
    const config = readConfig();
    const name = connection.profileName;
    const profile = name === undefined ? undefined : config.profiles[name];
    const id = given ?? profile?.business_unit_id;
    if (id === undefined)
      throw new UsageError("which business unit? Name it, or use a profile that lrg sandbox unit create saved");
    const rotated = await unwrap(
      runtime.sandbox().POST("/sandbox/v1/business-units/{business_unit_id}/token", {
        params: { path: { business_unit_id: id } },
      }),
    );
    // A profile keeping this unit's token would stop working: it keeps the new one instead.
    const kept = name !== undefined && profile?.business_unit_id === id && profile.sandbox_token !== undefined;
    if (kept) {
      config.profiles[name] = { ...profile, sandbox_token: rotated.sandbox_token };
      writeConfig(config);
    }
    if (runtime.out.json) return runtime.out.data(kept ? { business_unit_id: id, profile: name } : rotated);
    if (kept) return runtime.out.line(`business unit ${id}: new sandbox token kept in profile ${name}`);
    for (const line of table([
      ["business_unit_id:", rotated.business_unit_id],
      ["sandbox_token:", rotated.sandbox_token],
    ]))
      runtime.out.line(line);
  });

  const clock = subcommand(sandbox, "clock", "The gateway's clock (expiry, retention, priority, service hours)", [
    "lrg sandbox clock show",
  ]);
  subcommand(clock, "show", "Show the gateway's time", ["lrg sandbox clock show"]).action(
    async (_flags: unknown, command: Command) => {
      const runtime = runtimeOf(command);
      const now = await unwrap(runtime.sandbox().GET("/sandbox/v1/clock"));
      if (runtime.out.json) runtime.out.data(now);
      else runtime.out.line(now.now);
    },
  );
  subcommand(clock, "set <date-time>", "Set the gateway's time", [
    "lrg sandbox clock set 2025-04-01T09:15:00.000Z",
  ]).action(async (at: string, _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    const now = await unwrap(runtime.sandbox().PUT("/sandbox/v1/clock", { body: { now: at } }));
    if (runtime.out.json) runtime.out.data(now);
    else runtime.out.line(now.now);
  });
  subcommand(clock, "advance <duration>", "Move the gateway's time on (2d, 3h, 90m, 1d12h, 45s or seconds)", [
    "lrg sandbox clock advance 2d",
  ]).action(async (duration: string, _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    const now = await unwrap(
      runtime.sandbox().POST("/sandbox/v1/clock/advance", { body: { seconds: parseDuration(duration) } }),
    );
    if (runtime.out.json) runtime.out.data(now);
    else runtime.out.line(now.now);
  });

  const dayList = subcommand(
    sandbox,
    "day-list",
    "Open or close the day list (closed: accepted applications wait for priority)",
    ["lrg sandbox day-list close"],
  );
  const printDayList = (out: Output, state: Schemas["SandboxDayList"]): void => {
    if (out.json) return out.data(state);
    out.line(
      `day list ${state.open ? "open" : "closed"}; ${state.awaiting_priority} awaiting priority${state.promoted === undefined ? "" : `; ${state.promoted} promoted`}`,
    );
  };
  subcommand(dayList, "show", "Whether the day list is open", ["lrg sandbox day-list show"]).action(
    async (_flags: unknown, command: Command) => {
      const runtime = runtimeOf(command);
      printDayList(runtime.out, await unwrap(runtime.sandbox().GET("/sandbox/v1/day-list")));
    },
  );
  for (const [name, open] of [
    ["open", true],
    ["close", false],
  ] as const) {
    subcommand(
      dayList,
      name,
      open ? "Open the day list (applications awaiting priority get it)" : "Close the day list",
      [`lrg sandbox day-list ${name}`],
    ).action(async (_flags: unknown, command: Command) => {
      const runtime = runtimeOf(command);
      printDayList(runtime.out, await unwrap(runtime.sandbox().PUT("/sandbox/v1/day-list", { body: { open } })));
    });
  }

  withTransitionFlags(
    subcommand(sandbox, "transition <id> <status>", "Move an application to a status (emits its notification)", [
      "lrg sandbox transition 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10 COMPLETED --documents REG TID",
      "lrg sandbox transition 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10 VALIDATION_FAILED --error 'document-valid:the PDF is encrypted'",
    ]),
  ).action(async (id: string, status: string, flags: TransitionFlags, command: Command) => {
    if (!(TRANSITION_TARGETS as readonly string[]).includes(status))
      throw new UsageError(`not a status to move to: ${status} (one of ${TRANSITION_TARGETS.join(", ")})`);
    await transition(runtimeOf(command), applicationId(id), status as (typeof TRANSITION_TARGETS)[number], flags);
  });

  subcommand(
    sandbox,
    "correspondence <id> <codes...>",
    "Despatch correspondence (documents by type code) on an application",
    ["lrg sandbox correspondence 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10 RCS"],
  ).action(async (id: string, codes: string[], _flags: unknown, command: Command) => {
    await despatch(runtimeOf(command), applicationId(id), codes);
  });

  const settings = subcommand(
    sandbox,
    "settings",
    "The sandbox's settings (processing, duplicate_rate, latency_ms...)",
    ["lrg sandbox settings get"],
  );
  const printSettings = (out: Output, values: Schemas["SandboxSettings"]): void => {
    if (out.json) return out.data(values);
    for (const line of table(Object.entries(values).map(([k, v]) => [k, JSON.stringify(v)]))) out.line(line);
  };
  subcommand(settings, "get", "Show every setting", ["lrg sandbox settings get --json"]).action(
    async (_flags: unknown, command: Command) => {
      const runtime = runtimeOf(command);
      printSettings(runtime.out, await unwrap(runtime.sandbox().GET("/sandbox/v1/settings")));
    },
  );
  subcommand(
    settings,
    "set <key=value...>",
    "Change settings (values read as JSON when they can be: 0.5, true, null)",
    ["lrg sandbox settings set duplicate_rate=0 processing=manual"],
  ).action(async (pairs: string[], _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    const body = Object.fromEntries(pairs.map(parseSetting)) as Schemas["SandboxSettingsUpdate"];
    printSettings(runtime.out, await unwrap(runtime.sandbox().PUT("/sandbox/v1/settings", { body })));
  });

  subcommand(
    sandbox,
    "reset",
    "Delete every application, document and notification and restore the defaults (needs --yes); with a unit's token, that unit's alone",
    ["lrg sandbox reset --yes"],
  )
    .option("--yes", "yes, reset the sandbox")
    .action(async (flags: { yes?: boolean }, command: Command) => {
      const runtime = runtimeOf(command);
      if (flags.yes !== true)
        throw new UsageError("reset deletes everything in the sandbox (or the unit's, with its token): add --yes");
      await unwrap(runtime.sandbox().POST("/sandbox/v1/reset"));
      if (runtime.out.json) runtime.out.data({ reset: true });
      else runtime.out.line("sandbox reset");
    });

  subcommand(
    sandbox,
    "audit",
    "The control plane's audit trail, oldest first: who acted, on what, when and with what answer (a unit's token: its own actions)",
    ["lrg sandbox audit", "lrg sandbox audit --operation resetSandbox --json", "lrg sandbox audit --actor unknown"],
  )
    .option("--operation <operationId>", "only this operation, e.g. updateSettings")
    .addOption(new Option("--actor <kind>", "only this kind of actor").choices(enums.SandboxAuditActorKind))
    .option("--after <sequence>", "only entries after this sequence number (the last one of the previous page)")
    .option("--limit <n>", "at most this many entries (100 at most)")
    .action(
      async (
        flags: {
          operation?: string;
          actor?: (typeof enums.SandboxAuditActorKind)[number];
          after?: string;
          limit?: string;
        },
        command: Command,
      ) => {
        const runtime = runtimeOf(command);
        const count = (text: string, what: string): number => {
          if (!/^\d+$/.test(text)) throw new UsageError(`${what} must be a whole number, not ${text}`);
          return Number(text);
        };
        const query = {
          ...(flags.operation !== undefined && { operation_id: flags.operation }),
          ...(flags.actor !== undefined && { actor: flags.actor }),
          ...(flags.after !== undefined && { after: count(flags.after, "--after") }),
          ...(flags.limit !== undefined && { limit: count(flags.limit, "--limit") }),
        };
        const page = await unwrap(runtime.sandbox().GET("/sandbox/v1/audit", { params: { query } }));
        if (runtime.out.json) return runtime.out.data(page.data);
        const rows = page.data.map((entry) => [
          String(entry.sequence),
          entry.recorded_at,
          entry.actor.kind === "unit" ? `unit ${entry.actor.business_unit_id ?? ""}` : entry.actor.kind,
          `${entry.method} ${entry.path}`,
          `${entry.status}${entry.problem_code === null ? "" : ` ${entry.problem_code}`}`,
        ]);
        for (const line of table([["SEQ", "RECORDED AT", "ACTOR", "REQUEST", "ANSWER"], ...rows]))
          runtime.out.line(line);
        const last = page.data.at(-1);
        if (last !== undefined) runtime.out.note(`to read on: lrg sandbox audit --after ${last.sequence}`);
      },
    );

  withTransitionFlags(
    subcommand(
      sandbox,
      "trigger <notification_type>",
      "Produce a notification through the control plane (the transition or correspondence that emits it)",
      [
        "lrg sandbox trigger application.completed --application 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10",
        'lrg sandbox trigger application.correspondence-despatched --application "$ID" --documents RCS',
      ],
    ),
  )
    .addOption(new Option("--application <id>", "the application the notification is about").makeOptionMandatory())
    .action(async (type: string, flags: TransitionFlags & { application: string }, command: Command) => {
      const runtime = runtimeOf(command);
      const trigger = TRIGGERS[type];
      if (trigger === undefined)
        throw new UsageError(`not a notification type: ${type} (one of ${Object.keys(TRIGGERS).join(", ")})`);
      if ("not" in trigger) throw new UsageError(`the control plane cannot produce ${type}: ${trigger.not}`);
      const id = applicationId(flags.application);
      if ("transition" in trigger) await transition(runtime, id, trigger.transition, flags);
      else await despatch(runtime, id, flags.documents ?? ["LTR"]);
    });
}
