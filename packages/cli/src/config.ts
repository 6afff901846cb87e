// Profiles: named connections in a JSON file in the user's config directory (XDG). A connection is read whole
// from one source: the profile `--profile` names, else the LRG_* environment variables, else the current profile.
// Secrets are read from the environment or a prompt; the file holds one only when the user asks
// (`--store-password`), and then with mode 0600. Nothing here ever prints a secret.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { UsageError } from "./conventions.js";
import { readSecret } from "./prompt.js";

/** One named connection. Secrets appear as where to find them, except when the user asked to store them. */
export interface Profile {
  readonly base_url: string;
  readonly username?: string;
  /** The environment variable holding the password (prompted for when neither this nor `password` is set). */
  readonly password_env?: string;
  /** The password in clear, only when added with `--store-password`. */
  readonly password?: string;
  /** Client certificate, its key and the CA to trust (paths), for mutual TLS on the title enquiries. */
  readonly cert?: string;
  readonly key?: string;
  readonly ca?: string;
  /** The environment variable holding the sandbox control plane's token. */
  readonly sandbox_token_env?: string;
  /**
   * The sandbox token in clear, only when added with `--store-sandbox-token`, or a business unit's own token kept by
   * `lrg sandbox unit create --save-profile` (it acts on that unit alone).
   */
  readonly sandbox_token?: string;
  /** The business unit the profile's user and unit token belong to (kept by `lrg sandbox unit create`). */
  readonly business_unit_id?: string;
}

export interface ConfigFile {
  current?: string;
  profiles: Record<string, Profile>;
}

type Env = NodeJS.ProcessEnv;

/** `$XDG_CONFIG_HOME/lrg` (default `~/.config/lrg`). */
export function configDir(env: Env = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "lrg");
}

/** `$XDG_STATE_HOME/lrg` (default `~/.local/state/lrg`): where `notifications forward` keeps its progress. */
export function stateDir(env: Env = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "lrg");
}

export const configPath = (env: Env = process.env): string => join(configDir(env), "config.json");

