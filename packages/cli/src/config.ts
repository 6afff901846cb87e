// Profiles: named connections in a JSON file in the user's config directory (XDG), overridden by LRG_*
// environment variables and by flags. Secrets are read from the environment or a prompt; the file holds one only
// when the user asks (`--store-password`), and then with mode 0600. Nothing here ever prints a secret.
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

/** Everything needed to talk to a gateway, resolved from flags, LRG_* variables and the profile. */
export interface Connection {
  readonly profileName: string | undefined;
  readonly baseUrl: string;
  username(): string;
  password(): Promise<string>;
  tls(): { cert: string; key: string; ca?: string } | undefined;
  sandboxToken(): string;
}

function chosenProfile(flags: ConnectionFlags, env: Env): { name: string | undefined; profile: Profile | undefined } {
  const config = readConfig(env);
  const name = flags.profile ?? (env.LRG_PROFILE || undefined) ?? config.current;
  if (name === undefined) return { name, profile: undefined };
  const profile = config.profiles[name];
  if (profile === undefined) {
    const known = Object.keys(config.profiles);
    throw new UsageError(
      `no profile named ${name} (${known.length === 0 ? "none yet: lrg profile add" : `known: ${known.join(", ")}`})`,
    );
  }
  return { name, profile };
}

/**
 * Resolves the connection: flags first, then `LRG_BASE_URL`, `LRG_USERNAME`, `LRG_PASSWORD`, `LRG_CERT`,
 * `LRG_KEY`, `LRG_CA`, `LRG_SANDBOX_TOKEN`, then the profile (`--profile`, `LRG_PROFILE` or the current one).
 */
export function resolveConnection(flags: ConnectionFlags, env: Env = process.env): Connection {
  const { name, profile } = chosenProfile(flags, env);
  const baseUrl = flags.url ?? (env.LRG_BASE_URL || undefined) ?? profile?.base_url;
  if (baseUrl === undefined) {
    throw new UsageError(
      "no gateway address: add a profile (lrg profile add NAME --url URL ...), set LRG_BASE_URL or pass --url",
    );
  }
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`not an address: ${baseUrl}`);
  }
  const from = (variable: string | undefined): string | undefined =>
    variable === undefined ? undefined : env[variable] || undefined;
  const whose = name === undefined ? "" : ` (profile ${name})`;
  return {
    profileName: name,
    baseUrl,
    username: () => {
      const username = (env.LRG_USERNAME || undefined) ?? profile?.username;
      if (username === undefined)
        throw new UsageError(`no username${whose}: set LRG_USERNAME or add one to the profile`);
      return username;
    },
    password: async () => {
      const password = (env.LRG_PASSWORD || undefined) ?? from(profile?.password_env) ?? profile?.password;
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
      const cert = (env.LRG_CERT || undefined) ?? profile?.cert;
      const key = (env.LRG_KEY || undefined) ?? profile?.key;
      const ca = (env.LRG_CA || undefined) ?? profile?.ca;
      if (cert === undefined && key === undefined) return undefined;
      if (cert === undefined || key === undefined)
        throw new UsageError(`a client certificate needs both cert and key${whose}`);
      return { cert, key, ...(ca !== undefined && { ca }) };
    },
    sandboxToken: () => {
      const token = (env.LRG_SANDBOX_TOKEN || undefined) ?? from(profile?.sandbox_token_env) ?? profile?.sandbox_token;
      if (token === undefined) {
        throw new UsageError(
          `no sandbox token${whose}: set LRG_SANDBOX_TOKEN or add one to the profile (--sandbox-token-env NAME)`,
        );
      }
      return token;
    },
  };
}
