// What the gateway keeps in its data directory beside the store: the directory itself, made and tried at start, and
// the secrets it generated. A directory it cannot use stops the start with a `StartFailure` saying what to do.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StartFailure, type GatewayConfig } from "./config.js";

/** The file of the data directory that keeps the generated secrets (owner-readable only). */
export const SECRETS_FILE = "secrets.json";

/** The secrets that may be generated, by variable, and the member of the configuration each one fills. */
const SECRETS = { LRG_SANDBOX_TOKEN: "sandboxToken", LRG_SIGNING_SECRET: "signingSecret" } as const;
type SecretName = keyof typeof SECRETS;

/** What happened, in the operator's words, by the system's error code. */
const FILE_FAILURES: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOTDIR: "a part of its path is a file, not a directory",
  EEXIST: "it is a file, not a directory",
  ENOENT: "a part of its path does not exist",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the path is too long",
};

/** Why a file operation failed, in a few words (the system's code when it has no words here). */
function whyOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return String(error);
  return FILE_FAILURES[code] ?? code;
}

/**
 * Makes the directory of `variable` when missing and tries a write in it, so that a directory the gateway cannot use
 * stops the start before anything is opened there, with one line naming the variable.
 */
export function prepareDirectory(path: string, variable: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw new StartFailure(
      `cannot create ${variable} ${path} (${whyOf(error)}); set ${variable} to a directory this process may create and write in`,
    );
  }
  const probe = join(path, `.lrg-write-check-${process.pid}`);
  try {
    writeFileSync(probe, "lrg");
    rmSync(probe);
  } catch (error) {
    rmSync(probe, { force: true });
    throw new StartFailure(
      `cannot write in ${variable} ${path} (${whyOf(error)}); set ${variable} to a directory this process may write in, or let it write there`,
    );
  }
}

/**
 * The secrets the gateway made up (`generated`), kept in the data directory so that they stay the same across
 * restarts on it: the admin token a newcomer copied into a profile, the secret that signed addresses handed out. A
 * secret written there by an earlier start is read back; a secret given in the environment is never written.
 */
export function keepGeneratedSecrets<Config extends GatewayConfig & { generated: string[] }>(
  config: Config,
): Config & { kept: string[] } {
  const file = join(config.dataDir, SECRETS_FILE);
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  const kept: string[] = [];
  const next = { ...config };
  for (const name of config.generated) {
    const member = SECRETS[name as SecretName];
    if (!member) continue;
    const earlier = stored[name];
    if (earlier) {
      next[member] = earlier;
      kept.push(name);
    } else stored[name] = config[member];
  }
  writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  return { ...next, kept };
}