export function readConfig(env: Env = process.env): ConfigFile {
  const path = configPath(env);
  if (!existsSync(path)) return { profiles: {} };
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as ConfigFile;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Writes a file atomically (a temporary file renamed over it), readable by the user only. */
export function writePrivateFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

export function writeConfig(config: ConfigFile, env: Env = process.env): void {
  writePrivateFile(configPath(env), `${JSON.stringify(config, null, 2)}\n`);
}

/** Where a profile's password comes from, for `profile list` (never the value). */
export function passwordSource(profile: Profile): string {
  if (profile.password_env !== undefined) return `env ${profile.password_env}`;
  if (profile.password !== undefined) return "stored";
  return "prompt";
}

/** The flags that choose and override a connection. */
export interface ConnectionFlags {
  readonly profile?: string;
  readonly url?: string;
}

/**
 * The variables that make a connection without a profile. The environment is one source, like a profile: when
 * any of them is set (and the profile does not name it as where its own secret comes from), every setting is read
 * from the environment and none from the profile, so that a user and a sandbox token never come from two places.
 */
export const CONNECTION_VARIABLES = [
  "LRG_BASE_URL",
  "LRG_USERNAME",
  "LRG_PASSWORD",
  "LRG_CERT",
  "LRG_KEY",
  "LRG_CA",
  "LRG_SANDBOX_TOKEN",
] as const;

/** A profile chosen by `LRG_PROFILE` or `lrg profile use` that the environment's variables override. */
export interface Override {
  readonly profile: string;
  readonly variables: readonly string[];
}

/** Everything needed to talk to a gateway, resolved from flags, LRG_* variables or the profile. */
export interface Connection {
  /** The profile the settings come from; undefined when they come from the environment. */
  readonly profileName: string | undefined;
  /** The profile that the environment's variables override, when one was chosen (to warn about). */
  readonly overridden: Override | undefined;
  readonly baseUrl: string;
  username(): string;
  password(): Promise<string>;
  tls(): { cert: string; key: string; ca?: string } | undefined;
  sandboxToken(): string;
}

function profileNamed(config: ConfigFile, name: string): Profile {
  const profile = config.profiles[name];
  if (profile !== undefined) return profile;
  const known = Object.keys(config.profiles);
  throw new UsageError(
    `no profile named ${name} (${known.length === 0 ? "none yet: lrg profile add" : `known: ${known.join(", ")}`})`,
  );
}

/** Where the settings come from: the profile `--profile` names, else the environment when it sets any, else the chosen profile. */
type Source =
  | { readonly kind: "profile"; readonly name: string; readonly profile: Profile }
  | { readonly kind: "environment"; readonly overridden: Override | undefined };

function sourceOf(flags: ConnectionFlags, env: Env): Source {
  const config = readConfig(env);
  if (flags.profile !== undefined)
    return { kind: "profile", name: flags.profile, profile: profileNamed(config, flags.profile) };
  const name = (env.LRG_PROFILE || undefined) ?? config.current;
  const profile = name === undefined ? undefined : profileNamed(config, name);
  // A variable the profile itself reads its password or token from is the profile's own source, not an override.
  const own = new Set([profile?.password_env, profile?.sandbox_token_env]);
  const variables = CONNECTION_VARIABLES.filter((variable) => env[variable] && !own.has(variable));
  if (variables.length > 0)
    return { kind: "environment", overridden: name === undefined ? undefined : { profile: name, variables } };
  if (name === undefined || profile === undefined) return { kind: "environment", overridden: undefined };
  return { kind: "profile", name, profile };
}

/** The profile the environment overrides, if any: what `lrg profile list` and `profile use` warn about. */
export function environmentOverride(env: Env = process.env): Override | undefined {
  const source = sourceOf({}, env);
  return source.kind === "environment" ? source.overridden : undefined;
}

/** The one-line warning that the environment's variables override a chosen profile, and how to stop it. */
export function overrideWarning(override: Override): string {
  const names = override.variables.join(" ");
  return `warning: ${override.variables.join(", ")} ${override.variables.length === 1 ? "is" : "are"} set and override profile ${override.profile} (no setting is read from it); to use the profile: unset ${names}, or pass --profile ${override.profile}`;
}

/** Where lrg remembers which profiles it said are overridden, and by which variables. */
const overridesSaidPath = (env: Env): string => join(stateDir(env), "overrides-said.json");

function readOverridesSaid(env: Env): Record<string, string[]> {
  try {
    return JSON.parse(readFileSync(overridesSaidPath(env), "utf8")) as Record<string, string[]>;
  } catch {
    return {};
  }
}

function writeOverridesSaid(said: Record<string, string[]>, env: Env): void {
  try {
    writePrivateFile(overridesSaidPath(env), `${JSON.stringify(said)}\n`);
  } catch {
    // Not remembered (a read-only home): the warning is said again at the next command, which does no harm.
  }
}

/**
 * Whether a command should say that the environment overrides a profile: the first time these variables override
 * it, and not again while they do (a shell that exported them runs many commands); the profile read again as the
 * current one, or other variables, make it said once more. Remembered in the state directory.
 */
export function overrideNotSaidYet(override: Override, env: Env = process.env): boolean {
  const said = readOverridesSaid(env);
  if (said[override.profile]?.join(" ") === override.variables.join(" ")) return false;
  writeOverridesSaid({ ...said, [override.profile]: [...override.variables] }, env);
  return true;
}

/** The profile was read as the current one: nothing overrides it now, so a later override is said again. */
export function overrideEnded(profile: string, env: Env = process.env): void {
  if (!existsSync(overridesSaidPath(env))) return;
  const said = readOverridesSaid(env);
  if (said[profile] === undefined) return;
  delete said[profile];
  writeOverridesSaid(said, env);
}

/**
 * Resolves the connection. Flags first (`--profile`, `--url`); then the environment (`LRG_BASE_URL`,
 * `LRG_USERNAME`, `LRG_PASSWORD`, `LRG_CERT`, `LRG_KEY`, `LRG_CA`, `LRG_SANDBOX_TOKEN`) as a whole when any of them
 * is set; then the profile `LRG_PROFILE` names or the current one. Every setting comes from the same source.
 */
export function resolveConnection(flags: ConnectionFlags, env: Env = process.env): Connection {
  const source = sourceOf(flags, env);
  const fromEnv = (variable: string | undefined): string | undefined =>
    variable === undefined ? undefined : env[variable] || undefined;
  const profile = source.kind === "profile" ? source.profile : undefined;
  // What a missing setting is told to the user with: where lrg looked.
  const whose =
    source.kind === "profile"
      ? ` (profile ${source.name})`
      : source.overridden === undefined
        ? ""
        : ` (from the environment, not profile ${source.overridden.profile})`;
  const setting = (variable: string, member: string | undefined): string | undefined =>
    source.kind === "profile" ? member : fromEnv(variable);
  const baseUrl = flags.url ?? setting("LRG_BASE_URL", profile?.base_url);
  if (baseUrl === undefined) {
    throw new UsageError(
      `no gateway address${whose}: add a profile (lrg profile add NAME --url URL ...), set LRG_BASE_URL or pass --url`,
    );
  }
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`not an address: ${baseUrl}`);
  }
  return {
    profileName: source.kind === "profile" ? source.name : undefined,
    overridden: source.kind === "environment" ? source.overridden : undefined,
    baseUrl,
    username: () => {
      const username = setting("LRG_USERNAME", profile?.username);
      if (username === undefined)
        throw new UsageError(`no username${whose}: set LRG_USERNAME or add one to the profile`);
      return username;
    },
    password: async () => {
      const password =
        source.kind === "profile" ? (fromEnv(profile?.password_env) ?? profile?.password) : fromEnv("LRG_PASSWORD");
      if (password !== undefined) return password;
      if (profile?.password_env !== undefined) {
        throw new UsageError(`no password${whose}: the environment variable ${profile.password_env} is not set`);
      }
      return readSecret(
        `Password${whose}: `,
        `no password${whose}: set LRG_PASSWORD, or run on a terminal to be asked`,
      );
    },
    tls: () => {
      const cert = setting("LRG_CERT", profile?.cert);
      const key = setting("LRG_KEY", profile?.key);
      const ca = setting("LRG_CA", profile?.ca);
      if (cert === undefined && key === undefined) return undefined;
      if (cert === undefined || key === undefined)
        throw new UsageError(`a client certificate needs both cert and key${whose}`);
      return { cert, key, ...(ca !== undefined && { ca }) };
    },
    sandboxToken: () => {
      const token =
        source.kind === "profile"
          ? (fromEnv(profile?.sandbox_token_env) ?? profile?.sandbox_token)
          : fromEnv("LRG_SANDBOX_TOKEN");
      if (token === undefined) {
        throw new UsageError(
          `no sandbox token${whose}: set LRG_SANDBOX_TOKEN or add one to the profile (--sandbox-token-env NAME)`,
        );
      }
      return token;
    },
  };
}
