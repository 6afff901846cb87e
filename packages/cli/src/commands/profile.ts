// lrg profile add|list|use|remove: named connections in the config file (see config.ts).
import type { Command } from "commander";
import { configPath, environmentOverride, passwordSource, readConfig, writeConfig, type Profile } from "../config.js";
import { table, UsageError } from "../conventions.js";
import { readSecret, readStdin } from "../prompt.js";
import { runtimeOf, subcommand, warnOverride } from "../runtime.js";

interface AddFlags {
  readonly username?: string;
  readonly passwordEnv?: string;
  readonly storePassword?: boolean;
  readonly cert?: string;
  readonly key?: string;
  readonly ca?: string;
  readonly sandboxTokenEnv?: string;
  readonly storeSandboxToken?: boolean;
  readonly use?: boolean;
}

/** A secret to store: asked on a terminal, else the first line of stdin. */
async function secretToStore(what: string): Promise<string> {
  const secret =
    process.stdin.isTTY === true ? await readSecret(`${what}: `, "") : ((await readStdin()).split(/\r?\n/)[0] ?? "");
  if (secret === "") throw new UsageError(`no ${what.toLowerCase()} given (type it at the prompt or pipe it on stdin)`);
  return secret;
}

export function registerProfile(program: Command): void {
  const profile = subcommand(program, "profile", "Named connections (address, user, where the password comes from)", [
    "lrg profile add sandbox --url http://127.0.0.1:8080 --username demo --password-env LRG_DEMO_PASSWORD",
  ]);

  subcommand(
    profile,
    "add <name>",
    "Add or replace a profile (--url is its address; the first one added becomes current)",
    [
      "lrg profile add sandbox --url http://127.0.0.1:8080 --username demo --password-env LRG_DEMO_PASSWORD --sandbox-token-env LRG_SANDBOX_TOKEN",
      "printf '%s\\n' \"$PASSWORD\" | lrg profile add ci --url https://gateway.example --username ci --store-password",
    ],
  )
    .option("--username <name>", "the HTTP Basic user")
    .option("--password-env <variable>", "read the password from this environment variable (else it is asked for)")
    .option(
      "--store-password",
      "store the password in the config file (mode 0600; asked for, or the first line of stdin)",
    )
    .option("--cert <path>", "client certificate (PEM) for mutual TLS")
    .option("--key <path>", "its private key (PEM)")
    .option("--ca <path>", "CA certificate to trust for the gateway (PEM)")
    .option("--sandbox-token-env <variable>", "read the sandbox control plane's token from this environment variable")
    .option(
      "--store-sandbox-token",
      "store the sandbox token in the config file (asked for, or the first line of stdin)",
    )
    .option("--use", "make it the current profile")
    .action(async (name: string, flags: AddFlags, command: Command) => {
      const { out, flags: global } = runtimeOf(command);
      // --url is the global flag (the address of the connection), here the profile's address.
      const url = global.url;
      if (url === undefined) throw new UsageError("lrg profile add needs --url: the gateway's address");
      if (flags.passwordEnv !== undefined && flags.storePassword === true)
        throw new UsageError("--password-env and --store-password exclude each other");
      try {
        new URL(url);
      } catch {
        throw new UsageError(`not an address: ${url}`);
      }
      const config = readConfig();
      const entry: Profile = {
        base_url: url,
        ...(flags.username !== undefined && { username: flags.username }),
        ...(flags.passwordEnv !== undefined && { password_env: flags.passwordEnv }),
        ...(flags.storePassword === true && { password: await secretToStore("Password") }),
        ...(flags.cert !== undefined && { cert: flags.cert }),
        ...(flags.key !== undefined && { key: flags.key }),
        ...(flags.ca !== undefined && { ca: flags.ca }),
        ...(flags.sandboxTokenEnv !== undefined && { sandbox_token_env: flags.sandboxTokenEnv }),
        ...(flags.storeSandboxToken === true && { sandbox_token: await secretToStore("Sandbox token") }),
      };
      config.profiles[name] = entry;
      if (flags.use === true || config.current === undefined) config.current = name;
      writeConfig(config);
      if (out.json) out.data({ profile: name, current: config.current === name, config: configPath() });
      else out.line(`profile ${name} saved in ${configPath()}${config.current === name ? " (current)" : ""}`);
      warnOverride(out, environmentOverride());
    });

  subcommand(profile, "list", "List the profiles (secrets are shown as where they come from, never their value)", [
    "lrg profile list",
  ]).action((_flags: unknown, command: Command) => {
    const { out } = runtimeOf(command);
    const config = readConfig();
    const rows = Object.entries(config.profiles).map(([name, p]) => ({
      name,
      current: config.current === name,
      base_url: p.base_url,
      username: p.username ?? null,
      password: passwordSource(p),
      client_certificate: p.cert ?? null,
      sandbox_token:
        p.sandbox_token_env !== undefined
          ? `env ${p.sandbox_token_env}`
          : p.sandbox_token !== undefined
            ? "stored"
            : null,
    }));
    warnOverride(out, environmentOverride());
    if (out.json) return out.data(rows);
    if (rows.length === 0) return out.line("no profiles yet: lrg profile add NAME --url URL --username NAME");
    const lines = table([
      ["", "NAME", "URL", "USERNAME", "PASSWORD", "SANDBOX TOKEN"],
      ...rows.map((r) => [
        r.current ? "*" : "",
        r.name,
        r.base_url,
        r.username ?? "-",
        r.password,
        r.sandbox_token ?? "-",
      ]),
    ]);
    out.line(out.paint("bold", lines[0] ?? ""));
    for (const line of lines.slice(1)) out.line(line);
  });

  subcommand(profile, "use <name>", "Make a profile the current one", ["lrg profile use sandbox"]).action(
    (name: string, _flags: unknown, command: Command) => {
      const { out } = runtimeOf(command);
      const config = readConfig();
      if (config.profiles[name] === undefined) throw new UsageError(`no profile named ${name}`);
      config.current = name;
      writeConfig(config);
      if (out.json) out.data({ current: name });
      else out.line(`current profile: ${name}`);
      warnOverride(out, environmentOverride());
    },
  );

  subcommand(profile, "remove <name>", "Remove a profile", ["lrg profile remove old-sandbox"]).action(
    (name: string, _flags: unknown, command: Command) => {
      const { out } = runtimeOf(command);
      const config = readConfig();
      if (config.profiles[name] === undefined) throw new UsageError(`no profile named ${name}`);
      delete config.profiles[name];
      if (config.current === name) delete config.current;
      writeConfig(config);
      if (out.json) out.data({ removed: name });
      else out.line(`profile ${name} removed`);
    },
  );
}
